import _MapSnapRaster
import Foundation
import Synchronization
@testable import MapSnap
import Testing
import _MapSnapTestSupport

// Marker icons (scene format section 3.1): files loaded once through IconCache, and
// placed by iconRect (size = height, aspect kept, centred on the point plus offset,
// everything times the pixel ratio).

private func temporaryFolder() -> String {
  let path = FileManager.default.temporaryDirectory.path + "/mapsnap-icons-\(UUID().uuidString)"
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// Writes a `width` × `height` PNG of one premultiplied pixel value.
private func writePNG(_ path: String, width: Int, height: Int, pixel: UInt32) throws {
  let pixels = [UInt32](repeating: pixel, count: width * height)
  let bytes = try pixels.withUnsafeBufferPointer { try PNGEncoder.encode(premultipliedRGBA: $0, width: width, height: height) }
  try Data(bytes).write(to: URL(fileURLWithPath: path))
}

private func channels(_ p: UInt32) -> [Int] {
  [Int(p & 255), Int((p >> 8) & 255), Int((p >> 16) & 255), Int(p >> 24)]
}

@Suite struct IconTests {
  @Test func cacheLoadsEachFileOnce() throws {
    let folder = temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/dot.png"
    // Straight (255, 0, 0) at alpha 128, premultiplied (128, 0, 0, 128).
    try writePNG(path, width: 3, height: 2, pixel: 0x8000_0080)
    let cache = IconCache()
    let first = try cache.image(atPath: path).get()
    #expect(first.width == 3 && first.height == 2)
    #expect(channels(first[0, 0]) == [128, 0, 0, 128])
    try FileManager.default.removeItem(atPath: path)  // a second read would now fail
    let second = try cache.image(atPath: path).get()
    #expect(second === first)
    #expect(cache.loadCount == 1)
  }

  /// An icon whose header claims more than 4096 × 4096 pixels is refused
  /// from the header, before any pixel memory; one wider than 2^20 too,
  /// whatever its height (libpng's row buffers grow with the width).
  @Test func hugeIconsAreRefusedFromTheirHeader() throws {
    let folder = temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func declared(_ w: UInt32, _ h: UInt32) -> [UInt8] {
      PNG.signature + PNG.chunk("IHDR", PNG.bigEndian(w) + PNG.bigEndian(h) + [8, 6, 0, 0, 0])
        + PNG.chunk("IDAT", [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF]) + PNG.chunk("IEND", [])
    }
    try Data(declared(4097, 4096)).write(to: URL(fileURLWithPath: folder + "/big.png"))
    try Data(declared(1 << 21, 1)).write(to: URL(fileURLWithPath: folder + "/wide.png"))
    let cache = IconCache()
    #expect(throws: PNGError.imageTooLarge(width: 4097, height: 4096, limit: 1 << 24)) { try cache.image(atPath: folder + "/big.png").get() }
    #expect(throws: PNGError.imageTooLarge(width: 1 << 21, height: 1, limit: 1 << 24)) { try cache.image(atPath: folder + "/wide.png").get() }
    #expect(throws: PNGError.imageTooLarge(width: 1 << 21, height: 1, limit: 1 << 28)) { try PNGDecoder.decode(declared(1 << 21, 1)) }
  }

  /// The cache drops the oldest icons once it holds more pixels than its limit.
  @Test func cacheKeepsAtMostItsPixels() throws {
    let folder = temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cache = IconCache(maximumIcons: 100, maximumPixelsKept: 1 << 24)
    for name in ["a", "b"] { try writePNG(folder + "/\(name).png", width: 4096, height: 2048, pixel: 0xFF00_00FF) }
    try writePNG(folder + "/c.png", width: 4096, height: 1, pixel: 0xFF00_00FF)
    for name in ["a", "b", "c"] { _ = try cache.image(atPath: folder + "/\(name).png").get() }
    #expect(cache.loadCount == 3)
    _ = try cache.image(atPath: folder + "/c.png").get()  // kept
    _ = try cache.image(atPath: folder + "/b.png").get()  // kept
    #expect(cache.loadCount == 3)
    _ = try cache.image(atPath: folder + "/a.png").get()  // dropped for c's pixels: read again
    #expect(cache.loadCount == 4)
  }

  @Test func cacheKeepsAtMostItsLimit() throws {
    let folder = temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cache = IconCache(maximumIcons: 2)
    for name in ["a", "b", "c"] { try writePNG(folder + "/\(name).png", width: 1, height: 1, pixel: 0xFF00_00FF) }
    for name in ["a", "b", "c"] { _ = try cache.image(atPath: folder + "/\(name).png").get() }
    #expect(cache.loadCount == 3)
    _ = try cache.image(atPath: folder + "/c.png").get()  // still kept
    #expect(cache.loadCount == 3)
    _ = try cache.image(atPath: folder + "/a.png").get()  // the oldest was dropped: read again
    #expect(cache.loadCount == 4)
  }

  @Test func cacheIsSafeFromManyThreads() throws {
    let cache = IconCache()
    let path = Repository.root + "/Golden/icons/valve.png"
    let ids = Mutex<Set<ObjectIdentifier>>([])
    DispatchQueue.concurrentPerform(iterations: 16) { _ in
      if case .success(let image) = cache.image(atPath: path) {
        ids.withLock { _ = $0.insert(ObjectIdentifier(image)) }
      }
    }
    #expect(ids.withLock { $0.count } == 1)
    #expect(cache.loadCount == 1)
  }

  @Test func missingFileIsFileNotFound() {
    let cache = IconCache()
    let path = temporaryFolder() + "/no-such-icon.png"
    #expect(throws: PNGError.fileNotFound(path: path)) { try cache.image(atPath: path).get() }
    // Reported again from the cache, without another read.
    #expect(throws: PNGError.fileNotFound(path: path)) { try cache.image(atPath: path).get() }
    #expect(cache.loadCount == 1)
  }

  @Test func committedIconsLoad() throws {
    let cache = IconCache()
    let valve = try cache.image(atPath: Repository.root + "/Golden/icons/valve.png").get()
    #expect(valve.width == 32 && valve.height == 32)
    #expect(valve[0, 0] == 0)  // transparent background
    let centre = channels(valve[8, 18])  // inside the left half of the bow-tie
    #expect(centre[3] == 255 && centre[0] > 150 && centre[1] < 60)  // opaque red
    let alphas = Set(valve.pixels.map { $0 >> 24 })
    #expect(alphas.contains { $0 > 0 && $0 < 255 })  // anti-aliased edges
    let pin = try cache.image(atPath: Repository.root + "/Golden/icons/pin.png").get()
    #expect(pin.width == 24 && pin.height == 36)
    let shadow = channels(pin[18, 34])
    #expect(shadow[3] > 0 && shadow[3] < 160)  // semi-transparent shadow
  }

  @Test func iconRectUsesSizeAsHeightKeepsAspectAndAppliesOffsetAndRatio() throws {
    let pin = RasterImage(straightRGBA: [UInt8](repeating: 255, count: 24 * 36 * 4), width: 24, height: 36)
    // size 18 logical px tall at ratio 2 → 36 px tall, 24 px wide; offset (2, -3) → (4, -6) px.
    let r = MarkerBox.iconRect(for: IconSize(pin), at: Point(100, 50), size: 18, offset: (2, -3), pixelRatio: 2)
    #expect(r == Rect(minX: 92, minY: 26, maxX: 116, maxY: 62))
    let wide = RasterImage(straightRGBA: [UInt8](repeating: 255, count: 40 * 10 * 4), width: 40, height: 10)
    let w = MarkerBox.iconRect(for: IconSize(wide), at: Point(10, 10), size: 5, offset: (0, 0), pixelRatio: 1)
    #expect(w == Rect(minX: 0, minY: 7.5, maxX: 20, maxY: 12.5))
  }

  @Test func valveDrawnAtSixteenPixelsThroughTheDisplayList() throws {
    let valve = try IconCache().image(atPath: Repository.root + "/Golden/icons/valve.png").get()
    var list = DisplayList(width: 40, height: 40, background: .white)
    let rect = MarkerBox.iconRect(for: IconSize(valve), at: Point(20, 20), size: 8, offset: (0, 0), pixelRatio: 2)
    #expect(rect == Rect(minX: 12, minY: 12, maxX: 28, maxY: 28))
    list.drawImage(valve, in: rect, opacity: 1)
    let canvas = Canvas(width: 40, height: 40)
    TileRenderer.render(list, into: canvas, options: .init(threads: 2, tileRows: 5))
    // Centre of the bow-tie (texels 15...16, 18...19 of 32): red.
    let c = channels(canvas[20, 21])
    #expect(c[3] == 255 && c[0] > 150 && c[1] < 80)
    #expect(canvas[5, 5] == 0xFFFF_FFFF && canvas[11, 20] == 0xFFFF_FFFF && canvas[28, 20] == 0xFFFF_FFFF)
  }
}
