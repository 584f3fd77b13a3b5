import Testing

@testable import MapSnap

/// The raster layer's colour adjustments and nearest-neighbour resampling, against
/// values worked out by hand from MapLibre's raster shader.
@Suite struct StyleRasterPaintTests {
  private func adjusted(_ pixel: [UInt8], _ paint: RasterPaint) -> [UInt8] {
    var p = pixel
    paint.apply(to: &p)
    return p
  }

  @Test func defaultsLeaveThePixelsAlone() {
    let paint = RasterPaint()
    #expect(paint.isIdentity)
    #expect(adjusted([10, 20, 30, 40], paint) == [10, 20, 30, 40])
  }

  @Test func saturationMinusOneGivesTheChannelMean() {
    // Red: the mean of (1, 0, 0) is 1/3, 85 in 8 bits.
    #expect(adjusted([255, 0, 0, 255], RasterPaint(saturation: -1)) == [85, 85, 85, 255])
  }

  @Test func hueRotate180TurnsRedToCyanAtTwoThirds() {
    // Spin weights at 180°: (−1/3, 2/3, 2/3); red becomes (−1/3, 2/3, 2/3), clamped.
    #expect(adjusted([255, 0, 0, 255], RasterPaint(hueRotate: 180)) == [0, 170, 170, 255])
  }

  @Test func hueRotate360IsTheIdentityColour() {
    #expect(adjusted([200, 100, 50, 255], RasterPaint(hueRotate: 360)) == [200, 100, 50, 255])
  }

  @Test func contrastScalesAboutMidGrey() {
    // Contrast −0.5 halves the distance from 0.5: 200/255 → 0.642157 → 163.75.
    #expect(adjusted([200, 200, 200, 255], RasterPaint(contrast: -0.5)) == [164, 164, 164, 255])
    #expect(RasterPaint(contrast: 0.5).contrastFactor == 2)
  }

  @Test func saturationFactorFollowsTheShader() {
    #expect(RasterPaint(saturation: -0.25).saturationFactor == 0.25)
    #expect(abs(RasterPaint(saturation: 0.5).saturationFactor - Float(1 - 1 / 0.501)) < 1e-6)
  }

  @Test func brightnessMapsBlackAndWhiteToTheBounds() {
    let paint = RasterPaint(brightnessMin: 0.2, brightnessMax: 0.8)
    #expect(adjusted([0, 0, 0, 255], paint) == [51, 51, 51, 255])
    #expect(adjusted([255, 255, 255, 255], paint) == [204, 204, 204, 255])
  }

  @Test func translucentPixelsAreAdjustedUnpremultiplied() {
    // (64, 0, 0, 128) is straight red 0.5 at alpha 128; grey 1/6 times 128/255 is 21.3.
    #expect(adjusted([64, 0, 0, 128], RasterPaint(saturation: -1)) == [21, 21, 21, 128])
  }

  @Test func opacityScalesAlphaAndColour() {
    #expect(adjusted([200, 100, 0, 255, 0, 0, 0, 0], RasterPaint(opacity: 0.5)) == [100, 50, 0, 128, 0, 0, 0, 0])
  }

  @Test func nearestResamplingRepeatsTexels() throws {
    // Two opaque texels (red 1 and 2) over a 4 × 2 rectangle: each covers two columns.
    let a: UInt32 = 0xFF00_0001, b: UInt32 = 0xFF00_0002
    let w = try #require(ImageWarp.warp([a, b], width: 2, height: 1, corners: [Point(0, 0), Point(4, 0), Point(4, 2), Point(0, 2)], frameWidth: 8, frameHeight: 8, resampling: .nearest))
    #expect(w.rect == Rect(minX: 0, minY: 0, maxX: 4, maxY: 2))
    #expect(w.image.pixels == [a, a, b, b, a, a, b, b])
  }

  @Test func linearWarpAtScaleOneIsTheImage() throws {
    let texels: [UInt32] = [0xFF00_00FF, 0xFF00_FF00, 0xFFFF_0000, 0x8000_0080]
    let w = try #require(ImageWarp.warp(texels, width: 2, height: 2, corners: [Point(3, 1), Point(5, 1), Point(5, 3), Point(3, 3)], frameWidth: 8, frameHeight: 8, resampling: .linear))
    #expect(w.rect == Rect(minX: 3, minY: 1, maxX: 5, maxY: 3))
    #expect(w.image.pixels == texels)
  }

  @Test func aQuarterTurnTurnsTheImage() throws {
    // Corners turned 90° clockwise: the image's top row lands on the right column.
    let t: [UInt32] = [0xFF00_0001, 0xFF00_0002, 0xFF00_0003, 0xFF00_0004]
    let w = try #require(ImageWarp.warp(t, width: 2, height: 2, corners: [Point(2, 0), Point(2, 2), Point(0, 2), Point(0, 0)], frameWidth: 8, frameHeight: 8, resampling: .nearest))
    #expect(w.image.pixels == [t[2], t[0], t[3], t[1]])
  }

  @Test func pixelsOutsideTheQuadStayTransparent() throws {
    // A diamond: the corners of its bounds are outside it.
    let w = try #require(ImageWarp.warp([0xFFFF_FFFF], width: 1, height: 1, corners: [Point(2, 0), Point(4, 2), Point(2, 4), Point(0, 2)], frameWidth: 8, frameHeight: 8, resampling: .nearest))
    #expect(w.image.pixels[0] == 0 && w.image.pixels[5] == 0xFFFF_FFFF)
  }
}
