import Dispatch
import Synchronization

internal import _MapSnapRaster

/// A decoded tile: premultiplied RGBA pixels (the `Canvas` layout), or why
/// there is none.
enum DecodedTile: Sendable {
  case image([UInt32])
  /// The source has no such tile.
  case absent
  /// The tile's bytes are neither a PNG nor a JPEG of the tile size.
  case undecodable
}

/// Tile sources opened once and tiles decoded once per process: a batch of
/// frames over one basemap opens its MBTiles connection and decodes each tile
/// a single time. Thread-safe; tiles of one request are decoded in parallel.
///
/// Bounded: decoded tiles take at most `limitBytes` (4 bytes per pixel: a
/// 256 × 256 tile takes 256 KiB, so the default 256 MiB keeps 1,024 of
/// them); past that the oldest are dropped, and read again if asked for
/// again. Stitched mosaics add at most `keptMosaics` × 64 MiB.
public final class TileCache: Sendable {
  private struct Key: Hashable {
    var source: TileSourceSpec
    var z: Int
    var x: Int
    var y: Int
  }

  private struct State {
    var sources: [TileSourceSpec: Result<TileSource, TileError>] = [:]
    var sets: [String: Result<TileMatrixSet, TileError>] = [:]
    var tiles: [Key: CachedTile] = [:]
    var order: [Key] = []
    /// Bytes of the kept tiles' pixels.
    var keptBytes = 0
    var mosaics: [MosaicKey: Mosaic] = [:]
    var mosaicOrder: [MosaicKey] = []
  }

  /// Which tiles a stitched mosaic holds: the source, the level, the tile
  /// range, the tile size and the coarsest level parents were taken from.
  struct MosaicKey: Hashable {
    var source: TileSourceSpec
    var tileMatrixSet: TileMatrixSet
    var z: Int
    var x0: Int
    var y0: Int
    var x1: Int
    var y1: Int
    var size: Int
    var minZoom: Int
  }

  /// A decoded tile and the digest of the bytes it was decoded from
  /// (`absent` or `unreadable` when there were none): what `InputDigest`
  /// records of the tiles a frame read.
  struct CachedTile: Sendable {
    var tile: DecodedTile
    var digest: String

    /// What keeping it costs: its pixels, plus a small entry.
    var bytes: Int {
      if case .image(let p) = tile { return p.count * 4 + 128 }
      return 128
    }
  }

  /// A stitched mosaic and what became of its tiles.
  struct Mosaic: @unchecked Sendable {
    var image: RasterImage?
    /// The digest of the tiles it was stitched from (`TileInputs.inputDigest`).
    var inputDigest: String
    var drawn: Int
    var fromParent: Int
    var missing: Int
    var undecodable: Int
  }

  /// Mosaics kept for frames over the same tile range (a batch rendering
  /// several maps of one extent stitches once): the last 4, each of at most
  /// 2^24 pixels (64 MiB), so the cache stays under 256 MiB of mosaics.
  static let keptMosaics = 4
  static let largestKeptMosaicPixels = 1 << 24

  func mosaic(_ key: MosaicKey) -> Mosaic? { state.withLock { $0.mosaics[key] } }

  func keep(_ mosaic: Mosaic, for key: MosaicKey) {
    if let image = mosaic.image, image.width * image.height > Self.largestKeptMosaicPixels { return }
    state.withLock { s in
      if s.mosaics[key] == nil { s.mosaicOrder.append(key) }
      s.mosaics[key] = mosaic
      if s.mosaicOrder.count > Self.keptMosaics {
        s.mosaics[s.mosaicOrder.removeFirst()] = nil
      }
    }
  }

  private let state = Mutex<State>(State())
  private let decodes = Atomic<Int>(0)
  /// Bytes of decoded tiles kept at most.
  public let limitBytes: Int

  /// The default limit: 256 MiB, 1,024 tiles of 256 × 256 pixels, more than
  /// a batch of frames over one city needs at once.
  public static let defaultLimitBytes = 256 << 20

  /// With `--root`: tile sets (MBTiles files, XYZ folders, `tiles.json`,
  /// tiles) must resolve inside it.
  public let confinement: Confinement?

  public init(limitBytes: Int = TileCache.defaultLimitBytes, confinement: Confinement? = nil) {
    self.limitBytes = max(0, limitBytes)
    self.confinement = confinement
  }

  /// The opened source of `spec`, opened on first use (a failure is kept too).
  func source(_ spec: TileSourceSpec) -> Result<TileSource, TileError> {
    state.withLock { s in
      if let hit = s.sources[spec] { return hit }
      let r: Result<TileSource, TileError>
      do throws(TileError) {
        r = .success(try TileSource(spec, confinement: confinement))
      } catch {
        r = .failure(error)
      }
      s.sources[spec] = r
      return r
    }
  }

  /// The tile matrix set a layer uses: its own `tileMatrixSet` (a file read
  /// on first use), else its source's, else WebMercatorQuad; a failure to
  /// open either is kept and returned each time.
  func tileMatrixSet(of layer: TileLayer) -> Result<TileMatrixSet, TileError> {
    switch layer.tileMatrixSet {
    case .named(let set)?: return .success(set)
    case .file(let shown, let resolved)?:
      return state.withLock { s in
        if let hit = s.sets[resolved] { return hit }
        let r: Result<TileMatrixSet, TileError>
        do throws(TileError) {
          r = .success(try TileMatrixSetDecoder.read(path: resolved, shown: shown, confinement: confinement))
        } catch {
          r = .failure(error)
        }
        s.sets[resolved] = r
        return r
      }
    case nil:
      return source(layer.source).map { $0.tileMatrixSet ?? .webMercatorQuad }
    }
  }

  /// Tiles (`z`, `x`, `y`; rows from the north) of `spec`, each `size` pixels
  /// square, in the order asked: read one by one (the MBTiles connection is
  /// used by one caller at a time), decoded in parallel, then kept.
  func tiles(_ coordinates: [(z: Int, x: Int, y: Int)], of spec: TileSourceSpec, size: Int, matrixRows: (Int) -> Int) -> [CachedTile] {
    guard case .success(let source) = self.source(spec) else { return coordinates.map { _ in CachedTile(tile: .absent, digest: "absent") } }
    var out = [CachedTile?](repeating: nil, count: coordinates.count)
    var reads: [(index: Int, bytes: [UInt8])] = []
    state.withLock { s in
      for (i, c) in coordinates.enumerated() {
        if let hit = s.tiles[Key(source: spec, z: c.z, x: c.x, y: c.y)] {
          out[i] = hit
          continue
        }
        switch source.read(z: c.z, x: c.x, y: c.y, matrixRows: matrixRows(c.z)) {
        case .absent: out[i] = CachedTile(tile: .absent, digest: "absent")
        case .unreadable: out[i] = CachedTile(tile: .undecodable, digest: "unreadable")
        case .bytes(let b): reads.append((i, b))
        }
      }
    }
    if !reads.isEmpty {
      let reads = reads
      var decoded = [CachedTile](repeating: CachedTile(tile: .undecodable, digest: ""), count: reads.count)
      decoded.withUnsafeMutableBufferPointer { buffer in
        let results = SendableTiles(buffer: buffer)
        DispatchQueue.concurrentPerform(iterations: reads.count) { k in
          results.buffer[k] = CachedTile(tile: TileCache.decode(reads[k].bytes, size: size), digest: SHA256.hex(of: reads[k].bytes))
        }
      }
      decodes.add(reads.count, ordering: .relaxed)
      for (k, r) in reads.enumerated() { out[r.index] = decoded[k] }
    }
    let result = out.map { $0 ?? CachedTile(tile: .absent, digest: "absent") }
    state.withLock { s in
      for (i, c) in coordinates.enumerated() {
        let key = Key(source: spec, z: c.z, x: c.x, y: c.y)
        if s.tiles[key] == nil {
          s.tiles[key] = result[i]
          s.order.append(key)
          s.keptBytes += result[i].bytes
        }
      }
      var drop = 0
      while s.keptBytes > limitBytes && drop < s.order.count {
        s.keptBytes -= s.tiles.removeValue(forKey: s.order[drop])?.bytes ?? 0
        drop += 1
      }
      s.order.removeFirst(drop)
    }
    return result
  }

  /// How many tiles have been decoded (successfully or not) so far.
  var decodeCount: Int { decodes.load(ordering: .relaxed) }

  /// A PNG or a JPEG (by its signature) of `size` × `size` pixels, as
  /// premultiplied pixels; anything else is undecodable.
  static func decode(_ bytes: [UInt8], size: Int) -> DecodedTile {
    let image: DecodedImage
    // Tiles larger than the tile size are refused from their header.
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
      guard let d = try? PNGDecoder.decode(bytes, maximumPixels: size * size) else { return .undecodable }
      image = d
    } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
      guard let d = try? JPEGDecoder.decode(bytes, maximumPixels: size * size) else { return .undecodable }
      image = d
    } else {
      return .undecodable
    }
    guard image.width == size, image.height == size else { return .undecodable }
    // Premultiplied as every colour is (`Color.premultipliedPixel`).
    var pixels = [UInt32](repeating: 0, count: size * size)
    image.pixels.withUnsafeBufferPointer { src in
      for i in 0..<(size * size) {
        pixels[i] = Color(r: src[4 * i], g: src[4 * i + 1], b: src[4 * i + 2], a: src[4 * i + 3]).premultipliedPixel
      }
    }
    return .image(pixels)
  }
}

/// Decoded tiles written by index from parallel workers, each index by one.
private struct SendableTiles: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<TileCache.CachedTile>
}
