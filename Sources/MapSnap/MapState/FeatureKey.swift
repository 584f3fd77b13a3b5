/// Names one feature of a layer so that two reports can be matched entry by
/// entry, whatever format and order the source's features come in.
///
/// Rule (one for every source kind): a feature with an id is keyed by it:
/// the layer's `idField` property, else the source's own id (the GeoJSON
/// `id` member; a graphic's `id`). An `ogr` layer's FID is the driver's
/// numbering of its rows (GeoPackage, Shapefile, FlatGeobuf, File
/// Geodatabase and PostGIS number alike data differently), not an id: it
/// keys nothing. A feature without an id is keyed by its `digest`: 12 hex
/// digits of SHA-256 over its geometry (in degrees, to 1e-7°) and the
/// properties the layer uses (`FeatureKeyDigest`), with `-2`, `-3`, … for the
/// second, third, … feature of the same digest in read order; it is worked
/// out for the features a report names (labels, annotation texts, markers
/// that `collides`), not for every feature drawn. ``text`` is
/// the id's text, else the digest (`#` and the index for a graphic without
/// id). `index` is the feature's position in its source (or in the layer's
/// `graphics`): the order features are drawn and listed in, not an identity.
public struct FeatureKey: Sendable, Hashable {
  public var id: FeatureID?
  /// The key of a feature without an id (nil for one with an id, and for a
  /// graphic).
  public var digest: String?
  public var index: Int

  public init(id: FeatureID?, index: Int, digest: String? = nil) {
    self.id = id
    self.index = index
    self.digest = id == nil ? digest : nil
  }

  /// Keys are equal when their ids or digests are; `index` tells apart
  /// only keys with neither (graphics without id), so a key read back from
  /// a report (which holds no index) equals the one it was written from.
  public static func == (a: FeatureKey, b: FeatureKey) -> Bool {
    a.id == b.id && a.digest == b.digest && (a.id != nil || a.digest != nil || a.index == b.index)
  }

  public func hash(into h: inout Hasher) {
    h.combine(id)
    h.combine(digest)
    if id == nil && digest == nil { h.combine(index) }
  }

  /// `V-7` for an id, `3fa9c2b1e0d4` for a feature keyed by its digest.
  public var text: String { id?.text ?? digest ?? "#\(index)" }

  /// The report's `"id"` (the id, or null) and `"key"` (``text``).
  var reportPairs: [(String, JSONValue)] { [("id", id?.json ?? .null), ("key", .string(text))] }
}
