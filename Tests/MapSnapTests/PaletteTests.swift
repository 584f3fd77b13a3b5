import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

// MARK: - Helpers

/// A premultiplied RGBA8 pixel as the encoder takes it (bytes R, G, B, A in memory).
private func pixel(_ r: Int, _ g: Int, _ b: Int, _ a: Int = 255) -> UInt32 {
  func p(_ c: Int) -> UInt32 { UInt32((c * a + 127) / 255) }
  return (p(r) | p(g) << 8 | p(b) << 16 | UInt32(a) << 24).littleEndian
}

/// The chunks of a PNG file in order: type and data.
private func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8])] {
  var out: [(String, [UInt8])] = []
  var at = 8
  while at + 12 <= png.count {
    let length = png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    out.append((String(decoding: png[at + 4..<at + 8], as: UTF8.self), Array(png[at + 8..<at + 8 + length])))
    at += 12 + length
  }
  return out
}

/// Oklab of a straight RGBA8 colour composited over white, written here from
/// the published matrices, apart from the library's own conversion.
private func oklab(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) -> SIMD3<Double> {
  func linear(_ c: UInt8) -> Double {
    let s = Double(c) / 255
    let l = s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
    let alpha = Double(a) / 255
    return l * alpha + 1 - alpha
  }
  let (lr, lg, lb) = (linear(r), linear(g), linear(b))
  let l = cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb)
  let m = cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb)
  let s = cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb)
  return SIMD3(
    0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s, 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
}

/// ΔE (Oklab, over white) between pixel `i` of two decoded images.
private func deltaE(_ x: DecodedImage, _ y: DecodedImage, at i: Int) -> Double {
  let p = x.pixels
  let q = y.pixels
  let d = oklab(p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]) - oklab(q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3])
  return (d * d).sum().squareRoot()
}

/// A 128×96 test card with thousands of colours: a smooth two-axis gradient,
/// a flat block, and a 1-px red line across.
private func gradientCard() -> (pixels: [UInt32], width: Int, height: Int) {
  let (w, h) = (128, 96)
  var out = [UInt32](repeating: 0, count: w * h)
  for y in 0..<h {
    for x in 0..<w {
      out[y * w + x] = pixel(x * 2, y * 255 / (h - 1), 255 - x, 255)
    }
  }
  for y in 60..<90 { for x in 10..<50 { out[y * w + x] = pixel(40, 80, 120) } }
  for x in 0..<w { out[40 * w + x] = pixel(230, 20, 30) }
  return (out, w, h)
}

private func quantize(_ pixels: [UInt32], _ w: Int, _ h: Int, _ options: PaletteOptions, threads: Int = 0) throws -> QuantizedImage {
  try pixels.withUnsafeBufferPointer {
    try PaletteQuantizer.quantize(premultipliedRGBA: $0, width: w, height: h, options: options, threads: threads)
  }
}

private func encode(_ pixels: [UInt32], _ w: Int, _ h: Int, palette: PaletteOptions?) throws -> [UInt8] {
  try pixels.withUnsafeBufferPointer {
    try PNGEncoder.encode(premultipliedRGBA: $0, width: w, height: h, options: PNGEncodingOptions(palette: palette))
  }
}

// MARK: - Tests

/// PNG8 output (issue 13): the quantiser's rules and the palette PNG it writes.
@Suite struct PaletteTests {
  @Test("Oklab: the reference values of white, black and sRGB red; 8-bit greys round-trip")
  func oklabReference() {
    let white = Oklab(red: 255, green: 255, blue: 255)
    #expect(abs(white.l - 1) < 1e-4 && abs(white.a) < 1e-4 && abs(white.b) < 1e-4)
    #expect(Oklab(red: 0, green: 0, blue: 0) == Oklab(l: 0, a: 0, b: 0))
    // Björn Ottosson's published value for sRGB red.
    let red = Oklab(red: 255, green: 0, blue: 0)
    #expect(abs(red.l - 0.627955) < 1e-4 && abs(red.a - 0.224863) < 1e-4 && abs(red.b - 0.125846) < 1e-4)
    for v in 0...255 {
      let c = Oklab(red: UInt8(v), green: UInt8(v), blue: UInt8(v)).srgb8
      #expect(c.red == UInt8(v) && c.green == UInt8(v) && c.blue == UInt8(v), "grey \(v)")
    }
  }

  @Test("at most N colours: the palette is exactly the image's colours and the PNG decodes to the PNG32's pixels",
    arguments: [2, 7, 16, 200, 256])
  func losslessWhenFewColours(colors: Int) throws {
    // `colors` distinct pixels, translucent ones and transparent among them.
    let (w, h) = (37, 23)
    var seed: UInt64 = 7
    let distinct: [UInt32] = (0..<colors).map { i in
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let a = i == 0 ? 0 : (i % 5 == 1 ? Int(seed >> 56) : 255)
      return pixel(Int(seed >> 8 & 0xFF), Int(seed >> 16 & 0xFF), Int(seed >> 24 & 0xFF), a)
    }
    let pixels = (0..<(w * h)).map { distinct[($0 * 7 + $0 / w) % colors] }
    let q = try quantize(pixels, w, h, PaletteOptions(colors: colors))
    #expect(q.isLossless)
    let truecolour = try PNGDecoder.decode(try encode(pixels, w, h, palette: nil))
    let png8 = try encode(pixels, w, h, palette: PaletteOptions(colors: colors))
    let decoded = try PNGDecoder.decode(png8)
    #expect(decoded.pixels == truecolour.pixels, "a palette PNG of ≤ N colours is lossless")
    #expect(png8[25] == 3, "colour type 3 (palette)")
    #expect(q.palette.count <= colors)
  }

  @Test("the palette holds at most N entries, every index is below it, and the bit depth fits",
    arguments: [2, 3, 4, 5, 16, 17, 64, 256])
  func paletteSizeRespected(colors: Int) throws {
    let card = gradientCard()
    let q = try quantize(card.pixels, card.width, card.height, PaletteOptions(colors: colors))
    #expect(!q.isLossless)
    #expect(q.palette.count <= colors && q.palette.count >= min(colors, 2))
    #expect(Set(q.palette).count == q.palette.count, "no entry twice")
    #expect(q.indices.count == card.width * card.height)
    #expect(q.indices.allSatisfy { Int($0) < q.palette.count })
    let png = try encode(card.pixels, card.width, card.height, palette: PaletteOptions(colors: colors))
    let list = chunks(png)
    #expect(list.map(\.type) == ["IHDR", "PLTE"] + Array(repeating: "IDAT", count: list.count - 3) + ["IEND"])
    let plte = try #require(list.first { $0.type == "PLTE" })
    #expect(plte.data.count == 3 * q.palette.count)
    let n = q.palette.count
    #expect(Int(png[24]) == (n <= 2 ? 1 : n <= 4 ? 2 : n <= 16 ? 4 : 8), "bit depth for \(n) entries")
    // The file decodes to the palette's colours.
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.packedPixels == q.straightPixels)
  }

  @Test("tRNS holds exactly the translucent entries, which come first; an opaque image has none")
  func transparencyChunk() throws {
    var card = gradientCard()
    let opaque = try encode(card.pixels, card.width, card.height, palette: PaletteOptions(colors: 32))
    #expect(!chunks(opaque).contains { $0.type == "tRNS" })
    // A transparent hole and a half-transparent band.
    for y in 0..<10 { for x in 0..<card.width { card.pixels[y * card.width + x] = 0 } }
    for y in 10..<20 { for x in 0..<card.width { card.pixels[y * card.width + x] = pixel(20, 90, 200, 128) } }
    let q = try quantize(card.pixels, card.width, card.height, PaletteOptions(colors: 32))
    #expect(q.translucentCount >= 2)
    for (i, entry) in q.palette.enumerated() {
      #expect((UInt32(littleEndian: entry) >> 24 != 255) == (i < q.translucentCount), "entry \(i)")
    }
    let png = try encode(card.pixels, card.width, card.height, palette: PaletteOptions(colors: 32))
    let trns = try #require(chunks(png).first { $0.type == "tRNS" })
    #expect(trns.data.count == q.translucentCount, "tRNS stops at the last translucent entry")
    let decoded = try PNGDecoder.decode(png)
    let truecolour = try PNGDecoder.decode(try encode(card.pixels, card.width, card.height, palette: nil))
    #expect(decoded.sourceHasAlpha)
    #expect(decoded.pixels[0..<4] == [0, 0, 0, 0], "transparent stays transparent")
    let band = 15 * card.width * 4 + 40
    #expect(decoded.pixels[band + 3] == 128, "half-transparent keeps its alpha")
    #expect(decoded.pixels[band..<band + 4] == truecolour.pixels[band..<band + 4], "and its colour (a colour of its own: many pixels)")
  }

  @Test("the same bytes on every run, for every thread count, with and without dithering")
  func deterministic() throws {
    // Tall enough for several 64-row bands; about 1,300 colours (a debug
    // build quantises slowly), some translucent.
    let (w, h) = (100, 200)
    let pixels = (0..<(w * h)).map { i in
      pixel((i % w) / 4 * 5, (i / w) / 4 * 3, ((i % w) + (i / w)) % 64 * 4, i % 97 == 0 ? 100 : 255)
    }
    for dither in [false, true] {
      let options = PaletteOptions(colors: 64, dither: dither)
      let reference = try quantize(pixels, w, h, options, threads: 1)
      for threads in [2, 7] {
        #expect(try quantize(pixels, w, h, options, threads: threads) == reference, "threads \(threads), dither \(dither)")
      }
      let bytes = try pixels.withUnsafeBufferPointer {
        try PNGEncoder.encode(
          premultipliedRGBA: $0, width: w, height: h, options: PNGEncodingOptions(threads: 1, palette: options))
      }
      let again = try pixels.withUnsafeBufferPointer {
        try PNGEncoder.encode(
          premultipliedRGBA: $0, width: w, height: h, options: PNGEncodingOptions(threads: 4, palette: options))
      }
      #expect(bytes == again)
    }
  }

  @Test("a 1-px line's colour, far from the rest, keeps an entry of its own in a small palette")
  func thinLineProtected() throws {
    let card = gradientCard()
    let truecolour = try PNGDecoder.decode(try encode(card.pixels, card.width, card.height, palette: nil))
    for colors in [8, 16, 64] {
      let decoded = try PNGDecoder.decode(try encode(card.pixels, card.width, card.height, palette: PaletteOptions(colors: colors)))
      for x in stride(from: 0, to: card.width, by: 9) {
        let i = 40 * card.width + x
        #expect(deltaE(decoded, truecolour, at: i) < 0.02, "line pixel x=\(x) with \(colors) colours")
      }
      // The flat block keeps its exact colour (the entry snaps to it).
      #expect(deltaE(decoded, truecolour, at: 70 * card.width + 20) == 0, "\(colors) colours")
    }
  }

  @Test("dithering: the mean colour of a gradient stays closer to the original; flat colours get no noise")
  func dithering() throws {
    let (w, h) = (256, 64)
    var pixels = (0..<(w * h)).map { i in pixel(i % w, i % w, i % w) }
    for y in 40..<64 { for x in 0..<w { pixels[y * w + x] = pixel(255, 255, 255) } }
    let plain = try PNGDecoder.decode(try encode(pixels, w, h, palette: PaletteOptions(colors: 4)))
    let dithered = try PNGDecoder.decode(try encode(pixels, w, h, palette: PaletteOptions(colors: 4, dither: true)))
    let original = try PNGDecoder.decode(try encode(pixels, w, h, palette: nil))
    // Mean grey of 16-column blocks of the gradient rows.
    func blockError(_ image: DecodedImage) -> Double {
      var total = 0.0
      for block in 0..<(w / 16) {
        var sum = 0
        var reference = 0
        for y in 0..<40 {
          for x in (block * 16)..<(block * 16 + 16) {
            sum += Int(image.pixels[(y * w + x) * 4])
            reference += Int(original.pixels[(y * w + x) * 4])
          }
        }
        total += abs(Double(sum - reference)) / Double(16 * 40)
      }
      return total / Double(w / 16)
    }
    #expect(blockError(dithered) < blockError(plain) / 2, "dithered \(blockError(dithered)), plain \(blockError(plain))")
    let white = Array(dithered.pixels[(40 * w * 4)...])
    #expect(white.allSatisfy { $0 == 255 }, "the white fill is exactly an entry: not dithered")
  }

  @Test("palette sizes outside 2...256 are refused")
  func invalidSizes() throws {
    let card = gradientCard()
    for colors in [-1, 0, 1, 257, 1000] {
      #expect(throws: PNGError.invalidPaletteColors(colors)) {
        try encode(card.pixels, card.width, card.height, palette: PaletteOptions(colors: colors))
      }
    }
    #expect(PNGError.invalidPaletteColors(1).description == "PNG encoder: expected a palette of 2...256 colours, found 1")
  }

  @Test("the histogram keeps at most 65,536 buckets and counts every pixel")
  func histogramBound() {
    // 131,072 distinct opaque colours: more than the bound.
    let (w, h) = (512, 256)
    let pixels = (0..<(w * h)).map { i in (UInt32(i) | 0xFF00_0000).littleEndian }
    let histogram = pixels.withUnsafeBufferPointer { ColorHistogram(pixels: $0) }
    #expect(histogram.precisionLoss > 0)
    #expect(histogram.colors.count <= ColorHistogram.maximumBuckets)
    #expect(histogram.counts.reduce(0, +) == w * h)
    // Few colours are counted exactly.
    let card = gradientCard()
    let exact = card.pixels.withUnsafeBufferPointer { ColorHistogram(pixels: $0) }
    #expect(exact.precisionLoss == 0)
    #expect(exact.colors.count == Set(card.pixels).count)
    #expect(exact.counts.reduce(0, +) == card.width * card.height)
    // And a frame over the bound still gets a palette of its size.
    let q = try? quantize(pixels, w, h, PaletteOptions(colors: 256))
    #expect(q?.palette.count == 256)
  }

  @Test("the input digest follows the palette options")
  func digestFollowsPalette() throws {
    try withTemporaryDirectory { dir in
      try Files.write(
        #"{"version": 1, "map": {"center": [24.94, 60.17], "scale": 4000, "size": [64, 64]}, "layers": []}"#,
        to: dir + "/scene.json")
      let plan = try FramePlan.make(try SceneLoader.load(path: dir + "/scene.json"))
      func digest(_ palette: PaletteOptions?) -> String {
        InputDigest.of(plan, encoding: PNGEncodingOptions(palette: palette), files: FileDigests())
      }
      let all = [
        digest(nil), digest(PaletteOptions(colors: 256)), digest(PaletteOptions(colors: 64)),
        digest(PaletteOptions(colors: 64, dither: true)),
      ]
      #expect(Set(all).count == 4)
      #expect(digest(PaletteOptions(colors: 64)) == all[2])
      #expect(all[0] == InputDigest.of(plan, encoding: .balanced, files: FileDigests()), "true colour digests are unchanged")
      #expect(all[0] != InputDigest.of(plan, encoding: .fast, files: FileDigests()), "the deflater is part of the digest")
    }
  }
}
