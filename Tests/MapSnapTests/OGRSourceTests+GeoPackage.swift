import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap
@testable import _MapSnapRaster

/// GeoPackage layers read through their R-tree or by a scan.
extension OGRSourceTests {
  private static func geoPackage(_ path: String = data + "helsinki.gpkg", layer: String) throws -> (GeoPackageReader, GeoPackageReader.Table, OGRSource) {
    let source = OGRSource(name: "t", resolved: path, layer: layer)
    let reader = try GeoPackageReader.shared(source, confinement: nil).get()
    return (reader, try reader.table(layer, source: source).get(), source)
  }

  /// A scan tests each row by the R-tree's own rule (its bounds rounded
  /// outward to 32-bit floats), so it reads exactly the rows the R-tree
  /// gives, for filters that cut through features on every side.
  @Test(arguments: ["areas", "buildings", "roads", "pois"])
  func aScanReadsWhatTheRTreeReads(layer: String) throws {
    let (reader, table, source) = try Self.geoPackage(layer: layer)
    let e = try #require(table.extent)
    #expect(table.rtree != nil && table.count != nil)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    var counts = Set<Int>()
    for _ in 0..<24 {
      let x = e.minX + (next() * 1.2 - 0.1) * e.width
      let y = e.minY + (next() * 1.2 - 0.1) * e.height
      let f = Rect(minX: x, minY: y, maxX: x + next() * e.width / 2, maxY: y + next() * e.height / 2)
      let (a, ai) = try reader.read(table, filter: f, source: source, scan: false).get().pair
      let (b, bi) = try reader.read(table, filter: f, source: source, scan: true).get().pair
      #expect(ai.scan == nil && bi.scan == .mostOfLayer)
      #expect(ai.featuresRead == bi.featuresRead, "\(f)")
      #expect(a.features.map(\.index) == b.features.map(\.index), "\(f)")
      #expect(a.contentDigest == b.contentDigest, "\(f)")
      counts.insert(ai.featuresRead)
    }
    #expect(counts.count > 10 && (counts.max() ?? 0) < table.count!, "filters cut the layer: \(counts.sorted())")
  }

  /// The R-tree is used unless the filter covers `scanCoverage` of the
  /// table's extent; a table without an R-tree is always scanned, one
  /// without an extent always read through its R-tree.
  @Test func aFilterCoveringMostOfATableScansIt() throws {
    let (reader, table, source) = try Self.geoPackage(layer: "roads")
    let e = try #require(table.extent)
    let half = GeoPackageReader.scanCoverage
    let wide = Rect(minX: e.minX - 1, minY: e.minY - 1, maxX: e.maxX + 1, maxY: e.maxY + 1)
    let most = Rect(minX: e.minX, minY: e.minY, maxX: e.minX + e.width * (half + 0.01), maxY: e.maxY)
    let less = Rect(minX: e.minX, minY: e.minY, maxX: e.minX + e.width * (half - 0.01), maxY: e.maxY)
    #expect(GeoPackageReader.scans(table, filter: wide) && GeoPackageReader.scans(table, filter: most))
    #expect(!GeoPackageReader.scans(table, filter: less))
    #expect(!GeoPackageReader.scans(table, filter: Rect(minX: e.maxX + 1, minY: e.minY, maxX: e.maxX + 2, maxY: e.maxY)))
    var unknown = table
    unknown.extent = nil
    #expect(!GeoPackageReader.scans(unknown, filter: wide))
    var unindexed = table
    unindexed.rtree = nil
    #expect(GeoPackageReader.scans(unindexed, filter: less))
    let (_, info) = try reader.read(table, filter: wide, source: source).get().pair
    #expect(info.scan == .mostOfLayer && !info.spatialIndex && info.featuresRead == table.count)
    let (_, small) = try reader.read(table, filter: less, source: source).get().pair
    #expect(small.scan == nil && small.spatialIndex && small.featuresRead < table.count!)
    let (_, whole) = try reader.read(table, filter: nil, source: source).get().pair
    #expect(whole.scan == .everyFeature && whole.featuresRead == table.count)
    let (_, bare) = try reader.read(unindexed, filter: less, source: source).get().pair
    #expect(bare.scan == .noIndex && bare.featuresRead == small.featuresRead)
  }

  /// A row without a geometry is unlocated when the whole table is read,
  /// and is read through no filter, scanned or through the R-tree (GDAL's
  /// triggers keep it out of the R-tree).
  @Test func aRowWithoutAGeometryIsUnlocatedAndOutsideEveryFilter() throws {
    let ogrinfo = "/usr/bin/ogrinfo"
    try #require(FileManager.default.isExecutableFile(atPath: ogrinfo), "ogrinfo is missing: make setup installs gdal-bin")
    try withTemporaryDirectory { dir in
      let path = dir + "/nulls.gpkg"
      try FileManager.default.copyItem(atPath: Self.data + "helsinki.gpkg", toPath: path)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: ogrinfo)
      process.arguments = ["-q", path, "-sql", "UPDATE pois SET geom = NULL WHERE fid IN (1, 2)"]
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      try #require(process.terminationStatus == 0)
      let (reader, table, source) = try Self.geoPackage(path, layer: "pois")
      let (all, allInfo) = try reader.read(table, filter: nil, source: source).get().pair
      #expect(all.unlocatedCount == 2 && all.invalidCount == 0 && allInfo.featuresRead == 1607)
      let e = try #require(table.extent)
      let wide = Rect(minX: e.minX - 1, minY: e.minY - 1, maxX: e.maxX + 1, maxY: e.maxY + 1)
      for scan in [false, true] {
        let (c, info) = try reader.read(table, filter: wide, source: source, scan: scan).get().pair
        #expect(c.unlocatedCount == 0 && info.featuresRead == 1605 && c.features.count == 1605, "scan \(scan)")
      }
    }
  }

  /// A GeoPackage's layers tell their feature counts as the file opens, so
  /// a frame reads them largest first; other datasets are not opened for it.
  @Test func aGeoPackageTellsItsLayersSizesForTheReadOrder() {
    let loader = SourceLoader()
    #expect(loader.ogrFeatureCountHint(OGRSource(name: "t", resolved: Self.data + "helsinki.gpkg", layer: "roads")) == 2525)
    #expect(loader.ogrFeatureCountHint(OGRSource(name: "t", resolved: Self.data + "helsinki.gpkg", layer: "pois")) == 1607)
    #expect(loader.ogrFeatureCountHint(OGRSource(name: "t", resolved: Self.data + "helsinki.gpkg", layer: "nope")) == nil)
    #expect(loader.ogrFeatureCountHint(OGRSource(name: "t", resolved: Self.data + "helsinki_roads.shp", layer: nil)) == nil)
  }

  /// SQLite is told not to count its memory (a process-wide mutex taken on
  /// every allocation, which two threads reading two tables took turns at),
  /// before PROJ or GDAL could start it (both are loaded by other tests in
  /// this process, in any order).
  @Test func sqliteDoesNotCountItsMemory() throws {
    _ = try SourceLoader().ogr(OGRSource(name: "t", resolved: Self.data + "helsinki.gpkg", layer: "pois"), near: nil).get()
    _ = CRSTransform.to84(from: "EPSG:3067")
    #expect(!GeoPackageReader.sqliteCountsMemory)
  }

  /// Reads are kept for the most recently used `ogrSourcesKept` sources
  /// only (a batch over many scenes would otherwise keep them all), at most
  /// `ogrReadsKept` each; a kept read still serves its source.
  @Test func keptReadsAreBoundedPerSourceAndInSources() throws {
    let loader = SourceLoader()
    let n = SourceLoader.ogrSourcesKept + 3
    let sources = (0..<n).map { OGRSource(name: "s\($0)", resolved: Self.data + "helsinki.gpkg", layer: "pois") }
    let near = Rect(minX: 24.93, minY: 60.165, maxX: 24.95, maxY: 60.175)
    for s in sources { _ = try loader.ogr(s, near: near).get() }
    #expect(loader.ogrSourcesKeptNow == Array(sources.suffix(SourceLoader.ogrSourcesKept)))
    // Using an old-but-kept source makes it the most recent.
    let old = sources[n - SourceLoader.ogrSourcesKept]
    _ = try loader.ogr(old, near: near).get()
    #expect(loader.ogrSourcesKeptNow.last == old)
    #expect(loader.ogrSourcesKeptNow.count == SourceLoader.ogrSourcesKept)
  }

  /// A layer's count is the whole layer's, whatever filter the handle's
  /// last read left set (GDAL counts with the layer's current filter).
  @Test func theLayerCountIgnoresTheLastReadsFilter() throws {
    let source = OGRSource(name: "t", resolved: Self.data + "helsinki_pois.fgb", layer: nil)
    for x in [24.93, 24.95, 24.91] {
      let (_, info) = try SourceLoader().ogr(source, near: Rect(minX: x, minY: 60.165, maxX: x + 0.01, maxY: 60.172)).get()
      #expect(info.featuresInLayer == 1607)
      #expect(info.featuresRead < 1607)
    }
  }
}

extension FeatureRead {
  /// The features and what the read found, to destructure.
  fileprivate var pair: (FeatureCollection, Info) { (collection, info) }
}
