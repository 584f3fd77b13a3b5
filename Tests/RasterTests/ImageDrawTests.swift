import Testing
import _MapSnapRaster

// DisplayList.drawImage: exact-area coverage of the destination rectangle, bilinear
// sampling of premultiplied texels at pixel centres, box-filtered reduced levels,
// source-over with opacity × coverage, through the tile renderer.


private func render(
  _ list: DisplayList, options: RenderOptions = .init(threads: 1, tileRows: 16)
) -> Canvas {
  let canvas = Canvas(width: list.width, height: list.height)
  TileRenderer.render(list, into: canvas, options: options)
  return canvas
}

/// The rendered pixels, copied while the canvas is alive.
private func renderedPixels(
  _ list: DisplayList, options: RenderOptions = .init(threads: 1, tileRows: 16)
) -> [UInt32] {
  let canvas = render(list, options: options)
  return withExtendedLifetime(canvas) { Array(canvas.buffer) }
}

private func channels(_ p: UInt32) -> [Int] {
  [Int(p & 255), Int((p >> 8) & 255), Int((p >> 16) & 255), Int(p >> 24)]
}

private func near(_ a: [Int], _ b: [Int], _ tolerance: Int = 1) -> Bool {
  zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}

@Suite struct ImageDrawTests {
  @Test func straightPixelsArePremultipliedWithRounding() {
    let img = image(2, 1) { x, _ in x == 0 ? (255, 100, 0, 128) : (10, 20, 30, 0) }
    #expect(channels(img[0, 0]) == [128, 50, 0, 128])
    #expect(img[1, 0] == 0)  // alpha 0: no colour left
    #expect(img.pixels.count == 2)
    let again = RasterImage(premultipliedPixels: img.pixels, width: 2, height: 1)
    #expect(again.pixels == img.pixels)
  }

  @Test func twoByTwoUpscaledIsBilinearAtPixelCentres() {
    // Opaque corners: R along x (0 → 200), G along y (0 → 240), B constant.
    let img = image(2, 2) { x, y in (x == 0 ? 0 : 200, y == 0 ? 0 : 240, 50, 255) }
    var list = DisplayList(width: 20, height: 20, background: .transparent)
    let drawn = list.drawImage(img, in: Rect(minX: 0, minY: 0, maxX: 20, maxY: 20), opacity: 1)
    #expect(drawn)
    let canvas = render(list)
    // Pixel centre px + 0.5 maps to u = (px + 0.5) / 10 - 0.5, clamped to the texels.
    func expected(_ px: Int) -> Double { min(max((Double(px) + 0.5) / 10 - 0.5, 0), 1) }
    for y in 0..<20 {
      for x in 0..<20 {
        let want = [Int((expected(x) * 200).rounded()), Int((expected(y) * 240).rounded()), 50, 255]
        #expect(near(channels(canvas[x, y]), want), "pixel (\(x), \(y))")
      }
    }
    // Known values: clamped corners, and a few interior pixels.
    #expect(channels(canvas[0, 0]) == [0, 0, 50, 255])
    #expect(channels(canvas[4, 4]) == [0, 0, 50, 255])  // u = -0.05: clamped to texel 0
    #expect(channels(canvas[19, 19]) == [200, 240, 50, 255])
    #expect(near(channels(canvas[5, 0]), [10, 0, 50, 255]))  // u = 0.05
    #expect(near(channels(canvas[9, 10]), [90, 132, 50, 255]))  // u = 0.45, v = 0.55
    #expect(near(channels(canvas[14, 14]), [190, 228, 50, 255]))  // u = v = 0.95
  }

  @Test func translucentImageOverWhiteIsPremultipliedCorrect() {
    // Straight (0, 0, 255) at alpha 128 → premultiplied (0, 0, 128, 128); over white:
    // 0 + 255 × 127/255 = 127 for R and G, 128 + 127 = 255 for B and A.
    let img = image(4, 4) { _, _ in (0, 0, 255, 128) }
    var list = DisplayList(width: 12, height: 12, background: .white)
    list.drawImage(img, in: Rect(minX: 2, minY: 2, maxX: 10, maxY: 10), opacity: 1)
    let canvas = render(list)
    for y in 2..<10 {
      for x in 2..<10 {
        #expect(channels(canvas[x, y]) == [127, 127, 255, 255], "pixel (\(x), \(y))")
      }
    }
    #expect(channels(canvas[1, 5]) == [255, 255, 255, 255])
  }

  @Test func transparentNextToOpaqueHasNoDarkFringe() {
    // Left half: red-ish straight colour at alpha 0; right half: opaque blue. Mixing
    // straight colours would drag red in and dip blue below white; premultiplied
    // mixing only fades white into blue.
    let img = image(4, 2) { x, _ in x < 2 ? (255, 40, 40, 0) : (0, 0, 255, 255) }
    var list = DisplayList(width: 40, height: 4, background: .white)
    list.drawImage(img, in: Rect(minX: 0, minY: 0, maxX: 40, maxY: 4), opacity: 1)
    let canvas = render(list)
    for y in 0..<4 {
      for x in 0..<40 {
        let c = channels(canvas[x, y])
        #expect(c[0] == c[1] && c[2] == 255 && c[3] == 255, "pixel (\(x), \(y)) \(c)")
      }
      for x in 1..<39 {
        let (l, m, r) = (channels(canvas[x - 1, y]), channels(canvas[x, y]), channels(canvas[x + 1, y]))
        for ch in 0..<3 {
          #expect(!(m[ch] < l[ch] && m[ch] < r[ch]), "channel \(ch) dips at (\(x), \(y))")
        }
      }
      // Goes from white to blue.
      #expect(channels(canvas[0, y]) == [255, 255, 255, 255])
      #expect(channels(canvas[39, y]) == [0, 0, 255, 255])
    }
  }

  @Test func fractionalEdgesGiveFractionalCoverage() {
    let img = image(2, 2) { _, _ in (0, 0, 0, 255) }
    var list = DisplayList(width: 10, height: 6, background: .transparent)
    list.drawImage(img, in: Rect(minX: 2.5, minY: 0.5, maxX: 7.25, maxY: 5), opacity: 1)
    let canvas = render(list)
    func alpha(_ x: Int, _ y: Int) -> Int { channels(canvas[x, y])[3] }
    #expect(alpha(2, 2) == 128)  // half the pixel
    #expect(alpha(3, 2) == 255 && alpha(6, 2) == 255)
    #expect(alpha(7, 2) == 64)  // a quarter
    #expect(alpha(1, 2) == 0 && alpha(8, 2) == 0)
    #expect(alpha(4, 0) == 128)  // top row half covered
    #expect(alpha(2, 0) == 64)  // 0.5 × 0.5
    #expect(alpha(4, 5) == 0)
    // Same as a fill of the same rectangle.
    var fill = DisplayList(width: 10, height: 6, background: .transparent)
    var path = Path()
    path.addContour([Point(2.5, 0.5), Point(7.25, 0.5), Point(7.25, 5), Point(2.5, 5)], closed: true)
    fill.fill(path, color: .black)
    #expect(renderedPixels(fill) == withExtendedLifetime(canvas) { Array(canvas.buffer) })
  }

  @Test func opacityHalvesAlpha() {
    let img = image(3, 3) { _, _ in (200, 100, 50, 255) }
    var list = DisplayList(width: 6, height: 6, background: .transparent)
    list.drawImage(img, in: Rect(minX: 0, minY: 0, maxX: 6, maxY: 6), opacity: 0.5)
    let canvas = render(list)
    #expect(channels(canvas[3, 3]) == [100, 50, 25, 128])
    // Opacity 0 draws nothing at all.
    var none = DisplayList(width: 6, height: 6, background: .transparent)
    let drawn = none.drawImage(img, in: Rect(minX: 0, minY: 0, maxX: 6, maxY: 6), opacity: 0)
    #expect(!drawn)
    #expect(none.imageCount == 0)
  }

  @Test func downscaledCheckerboardIsMidGreyNotAliased() {
    // One-pixel black/white checks, 64 × 64, drawn 8 × 8 at an offset of 0.1 px so that
    // centres do not fall half-way between texels (where plain bilinear would average
    // two checks by luck): plain bilinear would give 77 / 178; the box-filtered level
    // gives mid grey everywhere.
    let img = image(64, 64) { x, y in (x + y) % 2 == 0 ? (0, 0, 0, 255) : (255, 255, 255, 255) }
    for origin in [0.0, 0.1] {
      var list = DisplayList(width: 10, height: 10, background: .transparent)
      list.drawImage(img, in: Rect(minX: origin, minY: origin, maxX: origin + 8, maxY: origin + 8), opacity: 1)
      let canvas = render(list)
      for y in 1..<8 {
        for x in 1..<8 {
          let c = channels(canvas[x, y])
          #expect(c[3] == 255 && (126...129).contains(c[0]) && c[0] == c[1] && c[1] == c[2], "pixel (\(x), \(y)) \(c)")
        }
      }
    }
    // One reduced level (16 × 16) was made, once for both draws.
    #expect(img.reducedLevelCount == 1)
  }

  @Test func halfSizeNeedsNoReducedLevel() {
    let img = image(32, 32) { x, _ in x < 16 ? (255, 0, 0, 255) : (0, 0, 255, 255) }
    var list = DisplayList(width: 16, height: 16, background: .transparent)
    list.drawImage(img, in: Rect(minX: 0, minY: 0, maxX: 16, maxY: 16), opacity: 1)
    #expect(img.reducedLevelCount == 0)
    let canvas = render(list)
    #expect(channels(canvas[7, 3]) == [255, 0, 0, 255])
    #expect(channels(canvas[8, 3]) == [0, 0, 255, 255])
  }

  @Test func oddSizedReductionAveragesByArea() {
    // 3 × 1 drawn 1 px wide → level 1 is 2 × 1 (1.5 source pixels each), level 2 is
    // 1 × 1: the mean of all three pixels.
    let img = image(3, 3) { x, _ in x == 1 ? (255, 255, 255, 255) : (0, 0, 0, 255) }
    var list = DisplayList(width: 2, height: 2, background: .transparent)
    list.drawImage(img, in: Rect(minX: 0, minY: 0, maxX: 1, maxY: 1), opacity: 1)
    let canvas = render(list)
    #expect(channels(canvas[0, 0]) == [85, 85, 85, 255])
  }

  @Test func partlyOutsideTheFrameSamplesByAbsolutePosition() {
    let img = image(2, 2) { x, y in (x == 0 ? 0 : 200, y == 0 ? 0 : 240, 50, 255) }
    var whole = DisplayList(width: 20, height: 20, background: .transparent)
    whole.drawImage(img, in: Rect(minX: 0, minY: 0, maxX: 20, maxY: 20), opacity: 1)
    var cut = DisplayList(width: 10, height: 20, background: .transparent)
    cut.drawImage(img, in: Rect(minX: -10, minY: 0, maxX: 10, maxY: 20), opacity: 1)
    let a = render(whole)
    let b = render(cut)
    for y in 0..<20 {
      for x in 0..<10 { #expect(b[x, y] == a[x + 10, y]) }
    }
    var outside = DisplayList(width: 10, height: 10, background: .transparent)
    let offFrame = outside.drawImage(img, in: Rect(minX: 11, minY: 0, maxX: 20, maxY: 5), opacity: 1)
    let infinite = outside.drawImage(img, in: Rect(minX: 0, minY: 0, maxX: .infinity, maxY: 5), opacity: 1)
    let zeroWidth = outside.drawImage(img, in: Rect(minX: 3, minY: 3, maxX: 3, maxY: 5), opacity: 1)
    #expect(!offFrame && !infinite && !zeroWidth && outside.imageCount == 0)
  }

  @Test func imageInAGroupIsComposedWithTheGroupOpacity() {
    let img = image(2, 2) { _, _ in (0, 0, 0, 255) }
    var list = DisplayList(width: 12, height: 4, background: .white)
    list.beginGroup(opacity: 0.5)
    list.drawImage(img, in: Rect(minX: 0, minY: 0, maxX: 8, maxY: 4), opacity: 1)
    list.drawImage(img, in: Rect(minX: 4, minY: 0, maxX: 12, maxY: 4), opacity: 1)
    list.endGroup()
    let canvas = render(list)
    // Black at 128 over white, and the overlap no darker than a single image.
    #expect(channels(canvas[1, 1]) == [127, 127, 127, 255])
    #expect(channels(canvas[6, 1]) == [127, 127, 127, 255])
    #expect(channels(canvas[10, 1]) == [127, 127, 127, 255])
  }

  @Test func outputIsIdenticalForEveryThreadCountAndTileHeight() {
    let photo = image(37, 23) { x, y in
      (UInt8((x * 7) % 256), UInt8((y * 11) % 256), UInt8(((x + y) * 5) % 256), UInt8((x * y + 40) % 256))
    }
    let checks = image(64, 64) { x, y in (x / 4 + y / 4) % 2 == 0 ? (255, 0, 0, 255) : (0, 0, 0, 0) }
    var list = DisplayList(width: 157, height: 143, background: Color(r: 240, g: 235, b: 220))
    var seed: UInt64 = 12345
    func next() -> Double {
      seed = seed &* 6364136223846793005 &+ 1442695040888963407
      return Double(seed >> 11) / Double(1 << 53)
    }
    for i in 0..<60 {
      let w = 1 + next() * 90
      let h = w * (0.3 + next() * 1.7)
      let x = next() * 180 - 20
      let y = next() * 170 - 20
      if i == 20 { list.beginGroup(opacity: 0.6) }
      if i == 40 { list.endGroup() }
      if i % 9 == 0 {
        var p = Path()
        p.addContour([Point(x, y), Point(x + w, y + 3), Point(x + 5, y + h)], closed: true)
        list.fill(p, color: Color(r: 20, g: 90, b: 200, a: 180))
      }
      list.drawImage(i % 2 == 0 ? photo : checks, in: Rect(minX: x, minY: y, maxX: x + w, maxY: y + h), opacity: 0.3 + next() * 0.7)
    }
    let reference = renderedPixels(list, options: .init(threads: 1, tileRows: 143))
    for threads in [1, 2, 4] {
      for rows in [1, 7, 64] {
        let pixels = renderedPixels(list, options: .init(threads: threads, tileRows: rows))
        #expect(pixels == reference, "threads \(threads), tile rows \(rows)")
      }
    }
    // Lists built apart and appended give the same image.
    var a = DisplayList(width: 157, height: 143, background: .white)
    var b = DisplayList(width: 157, height: 143, background: .white)
    var one = DisplayList(width: 157, height: 143, background: .white)
    a.drawImage(photo, in: Rect(minX: 3.3, minY: 4.4, maxX: 90.1, maxY: 60.2), opacity: 0.9)
    b.drawImage(checks, in: Rect(minX: 50.5, minY: 20.2, maxX: 70.7, maxY: 40.4), opacity: 1)
    one.drawImage(photo, in: Rect(minX: 3.3, minY: 4.4, maxX: 90.1, maxY: 60.2), opacity: 0.9)
    one.drawImage(checks, in: Rect(minX: 50.5, minY: 20.2, maxX: 70.7, maxY: 40.4), opacity: 1)
    a.append(b)
    #expect(renderedPixels(a) == renderedPixels(one))
  }
}
