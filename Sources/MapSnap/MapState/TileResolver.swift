internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

/// Resolves a `tiles` layer for one frame (scene format 3.4): which level,
/// which tiles, and what became of each; then stitches them into one mosaic
/// that the display list resamples into the frame.
///
/// Rules:
/// - **Level**: of the tile matrix set's levels within `minZoom…maxZoom`
///   (the layer's, else the source's metadata, else the set's levels within
///   0…22), the one whose cell size (map units per tile pixel) is nearest, in
///   log2, to the frame's resolution per device pixel (`unitsPerPixel /
///   pixelRatio`), ties to the finer level. OGC's scale denominators assume
///   0.28 mm pixels where the map's scale assumes its `dpi`: cell sizes
///   compare the same ground whatever either assumes. Past the finest level
///   the tiles are enlarged (overzoom).
/// - **Tiles**: every tile of that level whose square overlaps the frame
///   with positive area, within the tile matrix.
/// - **Absent tiles** are filled from the nearest level above that has the
///   covering tile (its quarter, eighth, … enlarged bilinearly) when that
///   level nests in the chosen one (`TileMatrixSet.nests`); with none they
///   are `missing`. A tile that cannot be decoded (not a PNG or JPEG of
///   the tile size) is skipped: `undecodable`. Either makes the layer `warning`.
/// - **Reuse**: tiles are decoded once per process (`TileCache`), and the
///   stitched mosaic of a tile range is kept for the next frames over the
///   same range (the last `TileCache.keptMosaics` ranges).
/// - **Limits** (where the format is silent, chosen as ArcGIS and MapLibre
///   users expect a tiled layer to stop rather than fetch the world): the
///   frame may be at most `maximumLevelsBelow` levels coarser than `minZoom`
///   (so tiles are reduced at most 4×), and the mosaic at most
///   `maximumMosaicPixels` or twice the frame's pixels, whichever is larger
///   (and never over `largestMosaicPixels`); beyond either the layer is not
///   drawn (`warning`).
struct TileResolver {
  let viewport: Viewport
  let layer: TileLayer
  /// The layer's own `attribution`, before the source's.
  let attribution: String?
  let cache: TileCache
  /// The map's spatial reference.
  let mapSpatialReference: MapProjection

  static let maximumLevelsBelow = 2.0
  static let maximumMosaicPixels = 1 << 26
  /// Whatever the frame, a mosaic is never larger than this (2 GiB of RGBA).
  static let largestMosaicPixels = 1 << 29
  /// Zoom levels when neither the layer nor the source says.
  static let defaultZoomRange = 0...22
  static let defaultTileSize = 256

  /// The layer's tiles state, what it read (the mosaic, its digest and
  /// timings) and its problems. The source is opened (so a bad source is an
  /// `error` at any scale); tiles are read only when `draws`.
  func resolve(draws: Bool) -> (TileLayerState?, TileInputs, [LayerProblem]) {
    let source: TileSource
    switch cache.source(layer.source) {
    case .failure(let error):
      return (nil, TileInputs(), [.tileSource(error)])
    case .success(let s): source = s
    }
    let tms: TileMatrixSet
    switch cache.tileMatrixSet(of: layer) {
    case .failure(let error): return (nil, TileInputs(), [.tileSource(error)])
    case .success(let s): tms = s
    }
    let attribution = self.attribution ?? source.attribution
    let tilesReference = (try? MapProjection.named(tms.crs).get())?.identifier ?? tms.crs
    guard tilesReference == mapSpatialReference.identifier else {
      return (nil, TileInputs(), [.spatialReference(tiles: tilesReference, map: mapSpatialReference.identifier)])
    }
    let minZoom = layer.minZoom ?? source.minZoom ?? max(Self.defaultZoomRange.lowerBound, tms.levels.lowerBound)
    let maxZoom = max(minZoom, layer.maxZoom ?? source.maxZoom ?? min(Self.defaultZoomRange.upperBound, tms.levels.upperBound))
    // Map units per device pixel, and the level whose tile pixels match it.
    let frameResolution = viewport.unitsPerPixel / viewport.pixelRatio
    let candidates = tms.matrices.filter { (minZoom...maxZoom).contains($0.level) }
    guard let coarsest = candidates.first else {
      let reason = "the tile matrix set \(tms.id) has no level from \(minZoom) to \(maxZoom)"
      return (nil, TileInputs(), [.tilesOutOfRange(reason: reason)])
    }
    /// Map units per pixel of a level's tiles as drawn (`tileSize` pixels
    /// across the declared tile's span).
    func cell(_ m: TileMatrixSet.TileMatrix) -> Double { m.cellSize * Double(m.tileWidth) / Double(layer.tileSize ?? m.tileWidth) }
    // Nearest in log2; a tie (within rounding) goes to the finer level.
    func distance(_ m: TileMatrixSet.TileMatrix) -> Double { abs(log2(cell(m) / frameResolution)) }
    var matrix = coarsest
    for m in candidates.dropFirst() where distance(m) <= distance(matrix) + 1e-9 && cell(m) < cell(matrix) {
      matrix = m
    }
    let z = matrix.level
    let size = layer.tileSize ?? matrix.tileWidth
    var state = TileLayerState(zoom: z, tileMatrixSet: tms, attribution: attribution)
    guard draws else { return (state, TileInputs(), []) }
    if log2(cell(coarsest) / frameResolution) < -Self.maximumLevelsBelow {
      let reason = "1:\(number(viewport.scale)) is more than \(Int(Self.maximumLevelsBelow)) levels coarser than the tile set's coarsest level \(coarsest.level)"
      return (state, TileInputs(), [.tilesOutOfRange(reason: reason)])
    }
    // The tiles of level z that overlap the frame.
    let extent = viewport.extent
    let spanX = matrix.cellSize * Double(matrix.tileWidth)
    let spanY = matrix.cellSize * Double(matrix.tileHeight)
    let o = matrix.origin
    let (columns, rows) = (matrix.matrixWidth, matrix.matrixHeight)
    let x0 = max(0, Int(saturating: ((extent.minX - o.x) / spanX).rounded(.down)))
    let x1 = min(columns - 1, Int(saturating: ((extent.maxX - o.x) / spanX).rounded(.up)) - 1)
    let y0 = max(0, Int(saturating: ((o.y - extent.maxY) / spanY).rounded(.down)))
    let y1 = min(rows - 1, Int(saturating: ((o.y - extent.minY) / spanY).rounded(.up)) - 1)
    guard x0 <= x1, y0 <= y1 else { return (state, TileInputs(), []) }
    let across = x1 - x0 + 1
    let down = y1 - y0 + 1
    let budget = min(max(Self.maximumMosaicPixels, 2 * viewport.deviceWidth * viewport.deviceHeight), Self.largestMosaicPixels)
    // In floating point: a hostile tile matrix set's counts would overflow Int.
    guard Double(across) * Double(down) * Double(size * size) <= Double(budget) else {
      let reason = "the frame needs \(number(Double(across) * Double(down))) tiles of level \(z), more than \(budget / (size * size))"
      return (state, TileInputs(), [.tilesOutOfRange(reason: reason)])
    }
    var clock = monotonicSeconds()
    var inputs = TileInputs()
    let top = matrix.bounds(x: x0, y: y0)
    let bottom = matrix.bounds(x: x1, y: y1)
    let mosaicBounds = Rect(minX: top.minX, minY: bottom.minY, maxX: bottom.maxX, maxY: top.maxY)
    let key = TileCache.MosaicKey(
      source: layer.source, tileMatrixSet: tms, z: z, x0: x0, y0: y0, x1: x1, y1: y1, size: size, minZoom: minZoom)
    if let kept = cache.mosaic(key) {
      state.drawn = kept.drawn
      state.fromParent = kept.fromParent
      state.missing = kept.missing
      state.undecodable = kept.undecodable
      inputs.mosaic = kept.image
      inputs.inputDigest = kept.inputDigest
      inputs.mosaicBounds = mosaicBounds
      inputs.readSeconds = lap(&clock)
      return (state, inputs, Self.problems(state))
    }
    var coordinates: [(z: Int, x: Int, y: Int)] = []
    for y in y0...y1 { for x in x0...x1 { coordinates.append((z, x, y)) } }
    let matrixRows = { (level: Int) in tms.matrix(level)?.matrixHeight ?? 1 }
    let read = cache.tiles(coordinates, of: layer.source, size: size, matrixRows: matrixRows)
    let tiles = read.map(\.tile)
    // What the frame read, for `InputDigest`: where the level's tiles lie
    // (unless the set is one of the two built in, fixed with the version),
    // then tile by tile what each held (parents below).
    var digest = SHA256()
    if tms != .webMercatorQuad && tms != .worldCRS84Quad {
      let m = matrix
      digest.update("\(tms.crs) \(m.level) \(m.cellSize) \(m.origin.x) \(m.origin.y) \(m.tileWidth) \(size)\n")
    }
    for (i, c) in coordinates.enumerated() { digest.update("\(c.z)/\(c.x)/\(c.y) \(read[i].digest)\n") }
    // Absent tiles: their ancestors, level by level, only as far as needed.
    var parents: [Int: (level: Int, pixels: [UInt32])] = [:]
    var pending = tiles.indices.filter { if case .absent = tiles[$0] { return true } else { return false } }
    var level = z - 1
    while !pending.isEmpty && level >= minZoom && tms.nests(level, in: z) {
      let d = z - level
      // Each distinct ancestor is read once, however many tiles it covers.
      var distinct: [(z: Int, x: Int, y: Int)] = []
      var slot: [Int: Int] = [:]
      var ancestorOf: [Int] = []
      for i in pending {
        let ax = coordinates[i].x >> d
        let ay = coordinates[i].y >> d
        let key = ay * (columns >> d + 1) + ax
        if slot[key] == nil {
          slot[key] = distinct.count
          distinct.append((level, ax, ay))
        }
        ancestorOf.append(slot[key]!)
      }
      let found = cache.tiles(distinct, of: layer.source, size: size, matrixRows: matrixRows)
      var still: [Int] = []
      for (k, c) in distinct.enumerated() { digest.update("\(c.z)/\(c.x)/\(c.y) \(found[k].digest)\n") }
      for (k, i) in pending.enumerated() {
        if case .image(let p) = found[ancestorOf[k]].tile { parents[i] = (level, p) } else { still.append(i) }
      }
      pending = still
      level -= 1
    }
    inputs.inputDigest = digest.hexDigest()
    inputs.readSeconds = lap(&clock)
    // Count, then stitch the mosaic straight into the image's pixels.
    for (i, tile) in tiles.enumerated() {
      switch tile {
      case .image: state.drawn += 1
      case .undecodable: state.undecodable += 1
      case .absent: if parents[i] != nil { state.fromParent += 1 } else { state.missing += 1 }
      }
    }
    let width = across * size
    if state.drawn + state.fromParent > 0 {
      // Every tile present (or filled from a parent) writes every pixel.
      let complete = state.missing + state.undecodable == 0
      inputs.mosaic = RasterImage(width: width, height: down * size, writesEveryPixel: complete) { mosaic in
        for (i, tile) in tiles.enumerated() {
          let at = (x: (coordinates[i].x - x0) * size, y: (coordinates[i].y - y0) * size)
          switch tile {
          case .image(let pixels):
            pixels.withUnsafeBufferPointer { src in
              for row in 0..<size {
                (mosaic.baseAddress! + (at.y + row) * width + at.x).update(from: src.baseAddress! + row * size, count: size)
              }
            }
          case .absent:
            guard let parent = parents[i] else { continue }
            let d = z - parent.level
            let part = Double(size) / Double(1 << d)
            let from = Point(Double(coordinates[i].x & ((1 << d) - 1)) * part, Double(coordinates[i].y & ((1 << d) - 1)) * part)
            Self.enlarge(parent.pixels, size: size, from: from, span: part, into: mosaic, width: width, at: at)
          case .undecodable:
            continue
          }
        }
      }
      inputs.mosaicBounds = mosaicBounds
    }
    inputs.stitchSeconds = lap(&clock)
    cache.keep(
      TileCache.Mosaic(
        image: inputs.mosaic, inputDigest: inputs.inputDigest, drawn: state.drawn, fromParent: state.fromParent, missing: state.missing, undecodable: state.undecodable),
      for: key)
    return (state, inputs, Self.problems(state))
  }

  /// `incompleteTiles` when any tile was absent or undecodable.
  private static func problems(_ state: TileLayerState) -> [LayerProblem] {
    state.fromParent + state.missing + state.undecodable > 0
      ? [.incompleteTiles(fromParent: state.fromParent, missing: state.missing, undecodable: state.undecodable)] : []
  }

  /// Fills a `size`-square region of `mosaic` (at `at`) with the square of
  /// the parent tile `pixels` starting at texel `from` and `span` texels on a
  /// side, enlarged by bilinear interpolation of premultiplied values (texel
  /// centres at i + 0.5, clamped at the parent's edges; weights in 1/256, as
  /// the display list's image sampling rounds them).
  static func enlarge(
    _ pixels: [UInt32], size: Int, from: Point, span: Double, into mosaic: UnsafeMutableBufferPointer<UInt32>, width: Int,
    at: (x: Int, y: Int)
  ) {
    let scale = span / Double(size)
    // Per destination column (and row): the two source texels and the weight of the second.
    func axis(_ origin: Double) -> [(lo: Int, hi: Int, w: UInt32)] {
      (0..<size).map { k in
        let u = min(max(origin + (Double(k) + 0.5) * scale - 0.5, 0), Double(size - 1))
        let lo = Int(u.rounded(.down))
        return (lo, min(lo + 1, size - 1), UInt32(((u - Double(lo)) * 256).rounded()))
      }
    }
    let columns = axis(from.x)
    let rows = axis(from.y)
    @inline(__always) func mix(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
      // Each channel: (a × (256 − w) + b × w + 128) / 256, two channels at a time.
      let even = ((a & 0x00FF_00FF) &* (256 &- w) &+ (b & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8 & 0x00FF_00FF
      let odd = (((a >> 8) & 0x00FF_00FF) &* (256 &- w) &+ ((b >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080) & 0xFF00_FF00
      return even | odd
    }
    pixels.withUnsafeBufferPointer { src in
      for (row, r) in rows.enumerated() {
        let top = src.baseAddress! + r.lo * size
        let bottom = src.baseAddress! + r.hi * size
        let dst = mosaic.baseAddress! + (at.y + row) * width + at.x
        for (col, c) in columns.enumerated() {
          let upper = mix(top[c.lo], top[c.hi], c.w)
          let lower = mix(bottom[c.lo], bottom[c.hi], c.w)
          dst[col] = mix(upper, lower, r.w)
        }
      }
    }
  }
}
