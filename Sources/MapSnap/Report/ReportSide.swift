/// One side (report A or B) of a `ReportChange`: the item's state and why,
/// as far as that report records it.
public struct ReportSide: Sendable, Hashable {
  public var state: ReportState
  /// Why, in the report's words: a view annotation's `reason` (`collision`,
  /// `featureHidden`, …); a layer's `message` (its problems); for a label or
  /// annotation text absent because its layer is not active on this side,
  /// `layer` and the layer's flags (`layer outOfScale`). Nil when the
  /// report gives none.
  public var reason: String?
  /// What is in the way of a collision: `layer/feature` for a label
  /// (`pois/cafe`, `pois/#3` for a feature without id), the ids of the
  /// boxes for a view annotation. Empty otherwise.
  public var blockedBy: [String]
  /// A view annotation's `warning` (a feature id its layer does not have).
  public var warning: String?

  public init(_ state: ReportState, reason: String? = nil, blockedBy: [String] = [], warning: String? = nil) {
    self.state = state
    self.reason = reason
    self.blockedBy = blockedBy
    self.warning = warning
  }

  /// Not in the report, with why when known.
  public static func absent(reason: String? = nil) -> ReportSide { ReportSide(.absent, reason: reason) }

  /// The state, then in parentheses what the report gives: `placed`,
  /// `collision (blocked by pois/cafe)`, `hidden (collision, blocked by
  /// shop-12)`, `absent (layer outOfScale)`, `active+warning (message)`.
  public var text: String {
    var why = [reason, blockedBy.isEmpty ? nil : "blocked by " + blockedBy.joined(separator: ", ")].compactMap { $0 }.joined(separator: ", ")
    if let warning { why += why.isEmpty ? warning : "; " + warning }
    return why.isEmpty ? state.text : "\(state.text) (\(why))"
  }

  /// `{"state": …}` plus `reason`, `blockedBy` and `warning` when present.
  public var json: JSONValue {
    var pairs: [(String, JSONValue)] = [("state", state.json)]
    if let reason { pairs.append(("reason", .string(reason))) }
    if !blockedBy.isEmpty { pairs.append(("blockedBy", .array(blockedBy.map(JSONValue.string)))) }
    if let warning { pairs.append(("warning", .string(warning))) }
    return .object(JSONObject(pairs))
  }
}
