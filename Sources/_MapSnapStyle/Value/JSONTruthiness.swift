package import _MapSnapJSON

extension JSONValue {
  /// JavaScript's truthiness, which the reference implementations test
  /// options and members with (`if (options[x])`): null, false, 0, NaN and
  /// "" are false.
  package var isTruthy: Bool {
    switch self {
    case .null: return false
    case .bool(let b): return b
    case .number(let n): return n != 0 && !n.isNaN
    case .string(let s): return !s.isEmpty
    default: return true
    }
  }
}
