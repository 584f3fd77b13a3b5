import Testing
import _MapSnapTestSupport
import _MapSnapStyle
import Dispatch
import Synchronization

@testable import MapSnap

/// What a style's frames keep between them (`StyleTileCache`,
/// `TileFeatureCache`) and what a frame leaves out (features outside it):
/// the same pictures and records as frames that keep nothing.
@Suite struct StyleTileCacheTests {
  static let styles = Repository.root + "/Tests/Fixtures/styles"

  /// A real OpenMapTiles-like tile (Tests/Fixtures/vectortile).
  private func tile() throws -> VectorTile {
    try VectorTile(bytes: FileIO.read(Repository.root + "/Tests/Fixtures/vectortile/14-4357-6245.mvt", maximumBytes: 1 << 24))
  }

  @Test func keptTilesAreSharedAndBounded() throws {
    let a = try tile()
    let cost = a.bytes.count * StyleTileCache.costFactor
    let cache = StyleTileCache(limitBytes: cost * 2)
    let ka = StyleTileCache.Key(set: "s", z: 1, x: 0, y: 0)
    let kb = StyleTileCache.Key(set: "s", z: 1, x: 1, y: 0)
    let kc = StyleTileCache.Key(set: "s", z: 1, x: 1, y: 1)
    let first = cache.keep(ka, a)
    #expect(cache.tile(ka)?.features === first.features, "the kept tile's features are shared by the frames after")
    _ = cache.keep(kb, try tile())
    _ = cache.tile(ka)
    _ = cache.keep(kc, try tile())
    #expect(cache.count == 2)
    #expect(cache.tile(kb) == nil, "the tile used longest ago is let go past the limit")
    #expect(cache.tile(ka) != nil && cache.tile(kc) != nil)
    #expect(StyleTileCache(limitBytes: 0).keep(ka, a).tile.bytes == a.bytes, "a tile over the limit is drawn but not kept")
  }

  @Test func aFeatureCacheAnswersAsTheFeaturesDo() throws {
    let layer = try #require(try tile().layer(named: "road"))
    let features = TileFeatureCache()
    let third = TileFeatureCache.Filter(key: "third") { f in
      guard case .number(let n)? = f.id else { return false }
      return Int(n) % 3 == 0
    }
    let window = TileBox(minX: 0, minY: 0, maxX: 2047, maxY: 2047)
    var expected: [Int] = [], inWindow = 0
    var g = TileGeometry()
    for i in 0..<layer.featureCount {
      let f = try layer.feature(at: i)
      guard f.kind == .lineString else { continue }
      try f.decodeGeometry(into: &g)
      guard window.intersects(g.bounds) else { continue }
      inWindow += 1
      if case .number(let n)? = try f.evaluationFeature().id, Int(n) % 3 == 0 { expected.append(i) }
    }
    #expect(!expected.isEmpty && inWindow >= expected.count)
    let none = features.select(layer, window: window, accepts: { $0 == .lineString }, filter: TileFeatureCache.Filter(key: "none") { _ in false })
    #expect(none.kept.isEmpty && none.inWindow == inWindow, "features the filter drops are still counted in the window")
    for _ in 0..<2 {
      let s = features.select(layer, window: window, accepts: { $0 == .lineString }, filter: third)
      #expect(s.inWindow == inWindow)
      #expect(s.kept.map(\.index) == expected)
      #expect(s.error == nil)
    }
    #expect(features.select(layer, window: nil, accepts: { _ in true }, filter: nil).kept.count == layer.featureCount)
  }

  private func scene(zoom: Double) throws -> Scene {
    let json = ##"{"version": 8, "center": [24.94, 60.17], "zoom": \##(zoom), "sources": {"h": {"type": "vector", "url": "mbtiles://helsinki-z14.mbtiles"}}, "layers": [{"id": "w", "type": "fill", "source": "h", "source-layer": "water", "paint": {"fill-color": "#00f"}}, {"id": "r", "type": "line", "source": "h", "source-layer": "transportation", "filter": ["==", ["get", "class"], "primary"], "paint": {"line-width": 3}}, {"id": "r2", "type": "line", "source": "h", "source-layer": "transportation", "filter": ["==", ["get", "class"], "primary"], "paint": {"line-width": 3, "line-color": "#f00"}}]}"##
    return try SceneLoader.decode(Array(json.utf8), file: "s.json", baseDirectory: Self.styles)
  }

  private func frame(_ scene: Scene) throws -> StyleFrameState {
    try #require(try FramePlan.make(scene, overrides: ViewOverrides(size: (256, 256))).state.layers.first?.style)
  }

  @Test func aKeptTileDrawsAsAFreshOne() throws {
    let kept = try scene(zoom: 16)
    guard case .style(let source) = kept.layers.first?.content else {
      Issue.record("a style is a scene of one style layer")
      return
    }
    let first = try frame(kept)
    #expect(source.kept.tiles.count == first.sources[0].tilesRead && first.sources[0].tilesRead > 0)
    let again = try frame(kept)
    let fresh = try frame(try scene(zoom: 16))
    for s in [again, fresh] {
      #expect(s.layers.map(\.featuresDrawn) == first.layers.map(\.featuresDrawn))
      #expect(s.layers.map(\.status) == first.layers.map(\.status))
      #expect(s.commands.count == first.commands.count)
    }
    #expect(first.layers[1].featuresDrawn == first.layers[2].featuresDrawn && first.layers[1].featuresDrawn > 0)
  }

  @Test func featuresOutsideTheFrameAreReadButNotDrawn() throws {
    // At zoom 17 the frame is a 256-pixel window on zoom-14 tiles 4,096 pixels across.
    let near = try frame(try scene(zoom: 17))
    #expect(near.layers[1].featuresRead > 0)
    #expect(near.layers[1].featuresDrawn * 4 < near.layers[1].featuresRead)
    let wide = try frame(try scene(zoom: 14))
    #expect(wide.layers[1].featuresDrawn > near.layers[1].featuresDrawn)
  }

  @Test func framesOnSeveralThreadsShareTheKeptTiles() throws {
    let kept = try scene(zoom: 16)
    let alone = try frame(try scene(zoom: 16))
    let results = Mutex<[[Int]]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      guard let s = try? frame(kept) else { return }
      results.withLock { $0.append(s.layers.map(\.featuresDrawn)) }
    }
    let drawn = results.withLock { $0 }
    #expect(drawn.count == 4)
    #expect(drawn.allSatisfy { $0 == alone.layers.map(\.featuresDrawn) })
  }
}
