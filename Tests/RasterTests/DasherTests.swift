import Testing
import _MapSnapRaster

private func polyline(_ pts: [Point], closed: Bool = false) -> Path {
  var p = Path()
  p.addContour(pts, closed: closed)
  return p
}

/// Length of contour `i`, without any closing edge.
private func length(_ path: Path, _ i: Int) -> Double {
  let pts = Array(path.points(of: i))
  return zip(pts, pts.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0).length }
}

private func totalLength(_ path: Path) -> Double {
  path.contours.indices.reduce(0) { $0 + length(path, $1) }
}

/// The x ranges of the dashes of a horizontal line.
private func xRanges(_ path: Path) -> [ClosedRange<Double>] {
  path.contours.indices.map { i in
    let xs = path.points(of: i).map(\.x)
    return xs.min()!...xs.max()!
  }
}

private func same(_ a: [ClosedRange<Double>], _ b: [ClosedRange<Double>]) -> Bool {
  a.count == b.count
    && zip(a, b).allSatisfy { abs($0.lowerBound - $1.lowerBound) < 1e-9 && abs($0.upperBound - $1.upperBound) < 1e-9 }
}

/// `count` ranges of length 10, 15 apart, the first starting at `from`.
private func periodic(from start: Double, count: Int) -> [ClosedRange<Double>] {
  (0..<count).map { i -> ClosedRange<Double> in
    let a = start + 15 * Double(i)
    return a...(a + 10)
  }
}

private let line100 = polyline([Point(0, 0), Point(100, 0)])

@Suite struct DasherTests {
  @Test func dashLengthsOnAStraightLine() {
    let d = dashed(line100, pattern: [10, 5])
    #expect(d.contours.count == 7)
    #expect(!d.contours.contains { $0.isClosed })
    #expect(abs(totalLength(d) - 70) < 1e-9)
    let expected = periodic(from: 0, count: 7)
    #expect(same(xRanges(d), expected))
  }

  @Test func partialLastDashIsKept() {
    let d = dashed(polyline([Point(0, 0), Point(0, 95)]), pattern: [10, 5])
    #expect(d.contours.count == 7)
    #expect(abs(totalLength(d) - 65) < 1e-9)
    #expect(abs(length(d, 6) - 5) < 1e-9)
  }

  @Test func oddPatternIsRepeated() {
    let d = dashed(line100, pattern: [10])
    #expect(d.contours.count == 5)
    #expect(abs(totalLength(d) - 50) < 1e-9)
    #expect(dashed(line100, pattern: [10, 5, 5]) == dashed(line100, pattern: [10, 5, 5, 10, 5, 5]))
  }

  @Test func offsetShiftsThePattern() {
    let plus = dashed(line100, pattern: [10, 5], offset: 5)
    #expect(abs(totalLength(plus) - 65) < 1e-9)
    let plusExpected = [0...5] + periodic(from: 10, count: 6)
    #expect(same(xRanges(plus), plusExpected))
    let minus = dashed(line100, pattern: [10, 5], offset: -5)
    #expect(abs(totalLength(minus) - 65) < 1e-9)
    let minusExpected = periodic(from: 5, count: 6) + [95...100]
    #expect(same(xRanges(minus), minusExpected))
    #expect(dashed(line100, pattern: [10, 5], offset: 30) == dashed(line100, pattern: [10, 5]))
  }

  @Test func phaseOffsetsContinueAClippedLine() {
    var split = Path()
    split.addContour([Point(0, 0), Point(47, 0)], closed: false)
    split.addContour([Point(47, 0), Point(100, 0)], closed: false)
    let whole = xRanges(dashed(line100, pattern: [10, 5], offset: 3))
    let parts = xRanges(dashed(split, pattern: [10, 5], offset: 3, phaseOffsets: [0, 47]))
    // Re-join the dash cut at x = 47.
    var merged: [ClosedRange<Double>] = []
    for r in parts {
      if let last = merged.last, abs(last.upperBound - r.lowerBound) < 1e-9 {
        merged[merged.count - 1] = last.lowerBound...r.upperBound
      } else {
        merged.append(r)
      }
    }
    #expect(same(merged, whole))
    // Without phase offsets every contour restarts the pattern; missing entries are 0.
    let restarted = dashed(split, pattern: [10, 5])
    #expect(restarted == dashed(split, pattern: [10, 5], phaseOffsets: [0]))
    #expect(xRanges(restarted).contains { abs($0.lowerBound - 47) < 1e-9 })
  }

  @Test func zeroLengthDashesAreDots() {
    let d = dashed(line100, pattern: [0, 10])
    #expect(d.contours.count == 10)
    #expect(!d.contours.contains { $0.count != 1 })
    #expect(d.points.map(\.x) == (0..<10).map { Double($0 * 10) })
  }

  @Test func invalidPatternsLeaveThePathAlone() {
    for pattern in [[], [0, 0], [10, -5], [.nan, 5], [.infinity, 1]] as [[Double]] {
      #expect(dashed(line100, pattern: pattern) == line100)
    }
  }

  @Test func dashesFollowCorners() {
    let d = dashed(polyline([Point(0, 0), Point(10, 0), Point(10, 10)]), pattern: [15, 100])
    #expect(d.contours.count == 1)
    #expect(Array(d.points(of: 0)) == [Point(0, 0), Point(10, 0), Point(10, 5)])
  }

  @Test func closedContoursWrapAndJoinAtTheStart() {
    let square = polyline([Point(0, 0), Point(100, 0), Point(100, 100), Point(0, 100)], closed: true)
    // Perimeter 400 = 10 periods: pieces never straddle the start.
    let even = dashed(square, pattern: [30, 10])
    #expect(even.contours.count == 10)
    #expect(abs(totalLength(even) - 300) < 1e-9)
    // The piece that starts at the first point is emitted last.
    #expect(Array(even.points(of: 9)) == [Point(0, 0), Point(30, 0)])
    // Starting 20 px into a dash: the last piece (0,10)→(0,0) and the first
    // piece (0,0)→(10,0) become one contour turning the corner at (0,0).
    let shifted = dashed(square, pattern: [30, 10], offset: 20)
    #expect(shifted.contours.count == 10)
    #expect(!shifted.contours.contains { $0.isClosed })
    #expect(abs(totalLength(shifted) - 300) < 1e-9)
    let last = Array(shifted.points(of: shifted.contours.count - 1))
    #expect(last == [Point(0, 20), Point(0, 0), Point(10, 0)])
    // A ring inside one dash stays closed.
    #expect(dashed(square, pattern: [1000, 1]) == square)
  }

  @Test func hugeDashCountsAreNotDashed() {
    #expect(dashed(line100, pattern: [1e-5, 1e-5]) == line100)
  }

  @Test func nonFinitePointsAreSkipped() {
    let bad = polyline([Point(0, 0), Point(.nan, 1), Point(100, 0)])
    #expect(dashed(bad, pattern: [10, 5]) == dashed(line100, pattern: [10, 5]))
  }

  @Test func zeroLengthContoursBecomeOnePointDashes() {
    let dot = polyline([Point(3, 4), Point(3, 4)])
    #expect(Array(dashed(dot, pattern: [5, 5]).points) == [Point(3, 4)])
    #expect(dashed(dot, pattern: [5, 5], offset: 6).isEmpty)
  }
}
