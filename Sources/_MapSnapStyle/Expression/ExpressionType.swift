/// The type of an expression or a value, as the specification's type
/// checker sees it.
package indirect enum ExpressionType: Sendable, Equatable {
  case null, number, string, boolean, color, object, value, error, collator, formatted
  case resolvedImage, padding, numberArray, colorArray, variableAnchorOffsetCollection, projectionDefinition
  /// An array of `item`, of a fixed length or not.
  case array(ExpressionType, Int?)

  /// `array` is `array<value>` of any length.
  package static let anyArray = ExpressionType.array(.value, nil)

  /// The name the specification prints: `number`, `array<number, 2>`, `array`, ...
  package var name: String {
    switch self {
    case .null: return "null"
    case .number: return "number"
    case .string: return "string"
    case .boolean: return "boolean"
    case .color: return "color"
    case .object: return "object"
    case .value: return "value"
    case .error: return "error"
    case .collator: return "collator"
    case .formatted: return "formatted"
    case .resolvedImage: return "resolvedImage"
    case .padding: return "padding"
    case .numberArray: return "numberArray"
    case .colorArray: return "colorArray"
    case .variableAnchorOffsetCollection: return "variableAnchorOffsetCollection"
    case .projectionDefinition: return "projectionDefinition"
    case .array(let item, let n):
      if let n { return "array<\(item.name), \(n)>" }
      if item == .value { return "array" }
      return "array<\(item.name)>"
    }
  }

  /// The kinds a `value` may hold at run time.
  static let valueMembers: [ExpressionType] = [
    .null, .number, .string, .boolean, .color, .formatted, .object, .anyArray, .padding,
    .numberArray, .colorArray, .resolvedImage, .variableAnchorOffsetCollection,
  ]

  /// nil when `actual` may stand where `self` is expected; otherwise the
  /// specification's message.
  package func mismatch(_ actual: ExpressionType) -> String? {
    if actual == .error { return nil }
    switch (self, actual) {
    case (.array(let item, let n), .array(let actualItem, let actualN)):
      if (actualN == 0 && actualItem == .value) || item.mismatch(actualItem) == nil, n == nil || n == actualN {
        return nil
      }
    case (.value, _):
      if actual == .value { return nil }
      if ExpressionType.valueMembers.contains(where: { $0.mismatch(actual) == nil }) { return nil }
    default:
      if self.sameKind(actual) { return nil }
    }
    return "Expected \(name) but found \(actual.name) instead."
  }

  /// Whether both are the same kind of type (arrays of anything are one kind).
  package func sameKind(_ other: ExpressionType) -> Bool {
    switch (self, other) {
    case (.array, .array): return true
    default: return self == other
    }
  }

  package var isArray: Bool { if case .array = self { return true } else { return false } }
}

extension StyleValue {
  /// The type of this value as `typeof` reports it: an array's item type is
  /// the one type all its elements share, or `value`.
  package var type: ExpressionType {
    switch self {
    case .null: return .null
    case .bool: return .boolean
    case .number: return .number
    case .string: return .string
    case .color: return .color
    case .object: return .object
    case .collator: return .collator
    case .formatted: return .formatted
    case .image: return .resolvedImage
    case .padding: return .padding
    case .numberArray: return .numberArray
    case .colorArray: return .colorArray
    case .anchorOffsets: return .variableAnchorOffsetCollection
    case .projection: return .projectionDefinition
    case .array(let items):
      var item: ExpressionType?
      for element in items {
        let t = element.type
        if item == nil {
          item = t
        } else if item != t {
          item = .value
          break
        }
      }
      return .array(item ?? .value, items.count)
    }
  }
}
