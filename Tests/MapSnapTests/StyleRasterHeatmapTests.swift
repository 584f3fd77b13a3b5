import Testing

@testable import MapSnap

/// The heatmap's kernel density and colouring, against values worked out by hand from
/// MapLibre's heatmap shaders.
@Suite struct StyleRasterHeatmapTests {
  @Test func extentIsWhereThePeakFallsToZero() {
    // √(−2·ln((1/4080)/0.398942)) / 3 = 1.281918.
    #expect(abs(Heatmap.extent(weight: 1, intensity: 1) - 1.281918) < 1e-5)
    #expect(Heatmap.extent(weight: 0, intensity: 1) == 0)
    #expect(Heatmap.extent(weight: 0.0001, intensity: 1) == 0)
  }

  @Test func singlePointPeakAndFalloff() {
    let p = HeatmapPoint(x: 10.5, y: 10.5, radius: 4, weight: 1)
    let d = Heatmap.density(width: 21, height: 21, points: [p], intensity: 1)
    #expect(abs(d[10 * 21 + 10] - 0.3989423) < 1e-6)
    // One pixel away: a quarter radius, exp(−4.5/16) = 0.754840.
    #expect(abs(d[10 * 21 + 11] - 0.3989423 * 0.754840) < 1e-6)
    #expect(abs(d[11 * 21 + 10] - d[10 * 21 + 11]) < 1e-7)
    // Weight and intensity scale it.
    let w = Heatmap.density(width: 21, height: 21, points: [HeatmapPoint(x: 10.5, y: 10.5, radius: 4, weight: 2)], intensity: 1.5)
    #expect(abs(w[10 * 21 + 10] - 3 * 0.3989423) < 1e-5)
  }

  @Test func kernelStopsAtItsSquare() {
    // Half-side 1.281918 · 4 = 5.1277: centres 5.5 … 15.5 are in, 4.5 and 16.5 out.
    let p = HeatmapPoint(x: 10.5, y: 10.5, radius: 4, weight: 1)
    let d = Heatmap.density(width: 21, height: 21, points: [p], intensity: 1)
    #expect(d[10 * 21 + 5] > 0 && d[10 * 21 + 15] > 0)
    #expect(d[10 * 21 + 4] == 0 && d[10 * 21 + 16] == 0)
    // A square, not a disc: the corner pixel inside the square has its (small) value.
    #expect(d[5 * 21 + 5] > 0)
  }

  @Test func rowBandsSumAsTheWhole() {
    let points = (0..<30).map { (i: Int) -> HeatmapPoint in
      let x = Float(i * 7 % 40), y = Float(i * 13 % 30)
      return HeatmapPoint(x: x, y: y, radius: Float(3 + i % 5), weight: Float(1 + i % 3))
    }
    let whole = Heatmap.density(width: 40, height: 30, points: points, intensity: 0.7)
    var banded = [Float](repeating: 0, count: 40 * 30)
    banded.withUnsafeMutableBufferPointer { d in
      points.withUnsafeBufferPointer { p in
        for band in stride(from: 0, to: 30, by: 7) {
          Heatmap.accumulate(into: d, width: 40, height: 30, rows: band..<band + 7, points: p, intensity: 0.7)
        }
      }
    }
    #expect(banded == whole)
  }

  @Test func colorizeLooksUpTheRamp() {
    let ramp = Heatmap.colorRamp { t in (1, 1, 1, t) }
    #expect(ramp[0..<4] == [0, 0, 0, 0])
    #expect(ramp[1020..<1024] == [255, 255, 255, 255])
    // Density 0.5 everywhere: ramp position 127.5, half way between entries 127 and 128.
    let density = [Float](repeating: 0.5, count: 4)
    var out = [UInt8](repeating: 9, count: 16 * 4)
    density.withUnsafeBufferPointer { d in
      out.withUnsafeMutableBufferPointer { o in
        ramp.withUnsafeBufferPointer { r in
          Heatmap.colorize(density: d, width: 2, height: 2, into: o, outWidth: 4, outHeight: 4, rows: 0..<4, ramp: r, opacity: 1)
        }
      }
    }
    #expect(out.allSatisfy { $0 == 128 })
  }

  @Test func colorizeUpsamplesBilinearlyWithOpacity() {
    let ramp = Heatmap.colorRamp { t in (1, 1, 1, t) }
    // Two density texels 0 and 1 across a 4-pixel row: centres sample 0, 0.25, 0.75, 1.
    let density: [Float] = [0, 1]
    var out = [UInt8](repeating: 0, count: 4 * 4)
    density.withUnsafeBufferPointer { d in
      out.withUnsafeMutableBufferPointer { o in
        ramp.withUnsafeBufferPointer { r in
          Heatmap.colorize(density: d, width: 2, height: 1, into: o, outWidth: 4, outHeight: 1, rows: 0..<1, ramp: r, opacity: 0.5)
        }
      }
    }
    // t = 0.25 → ramp position 63.5 → 63.5, halved → 31.75 → 32.
    #expect(out[3] == 0 && out[7] == 32 && out[11] == 96 && out[15] == 128)
  }

  @Test func degeneratePointsAddNothingOrStayInside() {
    let points = [
      HeatmapPoint(x: .nan, y: 1, radius: 4, weight: 1),
      HeatmapPoint(x: 1, y: 1, radius: .infinity, weight: 1),
      HeatmapPoint(x: 1, y: 1, radius: 0, weight: 1),
      HeatmapPoint(x: 1e30, y: -1e30, radius: 1e30, weight: 1),
    ]
    let d = Heatmap.density(width: 8, height: 8, points: points, intensity: 1)
    #expect(d.count == 64)
    #expect(Heatmap.density(width: 8, height: 8, points: [points[0], points[1], points[2]], intensity: 1).allSatisfy { $0 == 0 })
    #expect(Heatmap.density(width: 8, height: 8, points: [HeatmapPoint(x: 1, y: 1, radius: 2, weight: 1)], intensity: .infinity).allSatisfy { $0 == 0 })
  }
}
