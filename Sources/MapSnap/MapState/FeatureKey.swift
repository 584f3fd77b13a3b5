/// Names one feature of a layer so that two reports can be matched entry by
/// entry: its id (the GeoJSON `id` member, the layer's `idField` property,
/// or a graphic's `id`) when it has one, and always its 0-based index in its
/// source (or in the layer's `graphics`).
///
/// Rule: entries are matched on (layer, id, part) when the id is present, else
/// on (layer, index, part). ``text`` is the id's text, or `#` and the index.
public struct FeatureKey: Sendable, Hashable {
  public var id: FloorValue?
  public var index: Int

  public init(id: FloorValue?, index: Int) {
    self.id = id
    self.index = index
  }

  /// `V-7` for an id, `#12` for a feature without one.
  public var text: String { id?.text ?? "#\(index)" }
}
