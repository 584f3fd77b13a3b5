internal import _MapSnapRaster

/// A source of features opened for reading: a GeoJSON file
/// (`GeoJSONFileReader`) or a layer of an `ogr` dataset (`LayerReader`: a
/// GeoPackage table through SQLite, a PostGIS table through libpq, anything
/// else through GDAL). `SourceLoader` reads every file and dataset source
/// through it (inline data is the scene's, not read).
///
/// Rules every reader keeps: the features come in the source's order (for a
/// dataset, FID order), in the coordinates written (the source's reference);
/// what could not be read is a `SourceError` naming the source as the scene
/// names it; a feature without a geometry, or with an empty one, is
/// unlocated, and one whose geometry does not parse is invalid
/// (`FeatureReadBuilder` keeps that tally once for the dataset readers).
protocol FeatureReader<Info> {
  /// What a read found besides its features.
  associatedtype Info
  /// The features whose envelopes meet `filter` (in the source's reference;
  /// nil: every feature), with the fields in `fields` as properties (nil:
  /// every one; `FeatureReadBuilder.makes`), and what the read found.
  func read(filter: Rect?, fields: Set<String>?) -> Result<FeatureRead<Info>, SourceError>
}

/// What a `FeatureReader` read: the features, and what the read found (for
/// a dataset layer, what the report and `explain` say of it; nothing for a
/// GeoJSON file, read whole and kept).
struct FeatureRead<Info> {
  var collection: FeatureCollection
  var info: Info
}

/// A layer of an `ogr` source, open: its name and reference are known
/// before any feature is read (the filter is turned into that reference).
protocol LayerReader: FeatureReader where Info == OGRReadInfo {
  /// The layer's name in its dataset.
  var layerName: String { get }
  /// `AUTHORITY:CODE` or WKT; nil when the layer has no reference.
  var reference: String? { get }
}

/// The load bookkeeping of a dataset layer's read, written once for every
/// `LayerReader`: each feature (FID, properties, geometry) is filed as drawn,
/// unlocated or invalid (the first `invalidSamplesKept` invalid ones kept as
/// samples, named by FID), counted, and hashed into the read's digest
/// (`FeatureDigest`); `finish` gives the collection and its `OGRReadInfo`.
struct FeatureReadBuilder: ~Copyable {
  /// The features filed so far; its `schema` names every field of the layer.
  private(set) var collection = FeatureCollection()
  private var digest = FeatureDigest()
  /// Features read (drawn, unlocated or invalid).
  private(set) var count = 0

  /// How many invalid features a read names in `invalidSamples`.
  static let invalidSamplesKept = 3

  /// A read of a layer whose fields are `schema` (nil: not known yet).
  init(schema: [String]?) {
    collection.schema = schema
  }

  /// The layer's fields, when its features name them.
  mutating func setSchema(_ schema: [String]) { collection.schema = schema }

  /// Rule: a read asked for `fields` makes a property of the field `name`
  /// when `fields` names it; nil asks for every field.
  static func makes(_ name: String, of fields: Set<String>?) -> Bool { fields?.contains(name) ?? true }

  /// Room for `n` features, for a read that knows about how many it reads.
  mutating func reserve(_ n: Int) { collection.features.reserveCapacity(n) }

  /// Files a feature read with its geometry as WKB (empty: none), hashing
  /// its FID, WKB and properties.
  mutating func add(fid: Int, properties: JSONObject, wkb: UnsafeRawBufferPointer) {
    digest.add(fid: fid, geometry: wkb, properties: properties)
    guard wkb.count > 0 else {
      add(fid: fid, properties: properties, geometry: nil, issue: nil)
      return
    }
    do throws(WKBReader.Issue) {
      add(fid: fid, properties: properties, geometry: try WKBReader.geometry(wkb), issue: nil)
    } catch {
      add(fid: fid, properties: properties, geometry: nil, issue: error)
    }
  }

  /// Files a feature whose geometry is parsed (nil: none) or failed to
  /// parse (`issue`); the caller hashed it (`beginDigest`,
  /// `digestProperty`). The feature is made once, its geometry moved in.
  mutating func add(fid: Int, properties: JSONObject, geometry: consuming Geometry?, issue: WKBReader.Issue?) {
    count += 1
    if let issue {
      collection.invalidCount += 1
      if collection.invalidSamples.count < Self.invalidSamplesKept {
        collection.invalidSamples.append("FID \(fid): \(issue.message)")
      }
    }
    guard issue == nil, let g = consume geometry, !g.isEmpty else {
      if issue == nil { collection.unlocatedCount += 1 }
      collection.withoutGeometry.append(Feature(id: .number(Double(fid)), properties: properties, geometry: Geometry(), index: fid))
      return
    }
    collection.features.append(Feature(id: .number(Double(fid)), properties: properties, geometry: g, index: fid))
  }

  /// The first pieces of a feature's digest (`FeatureDigest.begin`), for a
  /// reader that hashes properties as it makes them.
  mutating func beginDigest(fid: Int, geometry: UnsafeRawBufferPointer) { digest.begin(fid: fid, geometry: geometry) }

  /// One property of the feature whose digest was begun last.
  mutating func digestProperty(_ key: String, _ value: JSONValue) { digest.property(key, value) }

  /// Puts the features in FID order (a spatial index may return them in
  /// its own order).
  mutating func sortByFID() {
    collection.features.sort { $0.index < $1.index }
    collection.withoutGeometry.sort { $0.index < $1.index }
  }

  /// The collection with its digest, and what the read found: the layer's
  /// `reference` is named as `OGRReadInfo.referenceName` names it (the
  /// source's `crs` first); `scan` says why no spatial index served it.
  consuming func finish(
    driver: String, layer: String, reference: String?, source: OGRSource, featuresInLayer: Int?, scan: OGRScan?
  ) -> FeatureRead<OGRReadInfo> {
    var c = collection
    c.content = digest.finish()
    let info = OGRReadInfo(
      driver: driver, layer: layer, spatialReference: OGRReadInfo.referenceName(crs: source.crs, layer: reference),
      featuresRead: count, featuresInLayer: featuresInLayer, scan: scan)
    return FeatureRead(collection: c, info: info)
  }
}

/// An attribute integer as a property: a number, or text beyond ±2^53
/// (where a number would round it).
func ogrInteger(_ v: Int64) -> JSONValue {
  v.magnitude <= 1 << 53 ? .number(Double(v)) : .string(String(v))
}
