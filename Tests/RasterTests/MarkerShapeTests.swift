import Foundation
import Testing
import _MapSnapRaster

/// Shoelace signed area of contour 0 in device coordinates (positive =
/// clockwise on screen).
private func signedArea(_ path: Path) -> Double {
  let pts = Array(path.points(of: 0))
  var a = 0.0
  for i in pts.indices {
    let p = pts[i], q = pts[(i + 1) % pts.count]
    a += p.cross(q)
  }
  return a / 2
}

private func near(_ a: Rect, _ b: Rect) -> Bool {
  abs(a.minX - b.minX) < 1e-9 && abs(a.minY - b.minY) < 1e-9
    && abs(a.maxX - b.maxX) < 1e-9 && abs(a.maxY - b.maxY) < 1e-9
}

private let c = Point(40, 30)

@Suite struct MarkerShapeTests {
  @Test(arguments: MarkerShape.allCases)
  func everyMarkerIsOneClosedClockwiseContour(shape: MarkerShape) {
    let p = markerPath(shape, at: c, size: 12)
    #expect(p.contours.count == 1)
    #expect(p.contours[0].isClosed)
    #expect(signedArea(p) > 0)
    #expect(!p.points.contains { !$0.isFinite })
  }

  @Test(arguments: [MarkerShape.circle, .square, .triangle, .cross])
  func centredMarkersSpanSize(shape: MarkerShape) {
    let p = markerPath(shape, at: c, size: 12)
    #expect(near(p.bounds, Rect(minX: 34, minY: 24, maxX: 46, maxY: 36)))
  }

  @Test func circleIsFlattenedWithinTolerance() {
    for (size, tol) in [(12.0, 0.1), (200.0, 0.05), (1.0, 0.1)] {
      let p = markerPath(.circle, at: c, size: size, tolerance: tol)
      let r = size / 2
      #expect(p.points.count >= 8)
      let pts = Array(p.points)
      for i in pts.indices {
        #expect(abs((pts[i] - c).length - r) < 1e-9)
        let mid = (pts[i] + pts[(i + 1) % pts.count]) * 0.5
        #expect(r - (mid - c).length <= tol + 1e-12)
      }
      #expect(abs(signedArea(p) - .pi * r * r) <= 2 * .pi * r * tol)
    }
  }

  @Test func squareAndTriangleGeometry() {
    #expect(abs(signedArea(markerPath(.square, at: c, size: 12)) - 144) < 1e-9)
    let t = markerPath(.triangle, at: c, size: 12)
    #expect(t.points.count == 3)
    #expect(t.points[0] == Point(40, 24))
    #expect(abs(signedArea(t) - 72) < 1e-9)
  }

  @Test func crossIsATwelveVertexPlus() {
    let p = markerPath(.cross, at: c, size: 12)
    #expect(p.points.count == 12)
    #expect(abs(signedArea(p) - 5 * 16) < 1e-9)  // five squares of side size / 3
    #expect(p.points.contains(Point(42, 24)) && p.points.contains(Point(46, 32)))
  }

  @Test func pinTipIsAtThePoint() {
    let size = 20.0
    let p = markerPath(.pin, at: c, size: size)
    #expect(p.points[0] == c)
    #expect(!p.points.contains { $0.y > c.y })
    #expect(near(p.bounds, Rect(minX: 30, minY: 0, maxX: 50, maxY: 30)))
    // Kite from the tip to the tangent points (r²·√3) plus a 240° sector.
    let r = size / 2
    let exact = r * r * 3.0.squareRoot() + 2.0 / 3.0 * .pi * r * r
    #expect(abs(signedArea(p) - exact) < 0.02 * exact)
    // The sides are tangent to the head: the tangent points are on the circle
    // at a right angle to the tip.
    let head = Point(c.x, c.y - size)
    let t = p.points[1]
    #expect(abs((t - head).length - r) < 1e-9)
    #expect(abs((t - head).dot(c - t)) < 1e-9)
  }

  @Test func invalidSizeOrCentreGivesNothing() {
    for shape in MarkerShape.allCases {
      #expect(markerPath(shape, at: c, size: 0).isEmpty)
      #expect(markerPath(shape, at: c, size: -3).isEmpty)
      #expect(markerPath(shape, at: c, size: .nan).isEmpty)
      #expect(markerPath(shape, at: Point(.infinity, 0), size: 5).isEmpty)
    }
  }

  @Test func extremeSizesDoNotTrap() {
    for shape in MarkerShape.allCases {
      for tol in [0.1, 1e-300, .nan, -1, .infinity] {
        #expect(markerPath(shape, at: c, size: 1e300, tolerance: tol).points.count <= 8200)
        #expect(!markerPath(shape, at: c, size: 1e-300, tolerance: tol).isEmpty)
      }
    }
  }

  @Test func rawValuesAreTheSceneNames() {
    #expect(MarkerShape(rawValue: "pin") == .pin)
    #expect(MarkerShape.allCases.map(\.rawValue) == ["circle", "square", "triangle", "cross", "pin"])
  }
}
