/// One feature of a vector tile layer: its id and geometry type, read when
/// the feature is taken from its layer; its properties and geometry are
/// decoded from the tile's bytes only when asked for.
package struct VectorTileFeature: Sendable {
  /// The feature message's fields.
  enum Field {
    static let id: UInt64 = 1
    static let tags: UInt64 = 2
    static let type: UInt64 = 3
    static let geometry: UInt64 = 4
  }

  package let layer: VectorTileLayer
  /// The feature's index in its layer.
  package let index: Int
  /// The feature's id (`.number`), or nil when the feature has none.
  package let id: StyleValue?
  /// The geometry type; a type the specification does not define is `.unknown`.
  package let kind: GeometryKind
  /// The packed `tags` and `geometry` fields, as byte ranges of the tile.
  let tags: Range<Int>
  let geometryRange: Range<Int>

  init(layer: VectorTileLayer, index: Int, buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>) throws(VectorTileError) {
    var reader = ProtobufReader(buffer, start: range.lowerBound, end: range.upperBound)
    var id: StyleValue?
    var kind = GeometryKind.unknown
    var tags = range.lowerBound..<range.lowerBound
    var geometry = range.lowerBound..<range.lowerBound
    while !reader.isAtEnd {
      let (field, wire) = try reader.key()
      switch field {
      case Field.id:
        try reader.expect(wire, .varint, field: field)
        id = .number(Double(try reader.varint()))
      case Field.tags:
        try reader.expect(wire, .lengthDelimited, field: field)
        tags = try reader.lengthDelimited()
      case Field.type:
        try reader.expect(wire, .varint, field: field)
        let t = try reader.varint()
        kind = t <= 3 ? GeometryKind(rawValue: UInt8(t))! : .unknown
      case Field.geometry:
        try reader.expect(wire, .lengthDelimited, field: field)
        geometry = try reader.lengthDelimited()
      default:
        try reader.skip(wire)
      }
    }
    self.layer = layer
    self.index = index
    self.id = id
    self.kind = kind
    self.tags = tags
    self.geometryRange = geometry
  }

  /// Calls `body` with each property's key index and value index (into the
  /// layer's `keys` and `values`), in tag order, after checking both.
  func forEachTag(_ body: (Int, Int) -> Void) throws(VectorTileError) {
    let keyCount = layer.keys.count
    let valueCount = layer.values.count
    try layer.bytes.withUnsafeBufferPointer { (buffer) throws(VectorTileError) in
      var reader = ProtobufReader(buffer, start: tags.lowerBound, end: tags.upperBound)
      while !reader.isAtEnd {
        let key = try reader.varint32()
        guard !reader.isAtEnd else { throw .oddTagCount(layer: layer.name, feature: index) }
        let value = try reader.varint32()
        guard Int(key) < keyCount else {
          throw .keyIndexOutOfRange(layer: layer.name, feature: index, index: key, count: keyCount)
        }
        guard Int(value) < valueCount else {
          throw .valueIndexOutOfRange(layer: layer.name, feature: index, index: value, count: valueCount)
        }
        body(Int(key), Int(value))
      }
    }
  }

  /// The feature's properties. Where a key repeats, its last value counts.
  package func properties() throws(VectorTileError) -> [String: StyleValue] {
    var properties: [String: StyleValue] = [:]
    // Each tag is two varints of at least one byte each.
    properties.reserveCapacity(tags.count / 2)
    let keys = layer.keys
    let values = layer.values
    try forEachTag { k, v in properties[keys[k]] = values[v] }
    return properties
  }

  /// The value of the property `name`, or nil when the feature has none,
  /// without building the whole dictionary. Where a key repeats, its last
  /// value counts.
  package func property(named name: String) throws(VectorTileError) -> StyleValue? {
    guard let key = layer.keyIndices[name] else {
      try forEachTag { _, _ in }  // the tags are still checked
      return nil
    }
    return try property(keyIndex: key)
  }

  /// The value of the property whose key is `keys[keyIndex]` of the layer
  /// (`VectorTileLayer.keyIndices`), or nil: for loops that read one
  /// property of many features, with the key looked up once.
  package func property(keyIndex: Int) throws(VectorTileError) -> StyleValue? {
    var found: Int?
    if layer.keyIndices.count == layer.keys.count {
      try forEachTag { k, v in if k == keyIndex { found = v } }
    } else {
      // A keys table with repeats (the specification asks encoders not to
      // write them): a key matches by name.
      let keys = layer.keys
      try forEachTag { k, v in if keys[k] == keys[keyIndex] { found = v } }
    }
    return found.map { layer.values[$0] }
  }

  /// What an expression reads of the feature. `isMulti` (read only by the
  /// `geometry-type` expression) needs the geometry decoded, so it is
  /// resolved only when `resolvingMulti` is true and false otherwise.
  package func evaluationFeature(resolvingMulti: Bool = false) throws(VectorTileError) -> EvaluationFeature {
    EvaluationFeature(
      id: id, kind: kind, isMulti: resolvingMulti ? try geometry().isMulti : false, properties: try properties())
  }

  /// The feature's geometry in the layer's integer tile coordinates.
  package func geometry() throws(VectorTileError) -> TileGeometry {
    var geometry = TileGeometry()
    try decodeGeometry(into: &geometry)
    return geometry
  }

  /// Decodes the geometry into `geometry`, replacing what it held and
  /// keeping its buffers' capacity (a loop over many features reuses one).
  package func decodeGeometry(into geometry: inout TileGeometry) throws(VectorTileError) {
    try layer.bytes.withUnsafeBufferPointer { (buffer) throws(VectorTileError) in
      var reader = ProtobufReader(buffer, start: geometryRange.lowerBound, end: geometryRange.upperBound)
      try geometry.decode(&reader, kind: kind, layer: layer.name, feature: index)
    }
  }
}
