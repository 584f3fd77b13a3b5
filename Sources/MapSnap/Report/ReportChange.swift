/// One difference between two reports that `ReportDiff` lists: an item that
/// became visible or hidden, an item hidden on both sides for another
/// reason, or a count that changed. `a` and `b` are the item as each report
/// records it.
public struct ReportChange: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable {
    /// Hidden (or absent) in A, visible in B.
    case shown
    /// Visible in A, hidden (or absent) in B.
    case hidden
    /// Hidden on both sides, with another state or reason: `collision` →
    /// `outOfBounds`, `outOfScale` → `notVisible+outOfScale`, a view
    /// annotation's `collision` → `outOfScale`, `collision` → `absent`.
    case reason
    /// A count with another value.
    case count
  }

  public var item: ReportItem
  public var kind: Kind
  public var a: ReportSide
  public var b: ReportSide

  public init(item: ReportItem, kind: Kind, a: ReportSide, b: ReportSide) {
    self.item = item
    self.kind = kind
    self.a = a
    self.b = b
  }

  /// The change of `item` from `a` to `b`, or nil when there is none that
  /// matters: visible on both sides, or hidden on both with the same state
  /// and reason (what blocks a collision and a view annotation's warning
  /// are not compared).
  public static func between(_ item: ReportItem, _ a: ReportSide, _ b: ReportSide) -> ReportChange? {
    if case .count(let x) = a.state, case .count(let y) = b.state {
      return x == y ? nil : ReportChange(item: item, kind: .count, a: a, b: b)
    }
    switch (a.state.isVisible, b.state.isVisible) {
    case (true, true): return nil
    case (false, true): return ReportChange(item: item, kind: .shown, a: a, b: b)
    case (true, false): return ReportChange(item: item, kind: .hidden, a: a, b: b)
    case (false, false):
      return a.state == b.state && a.reason == b.reason ? nil : ReportChange(item: item, kind: .reason, a: a, b: b)
    }
  }

  /// True when the change is in what is visible: an item shown or hidden,
  /// or a count of what is drawn (`features.drawn`, `labels.placed`).
  /// Changes between two hidden states and counts of hidden labels
  /// (`labels.hidden.<reason>`) are not.
  public var changesWhatIsVisible: Bool {
    switch kind {
    case .shown, .hidden: return true
    case .reason: return false
    case .count:
      if case .count(_, _, let name) = item { return !name.hasPrefix("labels.hidden.") }
      return true
    }
  }

  /// One line: the item, then each side: `label pois kiosk "Kiosk": placed →
  /// collision (blocked by pois/cafe)`.
  public var line: String { "\(item.text): \(a.text) → \(b.text)" }

  /// `{"change": kind, "item": …, <the item's keys>, "a": side, "b": side}`.
  public var json: JSONValue {
    .object(JSONObject([("change", .string(kind.rawValue))] + item.jsonPairs + [("a", a.json), ("b", b.json)]))
  }
}
