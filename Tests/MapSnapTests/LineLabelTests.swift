import Testing
import _MapSnapTestSupport

@testable import MapSnap
@testable import _MapSnapRaster

/// Labels along lines (`"placement": "line"`, `LinePlacer`): visible runs,
/// repetitions, reading direction, angles, per-glyph boxes and the report.
@Suite struct LineLabelTests {
  let fonts = try! FontLibrary(directories: [FontLibrary.bundledDirectory])
  let frame = Rect(minX: 0, minY: 0, maxX: 600, maxY: 400)

  private func placer(_ text: String, spacing: Double = 250, maxAngle: Double = 45, halo: Double = 0) -> LinePlacer {
    LinePlacer(block: fonts.layout(text, font: nil, size: 12), frame: frame, spacing: spacing, maxAngle: maxAngle, halo: halo)
  }

  @Test func runsAreTheLinesVisibleParts() {
    let runs = LinePlacer.visibleRuns([Point(-100, 100), Point(300, 100), Point(300, 500), Point(400, 500), Point(400, 300)], in: frame)
    #expect(runs == [[Point(0, 100), Point(300, 100), Point(300, 400)], [Point(400, 400), Point(400, 300)]])
    #expect(LinePlacer.visibleRuns([Point(-10, -10), Point(-20, 500)], in: frame).isEmpty)
  }

  @Test func aStraightLineHoldsOneLabelPerSpacingCentredOnTheLine() throws {
    let p = placer("Mannerheimintie")
    let places = try p.places(along: [[Point(50, 200), Point(550, 200)]]).get()
    #expect(places.count == 2, "500 px at 250 px spacing")
    let width = p.block.width
    for (i, alternatives) in places.enumerated() {
      let first = alternatives[0]
      #expect(first.poses.allSatisfy { abs($0.cos - 1) < 1e-12 && abs($0.sin) < 1e-12 })
      // Centred at 50 + 500 · (i + ½) / 2.
      let centre = 50 + 500 * (Double(i) + 0.5) / 2
      #expect(abs((first.union.minX + first.union.maxX) / 2 - centre) < 1, "\(first.union)")
      #expect(abs(first.union.width - width) < 1e-6)
      // The text's vertical middle on the line.
      #expect(abs((first.union.minY + first.union.maxY) / 2 - 200) < 1e-9)
      #expect(abs(first.union.height - p.block.lineHeight) < 1e-9)
      #expect(first.boxes.count == p.block.glyphs.count)
    }
  }

  @Test func textReadsLeftToRightWhateverTheLinesDirection() throws {
    let p = placer("Kaivokatu")
    let backwards = try p.places(along: [[Point(550, 250), Point(50, 150)]]).get()
    let forwards = try p.places(along: [[Point(50, 150), Point(550, 250)]]).get()
    for poses in [backwards[0][0].poses, forwards[0][0].poses] {
      #expect(poses.allSatisfy { $0.cos > 0 }, "never upside down")
      #expect(zip(poses, poses.dropFirst()).allSatisfy { $0.origin.x < $1.origin.x })
    }
    // The first place from the right end is the second from the left.
    let (a, b) = (backwards[0][0].union, forwards[1][0].union)
    #expect(abs(a.minX - b.minX) < 1e-6 && abs(a.minY - b.minY) < 1e-6 && abs(a.maxX - b.maxX) < 1e-6 && abs(a.maxY - b.maxY) < 1e-6)
  }

  @Test func sharpTurnsAreRefusedBeyondMaxAngle() throws {
    // A zigzag of 90° turns every 6 px: no stretch for a word without a turn.
    var zigzag: [Point] = []
    for i in 0...80 { zigzag.append(Point(20 + Double(i) * 6, i % 2 == 0 ? 200 : 206)) }
    let strict = placer("Kaivokatu", maxAngle: 45)
    guard case .failure(let e) = strict.places(along: [zigzag]) else {
      Issue.record("a 90° zigzag passed maxAngle 45")
      return
    }
    #expect(e.reason == .tooCurved)
    #expect((try? placer("Kaivokatu", maxAngle: 120).places(along: [zigzag]).get()) != nil)
  }

  @Test func shortAndOutsideLinesSayWhy() {
    guard case .failure(let short) = placer("Mannerheimintie").places(along: [[Point(10, 10), Point(40, 10)]]),
      case .failure(let outside) = placer("Mannerheimintie").places(along: [[Point(-50, -50), Point(-10, -60)]])
    else {
      Issue.record("a 30 px line or one outside the image took a label")
      return
    }
    #expect(short.reason == .tooShort)
    #expect(outside.reason == .outOfBounds)
  }

  @Test func shiftedAlternativesFollowWhenTheCentreIsTaken() throws {
    let places = try placer("Kaivokatu", spacing: 1000).places(along: [[Point(50, 200), Point(550, 200)]]).get()
    let xs = places[0].map { ($0.union.minX + $0.union.maxX) / 2 }
    let w = placer("Kaivokatu").block.width
    #expect(xs.count == 5)
    #expect(abs(xs[0] - 300) < 1e-6 && abs(xs[1] - (300 + w / 2)) < 1e-6 && abs(xs[2] - (300 - w / 2)) < 1e-6)
  }

  // MARK: - Through the frame

  /// Logical pixels at 1:1000 and 96 DPI, in degrees of longitude at the equator.
  static let pixelDegrees = 1000 / (96 * 39.37) / 111_319.490_793_273_57

  private func line(_ name: String, _ points: [(Double, Double)]) -> String {
    let coords = points.map { "[\($0.0 * Self.pixelDegrees), \(-$0.1 * Self.pixelDegrees)]" }.joined(separator: ",")
    return #"{"type": "Feature", "properties": {"name": "\#(name)"}, "geometry": {"type": "LineString", "coordinates": [\#(coords)]}}"#
  }

  private func plan(_ features: [String], label: String) throws -> FramePlan {
    let body =
      ##"{"version": 1, "map": {"center": [0, 0], "scale": 1000, "size": [400, 300]}, "layers": [{"id": "roads", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": [\##(features.joined(separator: ","))]}}, "style": {"stroke": "#888", "strokeWidth": 3, "label": \##(label)}}]}"##
    let scene = try SceneLoader.decode(Array(body.utf8), file: "t.json", baseDirectory: "")
    return try FramePlan.make(scene, fonts: fonts)
  }

  @Test func crossingStreetsCollideGlyphByGlyph() throws {
    // Two streets crossing at the centre: the second's name, centred on the
    // crossing too, is shifted along its line until no glyph box overlaps.
    let p = try plan(
      [line("Kaivokatu", [(-180, 0), (180, 0)]), line("Keskuskatu", [(0, -145), (0, 145)])],
      label: #"{"field": "name", "placement": "line", "size": 12, "spacing": 1000}"#)
    let outcomes = p.text.outcomes
    #expect(outcomes.count == 2)
    #expect(outcomes.allSatisfy { $0.isPlaced && $0.alongLine && $0.anchor == nil })
    let boxes = outcomes.compactMap(\.box)
    #expect(boxes.count == 2)
    // The vertical street's label is not centred on the crossing any more.
    let vertical = try #require(outcomes.first { $0.text == "Keskuskatu" }?.box)
    #expect(abs((vertical.minY + vertical.maxY) / 2 - 150) > 5, "\(vertical)")
    guard case .array(let entries)? = p.report()["layers"]?[0]?["labels"]?["entries"] else {
      Issue.record("no label entries in the report")
      return
    }
    #expect(entries.allSatisfy { $0["anchor"] == .string("line") })
  }

  @Test func pointPlacementStillLeavesLinesUnlabelled() throws {
    let p = try plan([line("Kaivokatu", [(-180, 0), (180, 0)])], label: #"{"field": "name"}"#)
    #expect(p.text.outcomes.map(\.hiddenReason) == [.noPosition])
  }

  @Test func placementSpacingAndMaxAngleAreChecked() throws {
    for (label, key) in [
      (#"{"field": "name", "placement": "along"}"#, "placement"), (#"{"field": "name", "spacing": 0}"#, "spacing"),
      (#"{"field": "name", "maxAngle": 200}"#, "maxAngle"),
    ] {
      do {
        _ = try plan([], label: label)
        Issue.record("\(label) was accepted")
      } catch let e as SceneError {
        #expect(e.path.description == "layers[0].style.label.\(key)")
      }
    }
  }
}
