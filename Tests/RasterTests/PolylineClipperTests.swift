import Testing

@testable import _MapSnapRaster

/// `PolylineClipper.clip(_:to:phases:)`: a path is clipped contour by
/// contour exactly as the per-contour `clip` does it, and a path wholly
/// inside the rectangle comes back as it is, not copied.
@Suite struct PolylineClipperTests {
  let frame = Rect(minX: -10, minY: -10, maxX: 110, maxY: 110)

  /// The per-contour clip, the reference.
  func reference(_ path: Path, _ rect: Rect) -> (Path, [Double]) {
    var out = Path()
    var phases: [Double] = []
    for i in path.contours.indices {
      PolylineClipper.clip(path.points(of: i), closed: path.contours[i].isClosed, to: rect, into: &out, phases: &phases)
    }
    return (out, phases)
  }

  /// Equal contours and points, bit for bit (a NaN equals itself).
  func same(_ a: Path, _ b: Path) -> Bool {
    a.contours == b.contours && a.points.count == b.points.count
      && zip(a.points, b.points).allSatisfy { $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern }
  }

  func path(_ contours: [([Point], Bool)]) -> Path {
    var p = Path()
    for (pts, closed) in contours { p.addContour(pts, closed: closed) }
    return p
  }

  @Test func aPathInsideComesBackUncopied() {
    let p = path([
      ([Point(0, 0), Point(100, 0), Point(100, 100), Point(0, 100)], true),
      ([Point(5, 5), Point(50, 60)], false),
      ([Point(-10, -10)], false),  // on the rectangle's corner: inside
    ])
    var phases: [Double] = [7]
    let clipped = PolylineClipper.clip(p, to: frame, phases: &phases)
    let (expected, expectedPhases) = reference(p, frame)
    #expect(clipped == expected && clipped == p)
    #expect(phases == [7] + expectedPhases && phases == [7, 0, 0, 0])
    let shared = clipped.points.withUnsafeBufferPointer { a in p.points.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    #expect(shared, "the path's points are not copied")
  }

  /// Points that belong to no contour are not the clip's: such a path is
  /// clipped (its contours copied), not returned as it is.
  @Test func aPathWithPointsOutsideItsContoursIsCopied() {
    var p = Path()
    p.points = [Point(1, 1), Point(2, 2), Point(3, 3), Point(4, 4), Point(5, 5)]
    p.contours = [Contour(start: 1, count: 3, isClosed: false)]
    var phases: [Double] = []
    let clipped = PolylineClipper.clip(p, to: frame, phases: &phases)
    #expect(clipped.points == [Point(2, 2), Point(3, 3), Point(4, 4)] && clipped.contours == [Contour(start: 0, count: 3, isClosed: false)])
    #expect(phases == [0])
  }

  @Test(arguments: [
    "one contour crosses",
    "one contour is outside",
    "a contour has a NaN point",
    "a crossing contour has a NaN point",
    "every contour is outside",
  ])
  func aPathNotWhollyInsideIsClippedContourByContour(_ name: String) {
    let inside: ([Point], Bool) = ([Point(0, 0), Point(100, 0), Point(100, 100)], true)
    let p: Path
    switch name {
    case "one contour crosses": p = path([inside, ([Point(50, 50), Point(200, 50), Point(200, 80), Point(50, 90)], false)])
    case "one contour is outside": p = path([inside, ([Point(200, 200), Point(300, 250)], true)])
    case "a contour has a NaN point": p = path([inside, ([Point(1, 1), Point(.nan, 3), Point(8, 9)], false)])
    case "a crossing contour has a NaN point": p = path([inside, ([Point(50, 50), Point(.nan, 3), Point(200, 50)], false)])
    default: p = path([([Point(200, 200), Point(300, 250)], true), ([Point(-50, 0), Point(-40, 90)], false)])
    }
    var phases: [Double] = []
    let clipped = PolylineClipper.clip(p, to: frame, phases: &phases)
    let (expected, expectedPhases) = reference(p, frame)
    #expect(same(clipped, expected), "\(name)")
    #expect(phases.map(\.bitPattern) == expectedPhases.map(\.bitPattern), "\(name)")
    if name == "every contour is outside" { #expect(clipped.isEmpty) }
  }
}
