/// One layer of a vector tile, parsed: its name, extent and version, its
/// keys and values tables (decoded once, shared by its features), and the
/// byte range of each feature, decoded only when `feature(at:)` asks.
///
/// A class so that each `VectorTileFeature` holds one reference to its
/// layer's tables instead of copies.
package final class VectorTileLayer: Sendable {
  /// The layer message's fields (`vector_tile.proto`, specification 2.1).
  enum Field {
    static let name: UInt64 = 1
    static let features: UInt64 = 2
    static let keys: UInt64 = 3
    static let values: UInt64 = 4
    static let extent: UInt64 = 5
    static let version: UInt64 = 15
  }

  /// The `Value` message's fields.
  enum ValueField {
    static let string: UInt64 = 1
    static let float: UInt64 = 2
    static let double: UInt64 = 3
    static let int: UInt64 = 4
    static let uint: UInt64 = 5
    static let sint: UInt64 = 6
    static let bool: UInt64 = 7
  }

  /// The specification's default extent (the `extent` field's default).
  package static let defaultExtent: UInt32 = 4096
  /// The `version` field's default: a layer that does not say is version 1.
  package static let defaultVersion: UInt32 = 1
  /// The newest specification version this reader knows.
  package static let newestVersion: UInt32 = 2

  package let name: String
  /// The width and height of the tile in the layer's integer coordinates
  /// (any positive value: 4096 by default, 512 and 8192 are common).
  package let extent: UInt32
  package let version: UInt32
  /// The layer's keys table: the property names its features' tags index.
  package let keys: [String]
  /// Each key's index in `keys` (the first, where a key repeats).
  package let keyIndices: [String: Int]
  /// The layer's values table: strings, numbers (every integer and float
  /// kind of the specification is a `.number`) and booleans; a value
  /// message with no value is `.null`.
  package let values: [StyleValue]
  /// The tile's bytes (shared with the tile, not copied).
  let bytes: [UInt8]
  /// Feature `i`'s message is `featureBounds[2i] ..< featureBounds[2i + 1]`.
  let featureBounds: [UInt32]

  package var featureCount: Int { featureBounds.count / 2 }

  /// Parses the layer message in `range` of `bytes`.
  init(bytes: [UInt8], range: Range<Int>, name: String) throws(VectorTileError) {
    var extent = Self.defaultExtent
    var version = Self.defaultVersion
    var keys: [String] = []
    var values: [StyleValue] = []
    var bounds: [UInt32] = []
    try bytes.withUnsafeBufferPointer { (buffer) throws(VectorTileError) in
      var reader = ProtobufReader(buffer, start: range.lowerBound, end: range.upperBound)
      while !reader.isAtEnd {
        let (field, wire) = try reader.key()
        switch field {
        case Field.features:
          try reader.expect(wire, .lengthDelimited, field: field)
          let feature = try reader.lengthDelimited()
          guard bounds.count < 2 * VectorTileLimits.maxFeaturesPerLayer else {
            throw .tooManyFeatures(layer: name, limit: VectorTileLimits.maxFeaturesPerLayer)
          }
          // Tiles are read whole into memory, so offsets fit 32 bits (the
          // inflation limit is far below 4 GiB).
          bounds.append(UInt32(truncatingIfNeeded: feature.lowerBound))
          bounds.append(UInt32(truncatingIfNeeded: feature.upperBound))
        case Field.keys:
          try reader.expect(wire, .lengthDelimited, field: field)
          guard keys.count < VectorTileLimits.maxKeysOrValuesPerLayer else {
            throw .tooManyKeysOrValues(layer: name, limit: VectorTileLimits.maxKeysOrValuesPerLayer)
          }
          keys.append(reader.string(try reader.lengthDelimited()))
        case Field.values:
          try reader.expect(wire, .lengthDelimited, field: field)
          let value = try reader.lengthDelimited()
          guard values.count < VectorTileLimits.maxKeysOrValuesPerLayer else {
            throw .tooManyKeysOrValues(layer: name, limit: VectorTileLimits.maxKeysOrValuesPerLayer)
          }
          values.append(try Self.value(buffer, value))
        case Field.extent:
          try reader.expect(wire, .varint, field: field)
          extent = try reader.varint32()
        case Field.version:
          try reader.expect(wire, .varint, field: field)
          version = try reader.varint32()
        default:
          try reader.skip(wire)
        }
      }
    }
    guard extent > 0 else { throw .invalidExtent(layer: name) }
    guard version <= Self.newestVersion else { throw .unsupportedVersion(layer: name, version: version) }
    self.name = name
    self.extent = extent
    self.version = version
    self.keys = keys
    var indices: [String: Int] = [:]
    indices.reserveCapacity(keys.count)
    for (i, key) in keys.enumerated() where indices[key] == nil { indices[key] = i }
    self.keyIndices = indices
    self.values = values
    self.bytes = bytes
    self.featureBounds = bounds
  }

  /// A `Value` message. Where it holds several value fields the last one
  /// counts, as protocol buffers merge them.
  static func value(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(VectorTileError) -> StyleValue {
    var reader = ProtobufReader(buffer, start: range.lowerBound, end: range.upperBound)
    var value = StyleValue.null
    while !reader.isAtEnd {
      let (field, wire) = try reader.key()
      switch field {
      case ValueField.string:
        try reader.expect(wire, .lengthDelimited, field: field)
        value = .string(reader.string(try reader.lengthDelimited()))
      case ValueField.float:
        try reader.expect(wire, .fixed32, field: field)
        value = .number(Double(Float(bitPattern: try reader.fixed32())))
      case ValueField.double:
        try reader.expect(wire, .fixed64, field: field)
        value = .number(Double(bitPattern: try reader.fixed64()))
      case ValueField.int:
        try reader.expect(wire, .varint, field: field)
        value = .number(Double(Int64(bitPattern: try reader.varint())))
      case ValueField.uint:
        try reader.expect(wire, .varint, field: field)
        value = .number(Double(try reader.varint()))
      case ValueField.sint:
        try reader.expect(wire, .varint, field: field)
        value = .number(Double(ProtobufReader.zigzag(try reader.varint())))
      case ValueField.bool:
        try reader.expect(wire, .varint, field: field)
        value = .bool(try reader.varint() != 0)
      default:
        try reader.skip(wire)
      }
    }
    return value
  }

  /// Feature `index` (0 ..< featureCount): its id, geometry type and the
  /// ranges of its tags and geometry, which are decoded when asked for.
  package func feature(at index: Int) throws(VectorTileError) -> VectorTileFeature {
    guard index >= 0, index < featureCount else {
      throw .featureIndexOutOfRange(layer: name, index: index, count: featureCount)
    }
    let start = Int(featureBounds[2 * index])
    let end = Int(featureBounds[2 * index + 1])
    return try bytes.withUnsafeBufferPointer { (buffer) throws(VectorTileError) in
      try VectorTileFeature(layer: self, index: index, buffer: buffer, range: start..<end)
    }
  }
}
