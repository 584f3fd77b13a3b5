/// Every feature id of a source under one `idField` (the property, else the
/// GeoJSON `id`): which features carry each id, and the ids' texts sorted for
/// "did you mean" hints. Built once per source and id field, so a frame looks
/// up only the ids its view annotations name.
struct FeatureIDIndex: Sendable {
  /// Id → positions, ascending: `0..<features.count` in `features`, then
  /// `features.count + j` for `withoutGeometry[j]`.
  let positions: [FeatureID: [Int32]]
  /// Every id's text once, sorted (`String` order).
  let sortedTexts: [String]

  /// The index of `collection` under `idField`.
  init(_ collection: FeatureCollection, idField: String?) {
    var positions: [FeatureID: [Int32]] = [:]
    var position: Int32 = 0
    for list in [collection.features, collection.withoutGeometry] {
      for f in list {
        if let id = Self.id(of: f, idField: idField) { positions[id, default: []].append(position) }
        position += 1
      }
    }
    self.positions = positions
    sortedTexts = positions.keys.map(\.text).sorted()
  }

  /// A feature's id: its `idField` property when the layer names one and
  /// the feature has it (a null there is no id), else its GeoJSON `id`.
  static func id(of f: Feature, idField: String?) -> FeatureID? {
    (idField.flatMap { f.properties[$0] } ?? f.id).flatMap(FeatureID.init(json:))
  }

  /// Bytes held, roughly.
  var approximateBytes: Int {
    var n = 0
    for (id, list) in positions { n += 64 + id.text.utf8.count + list.count * 4 }
    return n + sortedTexts.count * 16
  }
}
