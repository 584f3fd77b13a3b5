/// A JSON document as parsed by `JSONParser` or written by `JSONWriter`.
///
/// Unlike Foundation's `JSONSerialization`, booleans and numbers are distinct
/// cases and objects keep their members in document order (`JSONObject`).
/// Every JSON number is held as a `Double`; the parser rejects numbers that
/// overflow to infinity, so a parsed value never holds a non-finite number.
public enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// The JSON name of this value's type:
  /// "null", "boolean", "number", "string", "array" or "object".
  package var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// Literals read as the JSON value they write: `nil` is null, an integer a number.
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// Members in literal order; a repeated key is handled as in `JSONObject.init(_:)`.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements))
  }
}
