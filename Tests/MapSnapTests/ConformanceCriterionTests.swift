import Testing

@testable import MapSnap

/// The render suite's verdict (`StyleCriterion`): pixelmatch 4.0.2's
/// anti-aliasing rule where it differs from later versions, the
/// premultiplied expectation, `allowed` and "within 1 %".
@Suite struct ConformanceCriterionTests {
  static func grey(_ v: UInt32, alpha: UInt32 = 255) -> UInt32 { v | v << 8 | v << 16 | alpha << 24 }

  /// Images as rows of grey levels (opaque).
  static func image(_ rows: [[UInt32]]) -> [UInt32] { rows.flatMap { $0.map { grey($0) } } }

  static func count(_ a: [UInt32], _ b: [UInt32], width: Int, height: Int, _ match: PixelMatch) -> PixelMatch.Counts {
    a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in match.compare(pa, pb, width: width, height: height, threads: 1) } }
  }

  /// A pixel on the top edge with two neighbours of its brightness, a
  /// darker and a brighter one; the darker one sits among three of its own.
  /// pixelmatch 4.0.2 gives the edge nothing, so two equal neighbours leave
  /// the pixel anti-aliased (not counted); pixelmatch 5 counts the missing
  /// neighbours beyond the edge as one more equal one, three: not
  /// anti-aliasing, a difference. In the second image the pixel is white,
  /// with nothing brighter around it: anti-aliasing by neither rule.
  @Test func edgePixelsFollowPixelmatch4() {
    let a = Self.image([
      [0, 128, 128, 128, 0],
      [0, 0, 255, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
    ])
    var b = a
    b[2] = Self.grey(255)
    let v4 = Self.count(a, b, width: 5, height: 4, PixelMatch(threshold: 0.13, antialiasing: .pixelmatch4))
    #expect(v4.differing == 0 && v4.antialiased == 1)
    let v5 = Self.count(a, b, width: 5, height: 4, PixelMatch(threshold: 0.13, antialiasing: .siblings))
    #expect(v5.differing == 1 && v5.antialiased == 0)
    #expect(StyleCriterion.match.antialiasing == .pixelmatch4 && StyleCriterion.match.threshold == 0.13 && !StyleCriterion.match.includeAA)
  }

  /// An isolated changed pixel in a flat field is a difference by both rules.
  @Test func isolatedPixelCountsByBothRules() {
    let a = [UInt32](repeating: Self.grey(200), count: 25)
    var b = a
    b[12] = Self.grey(0)
    for mode in [PixelMatch.AntialiasDetection.pixelmatch4, .siblings] {
      #expect(Self.count(a, b, width: 5, height: 5, PixelMatch(threshold: 0.13, antialiasing: mode)).differing == 1)
    }
  }

  /// The expected images store premultiplied colour: a frame's premultiplied
  /// bytes, taken as if straight, match them; its straight colour does not.
  @Test func premultipliedExpectation() {
    // Translucent red at alpha 128: straight (255, 0, 0, 128), premultiplied (128, 0, 0, 128).
    let premultiplied = [UInt32](repeating: 128 | 128 << 24, count: 16)
    let straight = [UInt32](repeating: 255 | 128 << 24, count: 16)
    let expected = premultiplied
    func judge(_ frame: [UInt32]) -> StyleCriterion.Result {
      frame.withUnsafeBufferPointer { f in
        expected.withUnsafeBufferPointer { e in StyleCriterion.judge(frame: f, expected: e, width: 4, height: 4, allowed: StyleCase.defaultAllowed) }
      }
    }
    #expect(judge(premultiplied).passed && judge(premultiplied).counts.differing == 0)
    let wrong = judge(straight)
    #expect(!wrong.passed && wrong.counts.differing == 16 && !wrong.withinOnePercent)
  }

  /// `allowed` bounds the fraction of differing pixels (inclusive), and
  /// "within 1 %" is the same rule at 0.01; the diff image marks the pixel.
  @Test func allowedAndWithinOnePercent() {
    let a = [UInt32](repeating: Self.grey(255), count: 100)
    var one = a
    one[55] = Self.grey(0)
    var two = one
    two[11] = Self.grey(0)
    func judge(_ frame: [UInt32], allowed: Double) -> StyleCriterion.Result {
      frame.withUnsafeBufferPointer { f in a.withUnsafeBufferPointer { e in StyleCriterion.judge(frame: f, expected: e, width: 10, height: 10, allowed: allowed) } }
    }
    #expect(!judge(one, allowed: 0.00015).passed)
    #expect(judge(one, allowed: 0.01).passed, "1 of 100 pixels is 0.01: at most allowed")
    #expect(judge(one, allowed: 0.00015).withinOnePercent)
    #expect(judge(one, allowed: 0.00015).ratio == 0.01)
    #expect(!judge(two, allowed: 0.015).passed && !judge(two, allowed: 0.015).withinOnePercent)
    var diff = [UInt32](repeating: 0, count: 100)
    _ = one.withUnsafeBufferPointer { f in
      a.withUnsafeBufferPointer { e in diff.withUnsafeMutableBufferPointer { d in StyleCriterion.judge(frame: f, expected: e, width: 10, height: 10, allowed: 0, diff: d) } }
    }
    #expect(diff[55] == PixelMatch.diffPixel)
  }
}
