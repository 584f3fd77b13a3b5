/// A value of the style specification's expression language: what an
/// expression evaluates to, what a feature property holds, what a paint or
/// layout property resolves to.
package enum StyleValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case color(StyleColor)
  case array([StyleValue])
  /// An object; members keep their document order.
  case object([(String, StyleValue)])
  /// A `collator` expression's comparison rules.
  case collator(StyleCollator)
  /// Rich text: a `format` expression's sections.
  case formatted(StyleFormatted)
  /// An `image` expression's image name and whether the style has it.
  case image(StyleResolvedImage)
  /// `padding`: top, right, bottom, left.
  case padding([Double])
  /// `numberArray`: a number or numbers, interpolated element by element.
  case numberArray([Double])
  /// `colorArray`: a colour or colours, interpolated element by element.
  case colorArray([StyleColor])
  /// `variableAnchorOffsetCollection`: anchors, each with its [x, y] offset.
  case anchorOffsets([(String, [Double])])
  /// A `projectionDefinition` part of the way from one projection to another
  /// (a single projection is a `.string`).
  case projection(StyleProjectionTransition)

  package static func == (a: StyleValue, b: StyleValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.color(let x), .color(let y)): return x == y
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    case (.collator(let x), .collator(let y)): return x == y
    case (.formatted(let x), .formatted(let y)): return x == y
    case (.image(let x), .image(let y)): return x == y
    case (.padding(let x), .padding(let y)): return x == y
    case (.numberArray(let x), .numberArray(let y)): return x == y
    case (.colorArray(let x), .colorArray(let y)): return x == y
    case (.projection(let x), .projection(let y)): return x == y
    case (.anchorOffsets(let x), .anchorOffsets(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: return false
    }
  }
}
