import Glibc
import MapSnap
import Testing
import _MapSnapTestSupport

/// Every image of every `Golden/<case>` run as `mapsnap test Golden` runs
/// it (`GoldenHarness`: `CaseLoader` and `CaseRunner`): rendered and
/// compared with its expected image as decoded pixels and with its expected
/// report. Record with `MAPSNAP_RECORD=missing swift test --filter
/// GoldenImageTests` (never in CI); a recorded golden fails the run until it
/// is checked.
@Suite struct GoldenImageTests {
  /// Under the address sanitizer (`MAPSNAP_TEST_SANITIZER=address`) the
  /// cases at pixel ratio 1: a ratio of 2 runs the same C paths on four
  /// times the pixels, and the plain run checks every case.
  static var ids: [String] {
    guard let value = getenv("MAPSNAP_TEST_SANITIZER"), String(cString: value) == "address" else { return GoldenHarness.images.map(\.id) }
    return GoldenHarness.images.filter { ($0.line.overrides.pixelRatio ?? 1) == 1 }.map(\.id)
  }

  @Test(arguments: GoldenImageTests.ids)
  func matchesGolden(_ id: String) throws {
    let image = try #require(GoldenHarness.images.first { $0.id == id })
    if let failure = GoldenHarness.check(image) {
      Issue.record(Comment(rawValue: failure))
    }
  }

  @Test func everyGoldenFolderHasCases() {
    let folders = Repository.listDirectory(Repository.root + "/Golden").filter {
      Repository.exists(Repository.root + "/Golden/\($0)/scene.json")
    }
    let named = Set(GoldenCase.all().map(\.name))
    #expect(!folders.isEmpty)
    for folder in folders {
      #expect(named.contains(folder), "Golden/\(folder) has a scene.json but no cases in golden.json")
    }
  }
}

/// The bytes of a frame do not depend on how it is cut into tiles or on how
/// many threads draw it (Blend2D's single- versus multi-threaded check).
/// Under the thread sanitizer (`MAPSNAP_TEST_SANITIZER=thread`, set by
/// scripts/test-sanitizer.sh) two of the layouts run, both on several
/// threads: the races are the same in each, and the bytes of every layout are
/// checked by the plain run.
@Suite struct DeterminismTests {
  static let allLayouts: [RenderOptions] = [
    RenderOptions(threads: 2, tileRows: 1),
    RenderOptions(threads: 2, tileRows: 16),
    RenderOptions(threads: 4, tileRows: 7),
    RenderOptions(threads: 3, tileRows: 64),
  ]
  static var layouts: [RenderOptions] {
    guard let value = getenv("MAPSNAP_TEST_SANITIZER"), String(cString: value) == "thread" else { return allLayouts }
    return [allLayouts[1], allLayouts[2]]
  }

  @Test(arguments: GoldenCase.all().filter { $0.pixelRatio == nil || $0.pixelRatio == 1 })
  func identicalForAnyThreadCountAndTileHeight(_ golden: GoldenCase) throws {
    let reference = try golden.render(options: RenderOptions(threads: 1, tileRows: 100_000))
    let expected = Array(reference.canvas.buffer)
    for layout in Self.layouts {
      let other = try golden.render(options: layout)
      let actual = Array(other.canvas.buffer)
      let firstDifference = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      #expect(
        firstDifference == nil,
        "\(golden) with \(layout.threads) threads and \(layout.tileRows)-row tiles differs at pixel \(firstDifference ?? -1)")
    }
  }
}

/// What a frame decides does not depend on how many threads plan it: its
/// sources are loaded and its layers resolved side by side on several, one
/// after another on one (`MapResolver.resolve`), and the report is the same.
@Suite struct PlanDeterminismTests {
  @Test(arguments: GoldenCase.all())
  func reportIdenticalForAnyThreadCount(_ golden: GoldenCase) throws {
    let scene = try SceneLoader.load(path: golden.scenePath)
    let overrides = ViewOverrides(scale: golden.scale, pixelRatio: golden.pixelRatio, floor: golden.floor.map { FloorValue($0) })
    func report(threads: Int) throws -> String {
      let plan = try FramePlan.make(scene, overrides: overrides, sources: SourceLoader(), threads: threads)
      return JSONWriter().write(plan.report)
    }
    let serial = try report(threads: 1)
    for threads in [2, 4] {
      let parallel = try report(threads: threads)
      #expect(parallel == serial, "\(golden): the report planned on \(threads) threads differs from the one planned on one")
    }
  }
}

/// The scale-range golden's decisions, read from the report so a failure says
/// what became visible or hidden (section 2: both bounds inclusive).
@Suite struct ScaleRangeReportTests {
  @Test(arguments: [
    (499.0, ["outOfScale"], "#0050c0"), (500, ["active"], "#0050c0"), (1000, ["active"], "#c00000"),
    (2000, ["active"], "#c00000"), (2001, ["outOfScale"], "#c00000"),
  ])
  func openLayerAndRuleRanges(scale: Double, openStatus: [String], ruleColour: String) throws {
    let golden = try #require(GoldenCase.all().first { $0.name == "scale-range" && $0.scale == scale })
    let snapshot = try golden.render()
    let open = try #require(snapshot.layers.first { $0.id == "open-500-2000" })
    #expect(open.status.names == openStatus, "layer open-500-2000 at 1:\(scale)")
    #expect(open.drawnFeatures == (openStatus == ["active"] ? 1 : 0))
    // The rules layer: the red rule has maxScale 1000 (its most zoomed-in
    // scale), so it applies from 1:1000 outwards; closer in, the fallback
    // blue rule takes the feature.
    let rules = try #require(snapshot.layers.first { $0.id == "rules" })
    #expect(rules.drawnFeatures == 1)
    let colour = try #require(rules.drawables.first?.style.fill)
    #expect(colour == ColorParser.parse(ruleColour), "rule chosen at 1:\(scale)")
  }
}
