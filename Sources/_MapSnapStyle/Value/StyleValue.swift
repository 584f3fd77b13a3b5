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

  package static let black = StyleColor(r: 0, g: 0, b: 0)
  package static let transparent = StyleColor(r: 0, g: 0, b: 0, a: 0)
}

/// How `==`, `<`, ... compare strings under a `collator`.
package struct StyleCollator: Sendable, Equatable {
  package var caseSensitive: Bool
  package var diacriticSensitive: Bool
  /// The requested locale (a BCP 47 tag), nil for the default.
  package var locale: String?
}

/// One run of rich text.
package struct StyleFormattedSection: Sendable, Equatable {
  package var text: String
  package var image: StyleResolvedImage?
  package var scale: Double?
  package var fontStack: String?
  package var textColor: StyleColor?
  package var verticalAlign: String?
}

/// Rich text: what a `format` expression builds.
package struct StyleFormatted: Sendable, Equatable {
  package var sections: [StyleFormattedSection]
}

/// A transition between two projections (`projectionDefinition`).
package struct StyleProjectionTransition: Sendable, Equatable {
  package var from: String
  package var to: String
  /// 0 at `from`, 1 at `to`.
  package var transition: Double
}

/// An image named by an `image` expression.
package struct StyleResolvedImage: Sendable, Equatable {
  package var name: String
  /// Whether the image was among the available images when evaluated.
  package var available: Bool
}
