import MapSnap

/// The result of comparing two straight-alpha RGBA8 images pixel by pixel.
public struct ImageComparison: Sendable {
  public let width: Int
  public let height: Int
  /// Pixels whose largest channel difference exceeds the tolerance.
  public let differingPixels: Int
  /// Largest channel difference seen anywhere.
  public let maxChannelDelta: Int
  /// A picture of the differences: the expected image faded to grey, differing
  /// pixels in red (straight RGBA8).
  public let diffImage: [UInt8]

  /// Compares `actual` with `expected` (same size, RGBA8 straight alpha). A
  /// pixel differs when any channel differs by more than `channelTolerance`
  /// (as resvg and tiny-skia count differences).
  public init(actual: [UInt8], expected: [UInt8], width: Int, height: Int, channelTolerance: Int) {
    precondition(actual.count == width * height * 4 && expected.count == actual.count)
    var diff = [UInt8](repeating: 0, count: actual.count)
    var differing = 0
    var maxDelta = 0
    for i in 0..<(width * height) {
      let o = i * 4
      var d = 0
      for c in 0..<4 { d = max(d, abs(Int(actual[o + c]) - Int(expected[o + c]))) }
      maxDelta = max(maxDelta, d)
      if d > channelTolerance {
        differing += 1
        diff[o] = 255
        diff[o + 1] = 0
        diff[o + 2] = 0
        diff[o + 3] = 255
      } else {
        // Faded luminance of the expected pixel, so the map stays recognisable.
        let y = (299 * Int(expected[o]) + 587 * Int(expected[o + 1]) + 114 * Int(expected[o + 2])) / 1000
        let faded = UInt8(255 - (255 - y * Int(expected[o + 3]) / 255) / 4)
        diff[o] = faded
        diff[o + 1] = faded
        diff[o + 2] = faded
        diff[o + 3] = 255
      }
    }
    self.width = width
    self.height = height
    self.differingPixels = differing
    self.maxChannelDelta = maxDelta
    self.diffImage = diff
  }
}

/// Straight RGBA8 pixels (as PNG holds them) to premultiplied `UInt32`s for the encoder.
public func premultiplied(_ rgba: [UInt8]) -> [UInt32] {
  var out = [UInt32](repeating: 0, count: rgba.count / 4)
  for i in 0..<out.count {
    let a = UInt32(rgba[i * 4 + 3])
    let r = (UInt32(rgba[i * 4]) * a + 127) / 255
    let g = (UInt32(rgba[i * 4 + 1]) * a + 127) / 255
    let b = (UInt32(rgba[i * 4 + 2]) * a + 127) / 255
    out[i] = r | g << 8 | b << 16 | a << 24
  }
  return out
}

/// Writes straight RGBA8 pixels as a PNG file.
public func writePNG(_ rgba: [UInt8], width: Int, height: Int, to path: String) throws {
  let pixels = premultiplied(rgba)
  let png = try pixels.withUnsafeBufferPointer { buf in
    try PNGEncoder.encode(premultipliedRGBA: buf, width: width, height: height, options: .fast)
  }
  try FileIO.stage(png, for: path).commit()
}
