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
    default: return false
    }
  }
}

/// An sRGB colour of the expression language, straight (not premultiplied)
/// alpha, each channel in 0...1.
package struct StyleColor: Sendable, Equatable, Hashable {
  package var r: Double
  package var g: Double
  package var b: Double
  package var a: Double

  package init(r: Double, g: Double, b: Double, a: Double = 1) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }
}
