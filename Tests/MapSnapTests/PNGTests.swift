import Foundation
import MapSnap
import Testing
import _MapSnapTestSupport
import _SystemShims

// MARK: - Helpers

/// A premultiplied RGBA8 pixel as PNGEncoder expects it: bytes R,G,B,A in memory.
private func pixel(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
  (UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24).littleEndian
}

/// The R,G,B,A bytes of a pixel in memory order.
private func bytes(of pixel: UInt32) -> [UInt8] {
  let value = UInt32(littleEndian: pixel)
  return [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
}

/// The documented un-premultiply rule: c' = min(255, (c*255 + a/2) / a), a == 0 → 0,0,0,0.
private func straight(_ pixel: UInt32) -> [UInt8] {
  let p = bytes(of: pixel).map(Int.init)
  let a = p[3]
  if a == 0 { return [0, 0, 0, 0] }
  return p[0..<3].map { UInt8(min(255, ($0 * 255 + a / 2) / a)) } + [UInt8(a)]
}

/// Premultiplies straight colour with rounding, as a renderer would.
private func premultiplied(_ r: Int, _ g: Int, _ b: Int, _ a: Int) -> UInt32 {
  func p(_ c: Int) -> UInt8 { UInt8((c * a + 127) / 255) }
  return pixel(p(r), p(g), p(b), UInt8(a))
}

/// Nil if equal, else where the first differing pixel is (keeps failures short:
/// printing two multi-megabyte arrays makes Swift Testing crawl).
private func firstPixelMismatch(_ actual: [UInt8], _ expected: [UInt8]) -> String? {
  guard actual.count == expected.count else {
    return "byte count \(actual.count) != expected \(expected.count)"
  }
  guard let index = actual.indices.first(where: { actual[$0] != expected[$0] }) else { return nil }
  let pixel = index / 4
  return "pixel \(pixel): got \(Array(actual[pixel * 4..<pixel * 4 + 4]))"
    + ", expected \(Array(expected[pixel * 4..<pixel * 4 + 4]))"
}

private func encode(
  _ pixels: [UInt32], width: Int, height: Int, options: PNGEncodingOptions = .fast
) throws(PNGError) -> [UInt8] {
  let result: Result<[UInt8], PNGError> = pixels.withUnsafeBufferPointer { buffer in
    Result { () throws(PNGError) in
      try PNGEncoder.encode(premultipliedRGBA: buffer, width: width, height: height, options: options)
    }
  }
  return try result.get()
}

/// IHDR bit depth and colour type sit at bytes 24 and 25 of every PNG.
private func ihdrColorType(_ png: [UInt8]) -> UInt8 { png[25] }
private func ihdrBitDepth(_ png: [UInt8]) -> UInt8 { png[24] }

/// A little flat-colour "map" with anti-aliased-looking edges, all opaque.
private func opaqueMap(width: Int, height: Int) -> [UInt32] {
  var pixels = [UInt32](repeating: pixel(0xF2, 0xEF, 0xE9, 0xFF), count: width * height)
  for y in 0..<height {
    for x in 0..<width {
      if (x + 2 * y) % 13 < 4 { pixels[y * width + x] = pixel(0xAA, 0xD3, 0xDF, 0xFF) }
      if x == y { pixels[y * width + x] = pixel(UInt8(x * 7 & 0xFF), UInt8(y * 3 & 0xFF), 0x80, 0xFF) }
    }
  }
  return pixels
}

// MARK: Hand-built PNGs (stored deflate), for colour types the encoder never writes




/// A zlib stream holding `data` in one stored (uncompressed) deflate block.
private func zlibStored(_ data: [UInt8]) -> [UInt8] {
  precondition(data.count < 65536)
  let length = UInt16(data.count)
  var a: UInt32 = 1
  var b: UInt32 = 0
  for byte in data {
    a = (a + UInt32(byte)) % 65521
    b = (b + a) % 65521
  }
  return [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF),
    UInt8(~length >> 8)] + data + PNG.bigEndian(b << 16 | a)
}

/// `filteredRows` must already contain a filter byte (0) before each row.
private func handMadePNG(
  width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, interlace: UInt8 = 0,
  extraChunks: [[UInt8]] = [], filteredRows: [UInt8]
) -> [UInt8] {
  let ihdr = PNG.bigEndian(width) + PNG.bigEndian(height) + [bitDepth, colorType, 0, 0, interlace]
  return PNG.signature + PNG.chunk("IHDR", ihdr) + extraChunks.flatMap { $0 }
    + PNG.chunk("IDAT", zlibStored(filteredRows)) + PNG.chunk("IEND", [])
}

// MARK: - Encoding and round trips

@Suite("PNG encode/decode")
struct PNGTests {
  @Test func opaqueImageRoundTripsAsRGB() throws {
    let (width, height) = (37, 23)
    let pixels = opaqueMap(width: width, height: height)
    let png = try encode(pixels, width: width, height: height)

    #expect(Array(png.prefix(8)) == PNG.signature)
    #expect(ihdrColorType(png) == 2, "opaque images must be written as RGB")
    #expect(ihdrBitDepth(png) == 8)

    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.width == width)
    #expect(decoded.height == height)
    #expect(decoded.sourceHasAlpha == false)
    #expect(firstPixelMismatch(decoded.pixels, pixels.flatMap(bytes(of:))) == nil)
  }

  @Test func translucentImageRoundTripsAsStraightRGBA() throws {
    let (width, height) = (29, 17)
    var originals: [[Int]] = []
    var pixels: [UInt32] = []
    for y in 0..<height {
      for x in 0..<width {
        let colour = [(x * 37) % 256, (y * 91) % 256, (x * y * 13) % 256, 1 + (x * 7 + y * 19) % 255]
        originals.append(colour)
        pixels.append(premultiplied(colour[0], colour[1], colour[2], colour[3]))
      }
    }
    let png = try encode(pixels, width: width, height: height)
    #expect(ihdrColorType(png) == 6, "translucent images must be written as RGBA")
    #expect(ihdrBitDepth(png) == 8)

    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.sourceHasAlpha)
    #expect(firstPixelMismatch(decoded.pixels, pixels.flatMap(straight)) == nil, "exact un-premultiply rule")
    for (index, original) in originals.enumerated() {
      let out = decoded.pixels[index * 4..<index * 4 + 4].map(Int.init)
      #expect(out[3] == original[3])
      // Premultiplying to 8 bits loses precision at low alpha; from 128 up the
      // round trip is within ±1 of the straight colour.
      if original[3] >= 128 {
        for channel in 0..<3 {
          #expect(abs(out[channel] - original[channel]) <= 1, "pixel \(index) channel \(channel)")
        }
      }
    }
  }

  @Test func unpremultiplyIsExactForEveryColourAlphaPair() throws {
    // 256×256: x is the colour value, y the alpha; includes invalid c > a (clamped).
    var pixels: [UInt32] = []
    for alpha in 0..<256 {
      for value in 0..<256 {
        pixels.append(pixel(UInt8(value), UInt8(255 - value), UInt8(value / 2), UInt8(alpha)))
      }
    }
    let decoded = try PNGDecoder.decode(try encode(pixels, width: 256, height: 256))
    #expect(firstPixelMismatch(decoded.pixels, pixels.flatMap(straight)) == nil)
  }

  @Test func fullyTransparentPixelsBecomeZero() throws {
    var pixels = [UInt32](repeating: pixel(10, 20, 30, 255), count: 6)
    pixels[1] = pixel(0, 0, 0, 0)
    pixels[4] = pixel(50, 60, 70, 0)  // invalid premultiplied colour under alpha 0
    let png = try encode(pixels, width: 3, height: 2)
    #expect(ihdrColorType(png) == 6)
    let decoded = try PNGDecoder.decode(png)
    #expect(Array(decoded.pixels[4..<8]) == [0, 0, 0, 0])
    #expect(Array(decoded.pixels[16..<20]) == [0, 0, 0, 0])
    #expect(Array(decoded.pixels[0..<4]) == [10, 20, 30, 255])
  }

  @Test func outputStartsWithSignatureAndIHDR() throws {
    let png = try encode([pixel(1, 2, 3, 255)], width: 1, height: 1)
    #expect(Array(png.prefix(8)) == PNG.signature)
    #expect(Array(png[12..<16]) == Array("IHDR".utf8))
    #expect(Array(png.suffix(8).prefix(4)) == Array("IEND".utf8))
  }

  @Test(arguments: [
    PNGEncodingOptions(compressionLevel: 0),
    PNGEncodingOptions(compressionLevel: 1),
    .fast,
    .small,
    PNGEncodingOptions(compressionLevel: 9, filter: .adaptive),
    PNGEncodingOptions(compressionLevel: 6, filter: .adaptive),
  ])
  func everyLevelAndFilterDecodesIdentically(options: PNGEncodingOptions) throws {
    let (width, height) = (64, 48)
    let opaque = opaqueMap(width: width, height: height)
    var translucent = opaque
    translucent[5] = pixel(0, 40, 80, 128)
    for pixels in [opaque, translucent] {
      let reference = try PNGDecoder.decode(try encode(pixels, width: width, height: height))
      let decoded = try PNGDecoder.decode(
        try encode(pixels, width: width, height: height, options: options))
      #expect(decoded.width == reference.width && decoded.height == reference.height)
      #expect(decoded.sourceHasAlpha == reference.sourceHasAlpha)
      #expect(firstPixelMismatch(decoded.pixels, reference.pixels) == nil)
    }
  }

  @Test func levels2And6DifferButDecodeIdentically() throws {
    let (width, height) = (128, 96)
    let pixels = opaqueMap(width: width, height: height)
    let level2 = try encode(pixels, width: width, height: height, options: .fast)
    let level6 = try encode(pixels, width: width, height: height, options: .small)
    #expect(level2 != level6)
    let (decoded2, decoded6) = (try PNGDecoder.decode(level2), try PNGDecoder.decode(level6))
    #expect(decoded2.width == decoded6.width && decoded2.height == decoded6.height)
    #expect(firstPixelMismatch(decoded2.pixels, decoded6.pixels) == nil)
    #expect(firstPixelMismatch(decoded2.pixels, pixels.flatMap(bytes(of:))) == nil)
  }

  /// igzip (the `fast` preset) deflates an image of two segments or more:
  /// other bytes than zlib's, the same pixels, the same bytes for any
  /// thread count, at every igzip level.
  @Test(arguments: [0, 1, 2, 3])
  func igzipDeflatesImagesOfSeveralSegments(level: Int) throws {
    let (width, height) = (640, 480)  // 1,921 bytes a row: 136 rows a segment, 4 segments
    let pixels = opaqueMap(width: width, height: height)
    var igzip = PNGEncodingOptions(compressionLevel: level, deflater: .igzip)
    let zlib = try encode(pixels, width: width, height: height, options: .balanced)
    var outputs: [[UInt8]] = []
    for threads in [1, 2, 3] {
      igzip.threads = threads
      outputs.append(try encode(pixels, width: width, height: height, options: igzip))
    }
    #expect(outputs[1] == outputs[0] && outputs[2] == outputs[0], "the same bytes for 1, 2 and 3 threads")
    #expect(outputs[0] != zlib, "igzip wrote zlib's bytes")
    #expect(firstPixelMismatch(try PNGDecoder.decode(outputs[0]).pixels, pixels.flatMap(bytes(of:))) == nil)
  }

  /// igzip's AVX-512 routines leave the upper halves of the vector
  /// registers in use, which slows every legacy-SSE instruction after them
  /// on the thread (libm's tan and log 13-fold): the forwarders clear them,
  /// so a thread that compressed a strip draws and projects at full speed.
  @Test func anIgzipStreamLeavesTheVectorRegistersClean() throws {
    let (width, height) = (640, 480)
    let pixels = opaqueMap(width: width, height: height)
    var igzip = PNGEncodingOptions(compressionLevel: 1, deflater: .igzip)
    igzip.threads = 1  // every segment on this thread
    _ = try encode(pixels, width: width, height: height, options: igzip)
    let state = mapsnap_vector_upper_state()
    #expect(state != 1, "the upper halves are in use after igzip")
  }

  /// An image whose scanlines fit in one segment is deflated by zlib at the
  /// same level: quicker than opening libisal.
  @Test func fastIsZlibsLevel2ForAnImageOfOneSegment() throws {
    let pixels = opaqueMap(width: 128, height: 96)
    #expect(try encode(pixels, width: 128, height: 96, options: .fast) == encode(pixels, width: 128, height: 96, options: .balanced))
  }

  @Test func igzipLevelsAre0To3() {
    let pixels = [UInt32](repeating: pixel(0, 0, 0, 255), count: 4)
    #expect(throws: PNGError.invalidCompressionLevel(4)) {
      try encode(pixels, width: 2, height: 2, options: PNGEncodingOptions(compressionLevel: 4, deflater: .igzip))
    }
    #expect(PNGEncodingOptions(compressionLevel: 9, filter: .adaptive, deflater: .igzip).effectiveDeflater == .zlib,
      "the adaptive filter is libpng's own, with zlib")
    #expect(PNGError.invalidCompressionLevel(4).description.contains("igzip's: 0...3"))
  }

  @Test func encodingIsDeterministic() throws {
    let pixels = opaqueMap(width: 40, height: 30)
    #expect(try encode(pixels, width: 40, height: 30) == encode(pixels, width: 40, height: 30))
  }

  @Test(arguments: [(1, 1), (1, 57), (57, 1), (1, 1000), (3, 1)])
  func edgeSizes(size: (Int, Int)) throws {
    let (width, height) = size
    for alpha: UInt8 in [255, 77] {
      let pixels = (0..<width * height).map { i in
        let c = UInt8(truncatingIfNeeded: i)
        return alpha == 255 ? pixel(c, 255 - c, 7, 255) : pixel(c % alpha, 3, alpha, alpha)
      }
      let png = try encode(pixels, width: width, height: height)
      #expect(ihdrColorType(png) == (alpha == 255 ? 2 : 6))
      let decoded = try PNGDecoder.decode(png)
      #expect(decoded.width == width && decoded.height == height)
      #expect(firstPixelMismatch(decoded.pixels, pixels.flatMap(straight)) == nil)
    }
  }

  @Test func extraTrailingPixelsAreIgnored() throws {
    let pixels = [pixel(1, 2, 3, 255), pixel(4, 5, 6, 255), pixel(9, 9, 9, 0)]
    let decoded = try PNGDecoder.decode(try encode(pixels, width: 2, height: 1))
    #expect(decoded.pixels == [1, 2, 3, 255, 4, 5, 6, 255])
  }

  @Test func invalidArgumentsThrowPreciseErrors() {
    let pixels = [UInt32](repeating: pixel(0, 0, 0, 255), count: 4)
    #expect(throws: PNGError.invalidDimensions(width: 0, height: 4)) {
      try encode(pixels, width: 0, height: 4)
    }
    #expect(throws: PNGError.invalidDimensions(width: 2, height: -1)) {
      try encode(pixels, width: 2, height: -1)
    }
    #expect(throws: PNGError.pixelBufferTooSmall(required: 6, actual: 4)) {
      try encode(pixels, width: 3, height: 2)
    }
    #expect(throws: PNGError.invalidCompressionLevel(10)) {
      try encode(pixels, width: 2, height: 2, options: PNGEncodingOptions(compressionLevel: 10))
    }
  }

  // MARK: - Decoding failures

  @Test func garbageIsNotAPNG() {
    #expect(throws: PNGError.notAPNG) { try PNGDecoder.decode([]) }
    #expect(throws: PNGError.notAPNG) { try PNGDecoder.decode([0x89, 0x50]) }
    #expect(throws: PNGError.notAPNG) { try PNGDecoder.decode(Array("GIF89a, not a PNG at all".utf8)) }
    var generator = SystemRandomNumberGenerator()
    let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
    #expect(throws: PNGError.notAPNG) { try PNGDecoder.decode([0] + noise) }
  }

  @Test func signatureFollowedByGarbageFailsToDecode() {
    var generator = SystemRandomNumberGenerator()
    for length in [0, 3, 25, 4096] {
      let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      do {
        _ = try PNGDecoder.decode(PNG.signature + noise)
        Issue.record("decoded signature + \(length) random bytes")
      } catch {
        guard case .decodingFailed(let message) = error else {
          Issue.record("expected decodingFailed, got \(error)")
          continue
        }
        #expect(!message.isEmpty)
      }
    }
  }

  @Test func everyTruncationIsAnError() throws {
    let pixels = opaqueMap(width: 16, height: 9)
    let png = try encode(pixels, width: 16, height: 9)
    for length in 0..<png.count {
      do {
        _ = try PNGDecoder.decode(Array(png.prefix(length)))
        Issue.record("decoded a PNG truncated to \(length) of \(png.count) bytes")
      } catch {
        if length < 8 {
          #expect(error == .notAPNG)
        } else if case .decodingFailed = error {
        } else {
          Issue.record("truncated to \(length): unexpected \(error)")
        }
      }
    }
  }

  @Test func corruptedIDATIsAnError() throws {
    var png = try encode(opaqueMap(width: 16, height: 9), width: 16, height: 9)
    png[45] ^= 0x5A  // inside the IDAT data (IHDR ends at byte 33)
    let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(png) }
    guard case .decodingFailed(let message)? = error else {
      Issue.record("expected decodingFailed, got \(String(describing: error))")
      return
    }
    #expect(message.contains("CRC") || message.contains("data"), "\(message)")
  }

  @Test func hugeDeclaredSizeIsRefusedBeforeAllocating() {
    let png = handMadePNG(
      width: 16385, height: 16385, bitDepth: 8, colorType: 2, filteredRows: [0, 0, 0, 0])
    #expect(throws: PNGError.imageTooLarge(width: 16385, height: 16385, limit: 1 << 28)) {
      try PNGDecoder.decode(png)
    }
    let wide = handMadePNG(
      width: 0x7FFF_FFFF, height: 1, bitDepth: 8, colorType: 6, filteredRows: [0])
    #expect(throws: PNGError.imageTooLarge(width: 0x7FFF_FFFF, height: 1, limit: 1 << 28)) {
      try PNGDecoder.decode(wide)
    }
  }

  // MARK: - Other colour types

  @Test func handMadeReferenceDecodes() throws {
    // Sanity check of the hand-built PNG helper: 8-bit RGB, 2×1.
    let png = handMadePNG(
      width: 2, height: 1, bitDepth: 8, colorType: 2, filteredRows: [0, 1, 2, 3, 4, 5, 6])
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.pixels == [1, 2, 3, 255, 4, 5, 6, 255])
    #expect(!decoded.sourceHasAlpha)
  }

  @Test func grayExpandsToRGB() throws {
    let png = handMadePNG(width: 2, height: 1, bitDepth: 8, colorType: 0, filteredRows: [0, 10, 200])
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.pixels == [10, 10, 10, 255, 200, 200, 200, 255])
    #expect(!decoded.sourceHasAlpha)
  }

  @Test func lowBitDepthGrayScalesUp() throws {
    // 2-bit gray, 4 pixels: 0, 1, 2, 3 → 0, 85, 170, 255.
    let png = handMadePNG(width: 4, height: 1, bitDepth: 2, colorType: 0, filteredRows: [0, 0b00_01_10_11])
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.pixels == [0, 0, 0, 255, 85, 85, 85, 255, 170, 170, 170, 255, 255, 255, 255, 255])
  }

  @Test func grayAlphaExpands() throws {
    let png = handMadePNG(width: 1, height: 1, bitDepth: 8, colorType: 4, filteredRows: [0, 100, 50])
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.pixels == [100, 100, 100, 50])
    #expect(decoded.sourceHasAlpha)
  }

  @Test func paletteWithTRNSExpandsToRGBA() throws {
    // 1-bit palette, 3 pixels: indices 0, 1, 0.
    let png = handMadePNG(
      width: 3, height: 1, bitDepth: 1, colorType: 3,
      extraChunks: [PNG.chunk("PLTE", [255, 0, 0, 0, 0, 255]), PNG.chunk("tRNS", [0x80])],
      filteredRows: [0, 0b0100_0000])
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.pixels == [255, 0, 0, 128, 0, 0, 255, 255, 255, 0, 0, 128])
    #expect(decoded.sourceHasAlpha)
  }

  @Test func paletteWithoutTRNSIsOpaque() throws {
    let png = handMadePNG(
      width: 2, height: 1, bitDepth: 8, colorType: 3,
      extraChunks: [PNG.chunk("PLTE", [9, 8, 7, 1, 2, 3])], filteredRows: [0, 1, 0])
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.pixels == [1, 2, 3, 255, 9, 8, 7, 255])
    #expect(!decoded.sourceHasAlpha)
  }

  @Test func rgbWithTRNSKeyColourBecomesTransparent() throws {
    let png = handMadePNG(
      width: 2, height: 1, bitDepth: 8, colorType: 2,
      extraChunks: [PNG.chunk("tRNS", [0, 1, 0, 2, 0, 3])], filteredRows: [0, 1, 2, 3, 4, 5, 6])
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.pixels == [1, 2, 3, 0, 4, 5, 6, 255])
    #expect(decoded.sourceHasAlpha)
  }

  @Test func sixteenBitSamplesAreScaledWithRounding() throws {
    // round(v * 255 / 65535): 0xFFFF → 255, 0x0000 → 0, 0x00FF → 1 (plain
    // high-byte stripping would give 0), 0x80FF → 128.
    let png = handMadePNG(
      width: 1, height: 1, bitDepth: 16, colorType: 6,
      filteredRows: [0, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0xFF, 0x80, 0xFF])
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.pixels == [255, 0, 1, 128])
  }

  @Test func adam7InterlacedImageDecodes() throws {
    // 2×2 gray, interlaced: pass 1 holds (0,0), pass 6 holds (1,0), pass 7 holds row 1.
    let png = handMadePNG(
      width: 2, height: 2, bitDepth: 8, colorType: 0, interlace: 1,
      filteredRows: [0, 10, 0, 20, 0, 30, 40])
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.pixels == [10, 10, 10, 255, 20, 20, 20, 255, 30, 30, 30, 255, 40, 40, 40, 255])
  }

  // MARK: - Files

  @Test func decodesAFile() throws {
    let pixels = opaqueMap(width: 20, height: 10)
    let png = try encode(pixels, width: 20, height: 10)
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("mapsnap-png-\(UUID().uuidString).png").path
    try #require(FileManager.default.createFile(atPath: path, contents: Data(png)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let decoded = try PNGDecoder.decode(contentsOf: path)
    #expect(decoded == (try PNGDecoder.decode(png)))
  }

  @Test func missingFileNamesThePath() {
    let path = "/nonexistent-mapsnap-dir/missing-\(UUID().uuidString).png"
    #expect(throws: PNGError.fileNotFound(path: path)) { try PNGDecoder.decode(contentsOf: path) }
    #expect(PNGError.fileNotFound(path: path).description.contains(path))
  }

  @Test func directoryIsAReadFailure() {
    let directory = FileManager.default.temporaryDirectory.path
    let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(contentsOf: directory) }
    guard case .fileReadFailed(let path, _)? = error else {
      Issue.record("expected fileReadFailed, got \(String(describing: error))")
      return
    }
    #expect(path == directory)
  }

  @Test func errorDescriptionsSayWhatHappened() {
    #expect(PNGError.notAPNG.description.contains("not a PNG"))
    #expect(PNGError.imageTooLarge(width: 70000, height: 70000, limit: 1 << 28).description.contains("70000×70000"))
    #expect(PNGError.decodingFailed("libpng: IDAT: CRC error").description.contains("CRC error"))
  }
}
