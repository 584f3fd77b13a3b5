import XCTest
import _MapSnapJSON
@testable import _MapSnapStyle

/// Clustering on a fixed point set, against values worked by hand.
final class SuperclusterTests: XCTestCase {
  // Six points (world units): P0…P2 near the centre, P3 alone, P4 and P5 0.02 apart.
  private let xs = [0.5, 0.55, 0.52, 0.9, 0.1, 0.12]
  private let ys = [0.5, 0.5, 0.54, 0.9, 0.1, 0.1]

  private func index(minPoints: Int = 2, properties: [ClusterProperty] = [], downTo z: Int = 0) -> Supercluster {
    Supercluster(
      xs: xs, ys: ys, radius: 50, extent: 512, maxZoom: 2, minPoints: minPoints, downTo: z, clusterProperties: properties,
      properties: { ["v": .number(Double($0 + 1))] })
  }

  func testLevelsFromMaxZoomDown() {
    let c = index()
    // Zoom 3 (maxZoom + 1): the points themselves.
    XCTAssertEqual(c.entries(atZoom: 9).map(\.pointCount), [1, 1, 1, 1, 1, 1])
    // Zoom 2 (r = 50 / 2048): only P4 and P5 join, at their mean; id 4·32 + 3 + 6.
    let z2 = c.entries(atZoom: 2)
    XCTAssertEqual(z2.map(\.id), [0, 1, 2, 3, 137])
    XCTAssertEqual(z2[4].pointCount, 2)
    XCTAssertEqual(z2[4].x, 0.11, accuracy: 1e-12)
    // Zoom 1 (r = 50 / 1024): P0 takes P2 (0.045 away) but not P1 (0.05); id 0·32 + 2 + 6.
    let z1 = c.entries(atZoom: 1)
    XCTAssertEqual(z1.map(\.id), [8, 1, 3, 137])
    XCTAssertEqual(z1.map(\.isCluster), [true, false, false, true])
    // Zoom 0: that cluster takes P1, weighted by its two points.
    let z0 = c.entries(atZoom: 0)
    XCTAssertEqual(z0.map(\.id), [7, 3, 137])
    XCTAssertEqual(z0.map(\.pointCount), [3, 1, 2])
    XCTAssertEqual(z0[0].x, 1.57 / 3, accuracy: 1e-12)
    XCTAssertEqual(z0[0].y, 1.54 / 3, accuracy: 1e-12)
  }

  func testClusterFeatureProperties() {
    let c = index()
    let p = c.properties(of: c.entries(atZoom: 0)[0])
    XCTAssertEqual(p["cluster"], .bool(true))
    XCTAssertEqual(p["cluster_id"], .number(7))
    XCTAssertEqual(p["point_count"], .number(3))
    XCTAssertEqual(p["point_count_abbreviated"], .number(3))
  }

  func testMinPointsKeepsSmallGroupsApart() {
    let z2 = index(minPoints: 3).entries(atZoom: 2)
    XCTAssertEqual(z2.map(\.id), [0, 1, 2, 3, 4, 5])
    XCTAssertFalse(z2.contains { $0.isCluster })
  }

  func testClusterPropertiesMapAndReduce() throws {
    let sum = try ClusterProperty.parse(name: "sum", ["+", ["get", "v"]]).get()
    let top = try ClusterProperty.parse(name: "top", [["max", ["accumulated"], ["get", "top"]], ["*", 10, ["get", "v"]]]).get()
    let c = index(properties: [sum, top])
    let z0 = c.entries(atZoom: 0)
    // P0 + P2 + P1 = 1 + 3 + 2; P4 + P5 = 5 + 6.
    XCTAssertEqual(c.properties(of: z0[0])["sum"], .number(6))
    XCTAssertEqual(c.properties(of: z0[0])["top"], .number(30))
    XCTAssertEqual(c.properties(of: z0[2])["sum"], .number(11))
    XCTAssertEqual(c.properties(of: z0[2])["top"], .number(60))
  }

  func testOnlyTheLevelsDownToTheFrameAreMade() {
    let c = index(downTo: 2)
    XCTAssertEqual(c.lowestZoom, 2)
    XCTAssertEqual(c.entries(atZoom: 0).map(\.id), [0, 1, 2, 3, 137])
  }

  func testAbbreviatedCounts() {
    XCTAssertEqual(Supercluster.abbreviated(999), .number(999))
    XCTAssertEqual(Supercluster.abbreviated(1000), .string("1k"))
    XCTAssertEqual(Supercluster.abbreviated(1250), .string("1.3k"))
    XCTAssertEqual(Supercluster.abbreviated(9950), .string("10k"))
    XCTAssertEqual(Supercluster.abbreviated(15_499), .string("15k"))
  }

  func testManyPointsClusterInBoundedWork() {
    var xs: [Double] = [], ys: [Double] = []
    var seed: UInt64 = 42
    for _ in 0..<50_000 {
      seed = seed &* 6364136223846793005 &+ 1442695040888963407
      xs.append(Double(seed >> 11) / Double(1 << 53))
      seed = seed &* 6364136223846793005 &+ 1442695040888963407
      ys.append(Double(seed >> 11) / Double(1 << 53))
    }
    let c = Supercluster(
      xs: xs, ys: ys, radius: 50, extent: 512, maxZoom: 17, minPoints: 2, downTo: 0, clusterProperties: [], properties: { _ in [:] })
    let total = c.entries(atZoom: 0).reduce(0) { $0 + $1.pointCount }
    XCTAssertEqual(total, 50_000)
  }
}
