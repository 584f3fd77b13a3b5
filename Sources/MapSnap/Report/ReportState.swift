/// What one report says of one item, as `ReportDiff` compares it: not in
/// the report, a layer's or sublayer's status flags, an outcome, or a count.
public enum ReportState: Sendable, Hashable {
  /// The item is not in this report: a layer or view annotation the scene
  /// does not have, or a label or annotation text that was not a candidate
  /// (its layer is not active, or it cannot reach the frame).
  case absent
  /// A layer's or sublayer's `status` flags, in report order.
  case status([String])
  /// A label's `outcome` (`placed`, `collision`, …), an annotation text's
  /// (`drawn`, `outOfScale`, …), or a view annotation's: `placed` or
  /// `hidden` (the reason is the side's `reason`).
  case outcome(String)
  /// A count (`features.drawn`, `labels.placed`, …).
  case count(Int)

  /// Visible: a status with `active`, or the outcome `placed` or `drawn`.
  /// Absent items and counts are not.
  public var isVisible: Bool {
    switch self {
    case .absent, .count: return false
    case .status(let flags): return flags.contains("active")
    case .outcome(let o): return o == "placed" || o == "drawn"
    }
  }

  /// `absent`, flags joined by `+` (`none` for no flag), the outcome, or the count.
  public var text: String {
    switch self {
    case .absent: return "absent"
    case .status(let flags): return flags.isEmpty ? "none" : flags.joined(separator: "+")
    case .outcome(let o): return o
    case .count(let n): return String(n)
    }
  }

  /// The string `"absent"`, the flags as an array, the outcome, or the count.
  public var json: JSONValue {
    switch self {
    case .absent: return .string("absent")
    case .status(let flags): return .array(flags.map(JSONValue.string))
    case .outcome(let o): return .string(o)
    case .count(let n): return .number(Double(n))
    }
  }
}
