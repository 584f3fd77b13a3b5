/// The short rendering of a `ReportDiff` that `mapsnap diff --reports` and
/// `mapsnap test` print.
///
/// **Rules.**
/// - What is listed: the changes in what is visible
///   (``ReportChange/changesWhatIsVisible``: items that became visible or
///   hidden, counts of what is drawn). Changes between two hidden states
///   (`outOfBounds` → `outOfScale`, `absent` → `outOfBounds`, and counts of
///   hidden labels by reason) are listed only when `verbose`; otherwise one
///   last line says how many were left out. JSON always has every change.
/// - Grouping: one group per layer, per sublayer (with its annotation texts
///   and counts) and one for the view annotations, in the order of the
///   changes (report order). Each group has a one-line summary — the
///   layer's or sublayer's own change, how many items were shown and hidden,
///   the counts that changed — then its items, indented, at most `limit` of
///   them, then `and N more`.
/// - The reports differ in what is visible (``ReportDiff/changesWhatIsVisible``)
///   when any change is.
extension ReportDiff {
  /// True when any change is in what is visible
  /// (``ReportChange/changesWhatIsVisible``): what fails `mapsnap test` and
  /// makes `mapsnap diff --reports` exit 1.
  public var changesWhatIsVisible: Bool { changes.contains(where: \.changesWhatIsVisible) }

  /// The lines of the short rendering (see the type's rules), the first
  /// naming both frames.
  public func summary(verbose: Bool = false, limit: Int = 10) -> [String] {
    var lines = ["map: \(a.text) → \(b.text)"]
    var groups: [Group] = []
    var leftOut = 0
    for change in changes {
      if !change.changesWhatIsVisible && !verbose {
        leftOut += 1
        continue
      }
      let key = Group.key(of: change.item)
      if let i = groups.firstIndex(where: { $0.key == key }) {
        groups[i].add(change)
      } else {
        var g = Group(key: key)
        g.add(change)
        groups.append(g)
      }
    }
    if groups.isEmpty { lines.append("no change in what is visible") }
    for g in groups { lines += g.lines(limit: limit) }
    if leftOut > 0 {
      lines.append("\(leftOut) change\(leftOut == 1 ? "" : "s") between hidden states not listed (--verbose lists them)")
    }
    return lines
  }

  /// The changes of one layer, one sublayer or the view annotations.
  private struct Group {
    enum Key: Equatable {
      case layer(String)
      case sublayer(String, String)
      case viewAnnotations
    }

    var key: Key
    /// The layer's or sublayer's own change.
    var own: ReportChange?
    var counts: [ReportChange] = []
    var items: [ReportChange] = []

    static func key(of item: ReportItem) -> Key {
      switch item {
      case .layer(let l), .label(let l, _, _, _), .count(let l, nil, _), .styleSymbol(let l, _, _, _): return .layer(l)
      case .sublayer(let l, let s), .annotationText(let l, let s, _, _, _), .count(let l, let s?, _): return .sublayer(l, s)
      case .viewAnnotation: return .viewAnnotations
      }
    }

    mutating func add(_ c: ReportChange) {
      switch c.item {
      case .layer, .sublayer: own = c
      case .count: counts.append(c)
      default: items.append(c)
      }
    }

    func lines(limit: Int) -> [String] {
      var parts: [String] = []
      if let own { parts.append("\(own.a.text) → \(own.b.text)") }
      for kind in [ReportChange.Kind.shown, .hidden, .reason] {
        let n = items.filter { $0.kind == kind }.count
        guard n > 0 else { continue }
        parts.append("\(n) \(noun(n)) \(kind == .reason ? "hidden for another reason" : kind.rawValue)")
      }
      for c in counts {
        guard case .count(_, _, let name) = c.item else { continue }
        parts.append("\(name) \(c.a.text) → \(c.b.text)")
      }
      let name: String
      switch key {
      case .layer(let l): name = "layer \(l)"
      case .sublayer(let l, let s): name = "sublayer \(l)/\(s)"
      case .viewAnnotations: name = "view annotations"
      }
      var out = [name + ": " + parts.joined(separator: "; ")]
      out += items.prefix(limit).map { "  " + $0.line }
      if items.count > limit { out.append("  and \(items.count - limit) more") }
      return out
    }

    /// What the group's items are: labels, annotation texts or view annotations.
    private func noun(_ n: Int) -> String {
      let word: String
      switch key {
      case .layer: word = "label"
      case .sublayer: word = "annotation text"
      case .viewAnnotations: word = "view annotation"
      }
      return n == 1 ? word : word + "s"
    }
  }
}
