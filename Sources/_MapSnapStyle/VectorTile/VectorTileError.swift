/// Why a vector tile, or one of its layers or features, cannot be decoded.
/// Offsets are byte offsets into the (inflated) tile.
package enum VectorTileError: Error, Sendable, Equatable {
  /// A varint runs past its message, or is longer than ten bytes.
  case truncatedVarint(offset: Int)
  /// A length, count or index that must fit 32 bits does not.
  case valueTooLarge(offset: Int)
  /// A field key with a wire type its field cannot have (or no wire type at all).
  case wrongWireType(field: UInt64, wire: UInt8, offset: Int)
  /// A length-delimited or fixed-width field runs past its message.
  case lengthPastEnd(offset: Int, length: UInt64)
  /// A layer without its required `name`.
  case layerWithoutName(offset: Int)
  /// A layer whose `version` this reader does not know (1 and 2 are).
  case unsupportedVersion(layer: String, version: UInt32)
  /// A layer whose `extent` is 0.
  case invalidExtent(layer: String)
  /// More layers in one tile than `VectorTileLimits.maxLayers`.
  case tooManyLayers(limit: Int)
  /// More features in one layer than `VectorTileLimits.maxFeaturesPerLayer`.
  case tooManyFeatures(layer: String, limit: Int)
  /// More keys or values in one layer than `VectorTileLimits.maxKeysOrValuesPerLayer`.
  case tooManyKeysOrValues(layer: String, limit: Int)
  /// `feature(at:)` asked for a feature the layer does not have.
  case featureIndexOutOfRange(layer: String, index: Int, count: Int)
  /// A feature's `tags` hold an odd number of integers.
  case oddTagCount(layer: String, feature: Int)
  /// A feature's tag names a key the layer's `keys` table does not have.
  case keyIndexOutOfRange(layer: String, feature: Int, index: UInt32, count: Int)
  /// A feature's tag names a value the layer's `values` table does not have.
  case valueIndexOutOfRange(layer: String, feature: Int, index: UInt32, count: Int)
  /// A geometry command whose parameters run past the geometry's end.
  case commandCountPastEnd(layer: String, feature: Int, command: UInt32, count: UInt32)
  /// A geometry command id other than MoveTo (1), LineTo (2), ClosePath (7).
  case unknownCommand(layer: String, feature: Int, command: UInt32)
  /// A LineTo or ClosePath before any MoveTo, or a ClosePath with a count other than 1.
  case misplacedCommand(layer: String, feature: Int, command: UInt32)

  /// The message a report shows.
  package var message: String {
    switch self {
    case .truncatedVarint(let offset):
      return "vector tile: truncated varint at byte \(offset)"
    case .valueTooLarge(let offset):
      return "vector tile: a length, count or index at byte \(offset) does not fit 32 bits"
    case .wrongWireType(let field, let wire, let offset):
      return "vector tile: field \(field) has wire type \(wire), which it cannot have (byte \(offset))"
    case .lengthPastEnd(let offset, let length):
      return "vector tile: a field of \(length) bytes at byte \(offset) runs past the end of its message"
    case .layerWithoutName(let offset):
      return "vector tile: the layer at byte \(offset) has no name"
    case .unsupportedVersion(let layer, let version):
      return "vector tile: layer '\(layer)' has version \(version); Mapbox Vector Tile versions 1 and 2 are read"
    case .invalidExtent(let layer):
      return "vector tile: layer '\(layer)' has an extent of 0"
    case .tooManyLayers(let limit):
      return "vector tile: more than \(limit) layers (the limit per tile)"
    case .tooManyFeatures(let layer, let limit):
      return "vector tile: layer '\(layer)' has more than \(limit) features (the limit per layer)"
    case .tooManyKeysOrValues(let layer, let limit):
      return "vector tile: layer '\(layer)' has more than \(limit) keys or values (the limit per table)"
    case .featureIndexOutOfRange(let layer, let index, let count):
      return "vector tile: layer '\(layer)' has \(count) features; there is no feature \(index)"
    case .oddTagCount(let layer, let feature):
      return "vector tile: layer '\(layer)', feature \(feature): its tags hold an odd number of integers"
    case .keyIndexOutOfRange(let layer, let feature, let index, let count):
      return "vector tile: layer '\(layer)', feature \(feature): key index \(index) is past the layer's \(count) keys"
    case .valueIndexOutOfRange(let layer, let feature, let index, let count):
      return "vector tile: layer '\(layer)', feature \(feature): value index \(index) is past the layer's \(count) values"
    case .commandCountPastEnd(let layer, let feature, let command, let count):
      return "vector tile: layer '\(layer)', feature \(feature): command \(command) with count \(count) runs past the end of the geometry"
    case .unknownCommand(let layer, let feature, let command):
      return "vector tile: layer '\(layer)', feature \(feature): unknown geometry command \(command)"
    case .misplacedCommand(let layer, let feature, let command):
      return "vector tile: layer '\(layer)', feature \(feature): geometry command \(command) is out of place (a LineTo or ClosePath before a MoveTo, or a ClosePath whose count is not 1)"
    }
  }
}

extension VectorTileError: CustomStringConvertible {
  package var description: String { message }
}
