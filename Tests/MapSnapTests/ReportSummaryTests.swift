import Testing

@testable import MapSnap

/// The short rendering of a report comparison (`ReportDiff.summary`, what
/// `mapsnap diff --reports` and `mapsnap test` print): what became visible or
/// hidden, grouped per layer and sublayer with a one-line summary each,
/// capped; changes between hidden states only when verbose.
@Suite struct ReportSummaryTests {
  static let frame = ReportDiff.Frame(scale: 2000, floor: nil)

  private func label(_ layer: String, _ n: Int, _ a: ReportSide, _ b: ReportSide, kind: ReportChange.Kind) -> ReportChange {
    ReportChange(item: .label(layer: layer, feature: FeatureKey(id: FloorValue("f\(n)"), index: n), part: 0, text: "L\(n)"), kind: kind, a: a, b: b)
  }

  private func count(_ layer: String, _ name: String, _ x: Int, _ y: Int, sublayer: String? = nil) -> ReportChange {
    ReportChange(item: .count(layer: layer, sublayer: sublayer, name: name), kind: .count, a: ReportSide(.count(x)), b: ReportSide(.count(y)))
  }

  /// A broken data path: the layer goes to `error`, its 25 labels are
  /// hidden with it. One summary line for the layer, ten labels, "and 15 more".
  @Test func aBrokenLayerIsOneGroupCappedWithAndMore() {
    var changes = [
      ReportChange(item: .layer("roads"), kind: .hidden, a: ReportSide(.status(["active"])), b: ReportSide(.status(["error"]), reason: "no such file")),
      count("roads", "features.drawn", 40, 0),
      count("roads", "labels.placed", 25, 0),
    ]
    for n in 0..<25 {
      changes.append(label("roads", n, ReportSide(.outcome("placed")), .absent(reason: "layer error"), kind: .hidden))
    }
    let lines = ReportDiff(a: Self.frame, b: Self.frame, changes: changes).summary()
    #expect(lines.count == 1 + 1 + 10 + 1, "\(lines)")
    #expect(lines[0] == "map: 1:2000, all floors → 1:2000, all floors")
    #expect(lines[1] == "layer roads: active → error (no such file); 25 labels hidden; features.drawn 40 → 0; labels.placed 25 → 0")
    #expect(lines[2] == #"  label roads f0 "L0": placed → absent (layer error)"#)
    #expect(lines.last == "  and 15 more")
    #expect(ReportDiff(a: Self.frame, b: Self.frame, changes: changes).summary(limit: 100).count == 1 + 1 + 25)
  }

  /// Changes between two hidden states (`outOfBounds` → `outOfScale`,
  /// `absent` → `outOfBounds`, counts of hidden labels) are not a change in
  /// what is visible: left out but counted, listed when verbose.
  @Test func changesBetweenHiddenStatesOnlyWhenVerbose() {
    let changes = [
      label("pois", 1, ReportSide(.outcome("outOfBounds")), ReportSide(.outcome("outOfScale")), kind: .reason),
      label("pois", 2, .absent(), ReportSide(.outcome("outOfBounds")), kind: .reason),
      count("pois", "labels.hidden.outOfBounds", 7, 8),
    ]
    let d = ReportDiff(a: Self.frame, b: Self.frame, changes: changes)
    #expect(!d.changesWhatIsVisible)
    #expect(
      d.summary() == [
        "map: 1:2000, all floors → 1:2000, all floors", "no change in what is visible",
        "3 changes between hidden states not listed (--verbose lists them)",
      ])
    #expect(
      d.summary(verbose: true) == [
        "map: 1:2000, all floors → 1:2000, all floors",
        "layer pois: 2 labels hidden for another reason; labels.hidden.outOfBounds 7 → 8",
        #"  label pois f1 "L1": outOfBounds → outOfScale"#,
        #"  label pois f2 "L2": absent → outOfBounds"#,
      ])
  }

  /// Each layer, sublayer and the view annotations are one group, in the
  /// order they first change; a count of what is drawn is a change in what is visible.
  @Test func groupsPerLayerSublayerAndViewAnnotations() {
    let changes = [
      label("pois", 1, ReportSide(.outcome("placed")), ReportSide(.outcome("collision")), kind: .hidden),
      ReportChange(item: .sublayer(layer: "anno", id: "near"), kind: .hidden, a: ReportSide(.status(["active"])), b: ReportSide(.status(["outOfScale"]))),
      count("anno", "features.drawn", 1, 0, sublayer: "near"),
      ReportChange(
        item: .annotationText(layer: "anno", sublayer: "near", feature: FeatureKey(id: nil, index: 0), part: 0, text: "N1"), kind: .hidden,
        a: ReportSide(.outcome("drawn")), b: ReportSide(.outcome("outOfScale"))),
      label("pois", 2, ReportSide(.outcome("collision")), ReportSide(.outcome("placed")), kind: .shown),
      ReportChange(item: .viewAnnotation("note"), kind: .hidden, a: ReportSide(.outcome("placed")), b: ReportSide(.outcome("hidden"), reason: "outOfScale")),
    ]
    let d = ReportDiff(a: Self.frame, b: ReportDiff.Frame(scale: 4000, floor: nil), changes: changes)
    #expect(d.changesWhatIsVisible)
    #expect(
      d.summary() == [
        "map: 1:2000, all floors → 1:4000, all floors",
        "layer pois: 1 label shown; 1 label hidden",
        #"  label pois f1 "L1": placed → collision"#,
        #"  label pois f2 "L2": collision → placed"#,
        "sublayer anno/near: active → outOfScale; 1 annotation text hidden; features.drawn 1 → 0",
        #"  annotation text anno/near #0 "N1": drawn → outOfScale"#,
        "view annotations: 1 view annotation hidden",
        "  view annotation note: placed → hidden (outOfScale)",
      ])
    #expect(!ReportDiff(a: Self.frame, b: Self.frame, changes: []).changesWhatIsVisible)
  }
}
