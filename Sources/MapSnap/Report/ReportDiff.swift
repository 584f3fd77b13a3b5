/// What became visible or hidden between two renders, read from their
/// reports (schemaVersion 2): what `mapsnap diff A.png B.png --reports
/// A.json B.json` compares (scene format section 8); ``summary(verbose:limit:)``
/// is what it prints, ``json`` what `--json` gives.
///
/// **What is compared.** Layers and sublayers by their `status` (visible:
/// `active`), labels by `outcome` (visible: `placed`), annotation texts by
/// `outcome` (visible: `drawn`), a style's symbols by `outcome` (visible:
/// `placed`), view annotations by `visible` and `reason`.
/// An item in one report only is `absent` in the other (hidden). A change is
/// listed when the item is visible on one side and hidden on the other, or
/// hidden on both with another state or reason (`collision` →
/// `outOfBounds`, `outOfScale` → `notVisible+outOfScale`, `absent` →
/// `outOfBounds`, a layer `error` with another message). Changes among
/// visible states (`active` → `active+warning`, another anchor or box) are
/// not listed, nor what blocks a collision when only that differs, nor a
/// view annotation's warning alone. Counts are listed when they differ:
/// each layer's and sublayer's `features.drawn`, and a features layer's
/// `labels.placed` and `labels.hidden.<reason>` (a reason missing from
/// `hidden` counts 0; `dropped` is `hidden.collision` and is not repeated).
/// Counts are compared only for a layer (sublayer) that both reports have.
///
/// **Identity** (how an item of A is matched with one of B):
/// - layers by `id`; sublayers by `id` within their matched layer; view
///   annotations by `id`;
/// - a style's symbols by (layer, style layer, `key`, text or icon name);
/// - labels by (layer, feature, `part`, `text`), annotation texts by (layer,
///   `sublayer`, feature, `part`, `text`), where the feature is its `id` when
///   not null (numbers and strings by value: `7` is `"7"`, as the report
///   writes them), else its `key` (`FeatureKey`: a digest of its geometry
///   and used properties) — so a feature keeps its identity when its
///   position in the source changes, and a label whose text changed is
///   another label (the old one absent, the new one new);
/// - items with the same key on one side (which a report should not have)
///   are matched in order: the first of A with the first of B, and so on.
///
/// Labels (texts) are compared one by one only when both reports list them
/// for that layer: a layer with `labels` but no `entries` (or `sublayers`
/// but no `texts`), as `--report-detail counts` writes, is compared by its
/// counts only. A layer missing from a report has no labels or texts there.
///
/// **Order**: report order. Layers bottom-up, each followed by its own
/// changes — the layer, its `features.drawn`, each sublayer and its count,
/// its label counts, its labels, its annotation texts — then the view
/// annotations. As in a unified diff, items both reports have come in
/// report B's order, and between two of them, the items only in A, then the
/// items only in B, each in its report's order.
public struct ReportDiff: Sendable, Equatable {
  /// The frame a report describes: its scale and floor (nil: every floor).
  public struct Frame: Sendable, Equatable {
    public var scale: Double
    public var floor: FloorValue?

    /// `1:2000, all floors` or `1:1000, floor 2`.
    public var text: String { "1:\(number(scale)), " + (floor.map { "floor \($0.text)" } ?? "all floors") }

    public var json: JSONValue { ["scale": .number(scale), "floor": floor?.json ?? .null] }
  }

  public var a: Frame
  public var b: Frame
  public var changes: [ReportChange]

  public init(a: Frame, b: Frame, changes: [ReportChange]) {
    self.a = a
    self.b = b
    self.changes = changes
  }

  /// The changes from report `a` to report `b`.
  /// - Throws: `ReportDiffError` when either is not a report of
  ///   schemaVersion 2 (another version, a missing key, a value of the
  ///   wrong type), with the report and the JSON path.
  public static func compare(_ a: JSONValue, _ b: JSONValue) throws(ReportDiffError) -> ReportDiff {
    let ra = try ParsedReport(a, report: .a)
    let rb = try ParsedReport(b, report: .b)
    var changes: [ReportChange] = []
    for (la, lb) in match(ra.layers, rb.layers, key: \.id) { changes += layerChanges(la, lb) }
    for (va, vb) in match(ra.viewAnnotations, rb.viewAnnotations, key: \.id) {
      let id = (va ?? vb)!.id
      if let c = ReportChange.between(.viewAnnotation(id), side(va), side(vb)) { changes.append(c) }
    }
    return ReportDiff(a: Frame(scale: ra.scale, floor: ra.floor), b: Frame(scale: rb.scale, floor: rb.floor), changes: changes)
  }

  // MARK: - Renderings

  /// A first line with both frames (`map: 1:1000, all floors → 1:4000, all
  /// floors`), then one line per change (``ReportChange/line``), or `no
  /// change in what is visible`.
  public var text: String {
    var lines = ["map: \(a.text) → \(b.text)"]
    lines += changes.isEmpty ? ["no change in what is visible"] : changes.map(\.line)
    return lines.joined(separator: "\n") + "\n"
  }

  /// `{"a": {"scale", "floor"}, "b": {…}, "changes": [change, …]}`, each
  /// change as ``ReportChange/json``.
  public var json: JSONValue {
    ["a": a.json, "b": b.json, "changes": .array(changes.map(\.json))]
  }

  // MARK: - Layers

  private static func layerChanges(_ la: ParsedReport.Layer?, _ lb: ParsedReport.Layer?) -> [ReportChange] {
    let id = (la ?? lb)!.id
    var out: [ReportChange] = []
    func add(_ item: ReportItem, _ a: ReportSide, _ b: ReportSide) {
      if let c = ReportChange.between(item, a, b) { out.append(c) }
    }
    func count(_ sublayer: String?, _ name: String, _ x: Int, _ y: Int) {
      add(.count(layer: id, sublayer: sublayer, name: name), ReportSide(.count(x)), ReportSide(.count(y)))
    }
    add(.layer(id), status(la), status(lb))
    if let la, let lb { count(nil, "features.drawn", la.drawn, lb.drawn) }
    for (sa, sb) in match(la?.sublayers ?? [], lb?.sublayers ?? [], key: \.id) {
      let sub = (sa ?? sb)!.id
      add(.sublayer(layer: id, id: sub), status(sa), status(sb))
      if let sa, let sb { count(sub, "features.drawn", sa.drawn, sb.drawn) }
    }
    if let ca = la?.labelCounts, let cb = lb?.labelCounts {
      var names = ca.map(\.name)
      for n in cb.map(\.name) where !names.contains(n) { names.append(n) }
      for n in names {
        count(nil, n, ca.first { $0.name == n }?.count ?? 0, cb.first { $0.name == n }?.count ?? 0)
      }
    }
    // Labels and texts one by one when both sides list them.
    let absentA = ReportSide.absent(reason: absentReason(la))
    let absentB = ReportSide.absent(reason: absentReason(lb))
    // `la.map(\.labels) ?? []`: no labels for a missing layer, nil (not
    // compared) for a layer whose entries were left out.
    if let labelsA = la.map(\.labels) ?? [], let labelsB = lb.map(\.labels) ?? [] {
      for (x, y) in match(labelsA, labelsB, key: LabelKey.init) {
        let e = (x ?? y)!
        add(.label(layer: id, feature: e.feature, part: e.part, text: e.text), x.map(side) ?? absentA, y.map(side) ?? absentB)
      }
    }
    if let symbolsA = la.map(\.styleSymbols) ?? [], let symbolsB = lb.map(\.styleSymbols) ?? [] {
      for (x, y) in match(symbolsA, symbolsB, key: { [$0.styleLayer, $0.key, $0.text] }) {
        let s = (x ?? y)!
        add(
          .styleSymbol(layer: id, styleLayer: s.styleLayer, key: s.key, text: s.text),
          x.map { ReportSide(.outcome($0.outcome), blockedBy: $0.blockedBy) } ?? absentA,
          y.map { ReportSide(.outcome($0.outcome), blockedBy: $0.blockedBy) } ?? absentB)
      }
    }
    if let textsA = la.map(\.texts) ?? [], let textsB = lb.map(\.texts) ?? [] {
      for (x, y) in match(textsA, textsB, key: TextKey.init) {
        let t = (x ?? y)!
        add(
          .annotationText(layer: id, sublayer: t.sublayer, feature: t.feature, part: t.part, text: t.text),
          x.map(side) ?? absentA, y.map(side) ?? absentB)
      }
    }
    return out
  }

  /// Why a label or text of this layer is absent: the layer is not active
  /// (`layer outOfScale`); nil when it is, or when the report has no such layer.
  private static func absentReason(_ l: ParsedReport.Layer?) -> String? {
    guard let l, !l.isActive else { return nil }
    return "layer " + ReportState.status(l.status).text
  }

  private static func status(_ l: ParsedReport.Layer?) -> ReportSide {
    l.map { ReportSide(.status($0.status), reason: $0.message) } ?? .absent()
  }

  private static func status(_ s: ParsedReport.Sublayer?) -> ReportSide {
    s.map { ReportSide(.status($0.status)) } ?? .absent()
  }

  private static func side(_ t: ParsedReport.Text) -> ReportSide { ReportSide(.outcome(t.outcome)) }

  private static func side(_ l: ParsedReport.Label) -> ReportSide {
    ReportSide(.outcome(l.outcome), blockedBy: l.blockedBy)
  }

  private static func side(_ v: ParsedReport.ViewAnnotation?) -> ReportSide {
    guard let v else { return .absent() }
    return v.visible
      ? ReportSide(.outcome("placed"), warning: v.warning)
      : ReportSide(.outcome("hidden"), reason: v.reason, blockedBy: v.blockedBy, warning: v.warning)
  }

  // MARK: - Matching

  /// The feature as identity: its id when it has one, else its key.
  private enum FeatureIdentity: Hashable {
    case id(String)
    case key(String)

    init(_ k: FeatureKey) { self = k.id.map { .id($0.text) } ?? .key(k.text) }
  }

  private struct LabelKey: Hashable {
    var feature: FeatureIdentity
    var part: Int
    var text: String

    init(_ l: ParsedReport.Label) { (feature, part, text) = (FeatureIdentity(l.feature), l.part, l.text) }
  }

  private struct TextKey: Hashable {
    var sublayer: String
    var feature: FeatureIdentity
    var part: Int
    var text: String

    init(_ t: ParsedReport.Text) { (sublayer, feature, part, text) = (t.sublayer, FeatureIdentity(t.feature), t.part, t.text) }
  }

  /// The n-th item (from 0) with `key` in a list.
  private struct Occurrence<K: Hashable>: Hashable {
    var key: K
    var n: Int
  }

  /// Pairs of `a` and `b` with the same key (the n-th of a key in `a` with
  /// the n-th in `b`) and the items of one side alone, in report order, as a
  /// unified diff has them: items both have in `b`'s order; before each, the
  /// items only in `a` that come before its partner in `a`, then the items
  /// only in `b` that come before it in `b`; at the end the rest of `a`, then
  /// the rest of `b`.
  static func match<T, K: Hashable>(_ a: [T], _ b: [T], key: (T) -> K) -> [(T?, T?)] {
    func occurrences(_ items: [T]) -> [Occurrence<K>] {
      var seen: [K: Int] = [:]
      return items.map { item in
        let k = key(item)
        defer { seen[k, default: 0] += 1 }
        return Occurrence(key: k, n: seen[k, default: 0])
      }
    }
    var inA: [Occurrence<K>: Int] = [:]
    for (i, o) in occurrences(a).enumerated() { inA[o] = i }
    let partner = occurrences(b).map { inA[$0] }
    let matched = Set(partner.compactMap { $0 })
    var out: [(T?, T?)] = []
    out.reserveCapacity(a.count + b.count - matched.count)
    var next = 0
    var onlyB: [T] = []
    func flush(upTo end: Int) {
      while next < end {
        if !matched.contains(next) { out.append((a[next], nil)) }
        next += 1
      }
      out += onlyB.map { (nil, $0) }
      onlyB = []
    }
    for (j, i) in partner.enumerated() {
      guard let i else {
        onlyB.append(b[j])
        continue
      }
      flush(upTo: i)
      next = max(next, i + 1)
      out.append((a[i], b[j]))
    }
    flush(upTo: a.count)
    return out
  }
}
