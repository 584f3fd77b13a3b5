import XCTest
@testable import _MapSnapStyle

/// Douglas–Peucker importance, tolerance per tile, clipping at the buffer,
/// line-progress, as geojson-vt makes MapLibre's GeoJSON tiles.
final class GeoJSONTilingTests: XCTestCase {
  private func part(_ xy: [(Double, Double)]) -> GeoJSONPart {
    var c: [Double] = []
    var d = 0.0
    for (i, p) in xy.enumerated() {
      if i > 0 { d += ((p.0 - xy[i - 1].0) * (p.0 - xy[i - 1].0) + (p.1 - xy[i - 1].1) * (p.1 - xy[i - 1].1)).squareRoot() }
      c += [p.0, p.1, i == 0 || i == xy.count - 1 ? 1 : 0, d]
    }
    return GeoJSONPart(coords: c, size: d, length: d)
  }

  func testImportanceIsTheSquaredDistanceAtEachSplit() {
    var p = part([(0, 0), (1, 0.5), (2, 0), (3, 1), (4, 0)])
    p.coords.withUnsafeMutableBufferPointer { GeoJSONSimplify.markImportance($0, first: 0, last: 4, sqTolerance: 0) }
    // The chord 0–4 splits at vertex 3 (1), 0–3 at vertex 2 (0.4), 0–2 at vertex 1 (0.25).
    let importance = stride(from: 2, to: p.coords.count, by: 4).map { p.coords[$0] }
    XCTAssertEqual(importance[0], 1)
    XCTAssertEqual(importance[1], 0.25, accuracy: 1e-12)
    XCTAssertEqual(importance[2], 0.4, accuracy: 1e-12)
    XCTAssertEqual(importance[3], 1, accuracy: 1e-12)
    XCTAssertEqual(importance[4], 1)
    var q = part([(0, 0), (1, 0.5), (2, 0), (3, 1), (4, 0)])
    q.coords.withUnsafeMutableBufferPointer { GeoJSONSimplify.markImportance($0, first: 0, last: 4, sqTolerance: 0.3) }
    XCTAssertEqual(q.coords[4 + 2], 0, "below the preparation tolerance: never kept")
  }

  private func line(_ xy: [(Double, Double)]) -> GeoJSONShape {
    var p = part(xy)
    p.coords.withUnsafeMutableBufferPointer { GeoJSONSimplify.markImportance($0, first: 0, last: xy.count - 1, sqTolerance: 0) }
    return GeoJSONShape(kind: .lineString, parts: [p])
  }

  func testAVertexIsKeptWhileItsDeviationExceedsTheTileTolerance() {
    // The middle vertex is 0.001 world units off the chord.
    let s = line([(0.1, 0.5), (0.3, 0.501), (0.9, 0.5)])
    let fine = GeoJSONTiler.tile(s, z: 0, x: 0, y: 0, offset: 0, buffer: 0.25, tolerance: 0.375 / 512, lineMetrics: false)!.0
    XCTAssertEqual(fine.points, [TilePoint(x: 819, y: 4096), TilePoint(x: 2458, y: 4104), TilePoint(x: 7373, y: 4096)])
    let coarse = GeoJSONTiler.tile(s, z: 0, x: 0, y: 0, offset: 0, buffer: 0.25, tolerance: 1.0 / 512, lineMetrics: false)!.0
    XCTAssertEqual(coarse.points, [TilePoint(x: 819, y: 4096), TilePoint(x: 7373, y: 4096)])
    let exact = GeoJSONTiler.tile(s, z: 0, x: 0, y: 0, offset: 0, buffer: 0.25, tolerance: 0, lineMetrics: false)!.0
    XCTAssertEqual(exact.points.count, 3, "no simplification at the source's maxzoom")
  }

  func testShortLinesAndSmallRingsAreDropped() {
    let s = line([(0.5, 0.5), (0.5001, 0.5)])
    XCTAssertNil(GeoJSONTiler.tile(s, z: 0, x: 0, y: 0, offset: 0, buffer: 0.25, tolerance: 1.0 / 512, lineMetrics: false))
    XCTAssertNotNil(GeoJSONTiler.tile(s, z: 0, x: 0, y: 0, offset: 0, buffer: 0.25, tolerance: 0, lineMetrics: false))
    let ring = GeoJSONShape.polygons([[[0, 0], [0.001, 0], [0.001, 0.001], [0, 0]]], sqTolerance: 0)
    XCTAssertNil(GeoJSONTiler.tile(ring, z: 0, x: 0, y: 0, offset: 0, buffer: 0.25, tolerance: 0.375 / 512, lineMetrics: false))
  }

  func testLinesAreCutAtTheBufferWithTheirProgress() {
    // Tile 1/0/0 spans 0…0.5; its 128-pixel buffer reaches 0.125 further.
    let s = line([(0.1, 0.1), (0.9, 0.1)])
    let (g, progress) = GeoJSONTiler.tile(s, z: 1, x: 0, y: 0, offset: 0, buffer: 0.125, tolerance: 0, lineMetrics: true)!
    XCTAssertEqual(g.points, [TilePoint(x: 1638, y: 1638), TilePoint(x: 10240, y: 1638)])
    XCTAssertEqual(progress, [0, 0.65625])
    let (h, p2) = GeoJSONTiler.tile(s, z: 1, x: 1, y: 0, offset: 0, buffer: 0.125, tolerance: 0, lineMetrics: true)!
    XCTAssertEqual(h.points, [TilePoint(x: -2048, y: 1638), TilePoint(x: 6554, y: 1638)])
    XCTAssertEqual(p2, [0.34375, 1])
  }

  func testPolygonsAreCutAndClosedAtTheBuffer() {
    let square = GeoJSONShape(kind: .polygon, parts: [part([(0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9), (0.1, 0.1)])], polygonEnds: [1])
    let g = GeoJSONTiler.tile(square, z: 1, x: 0, y: 0, offset: 0, buffer: 0.125, tolerance: 0, lineMetrics: false)!.0
    XCTAssertEqual(g.polygonEnds, [1])
    XCTAssertEqual(g.points.first, g.points.last)
    XCTAssertEqual(Set(g.points), [
      TilePoint(x: 1638, y: 1638), TilePoint(x: 10240, y: 1638), TilePoint(x: 10240, y: 10240), TilePoint(x: 1638, y: 10240),
    ])
  }

  func testWorldCopiesReachAcrossTheAntimeridian() {
    // A point just east of −180° is in tile 1/0/0, and 1/1/0's buffer sees its copy one world east.
    let p = GeoJSONShape.points([-179, 60])
    XCTAssertNotNil(GeoJSONTiler.tile(p, z: 1, x: 1, y: 0, offset: 1, buffer: 0.125, tolerance: 0, lineMetrics: false))
    XCTAssertNil(GeoJSONTiler.tile(p, z: 1, x: 1, y: 0, offset: 0, buffer: 0.125, tolerance: 0, lineMetrics: false))
  }
}
