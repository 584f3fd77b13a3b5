/// A number or a string that keys something by value: a floor (section 5)
/// or a feature's id (view annotations, highlights, `--fit`). Numbers and
/// strings compare by value, so `2` equals `"2"` and `"2.0"`; other strings
/// compare as written ("L2").
public struct ScalarKey: Sendable, Hashable, CustomStringConvertible {
  /// The canonical text: integral numbers without a fraction ("2", not "2.0").
  public let text: String
  /// True when the value is a number (as given, or a string that reads as one).
  public let isNumber: Bool

  /// The key `text` names: a number when it reads as one (a sign, digit
  /// or point first), else the text as written.
  public init(_ text: String) {
    if let n = Double(text), n.isFinite, text.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true {
      self.init(text: format(n), isNumber: true)
    } else {
      self.init(text: text, isNumber: false)
    }
  }

  /// The key `number` names.
  public init(_ number: Double) {
    self.init(text: format(number), isNumber: true)
  }

  private init(text: String, isNumber: Bool) {
    self.text = text
    self.isNumber = isNumber
  }


  /// The key a JSON value names, or nil for null, booleans and non-scalars.
  public init?(json: JSONValue) {
    switch json {
    case .string(let s): self.init(s)
    case .number(let n): self.init(n)
    default: return nil
    }
  }

  /// Keys compare, and hash, by their canonical text.
  public static func == (a: ScalarKey, b: ScalarKey) -> Bool { a.text == b.text }
  public func hash(into h: inout Hasher) { h.combine(text) }

  /// The value for JSON output: a number when it is one.
  public var json: JSONValue {
    isNumber ? .number(Double(text) ?? 0) : .string(text)
  }

  public var description: String { text }
}

/// A floor (scene format section 5): a `ScalarKey`, so `2`, `"2"` and `"2.0"`
/// name one floor.
public typealias FloorValue = ScalarKey
