import MapSnap

/// Valid 64 × 64 tiles for the tile-set targets, made once per process
/// with mapsnap's own encoder: the fuzzed metadata decides what is drawn
/// from them.
enum TileFixture {
  /// A PNG tile: four flat quadrants, one corner half transparent (flat
  /// areas keep the file small: every tile read is hashed).
  static let png: [UInt8] = {
    let side = TileFixture.size
    var pixels = [UInt32](repeating: 0, count: side * side)
    for y in 0..<side {
      for x in 0..<side {
        let a: UInt32 = (x < 8 && y < 8) ? 128 : 255
        let r: UInt32 = x < 32 ? 200 : 40
        let g: UInt32 = y < 32 ? 180 : 60
        let b: UInt32 = 90
        pixels[y * side + x] = (r * a / 255) | (g * a / 255) << 8 | (b * a / 255) << 16 | a << 24
      }
    }
    do {
      return try pixels.withUnsafeBufferPointer { p throws(PNGError) in
        try PNGEncoder.encode(premultipliedRGBA: p, width: side, height: side)
      }
    } catch {
      fatalError("mapsnap-fuzz: cannot encode the fixture tile: \(error)")
    }
  }()

  /// The tiles' size: small, so that stitching them (instrumented, under
  /// ASan) stays fast; the scenes say `"tileSize": 64`.
  static let size = 64

  /// The map's scale in the targets' scenes: level 1 of 64-px tiles (the
  /// 256-px scheme's zoom -1), so that the frame (64 × 64) meets four tiles.
  static let scale = 1_183_315_055.18311

  /// The tiles every fuzzed tile set holds (`z`, `x`, `y`, rows from the
  /// north): the whole of zoom 0 and one tile of zoom 1, so that frames at
  /// level 1 draw, fill from the parent and miss tiles.
  static let coordinates: [(z: Int, x: Int, y: Int)] = [(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 1)]
}
