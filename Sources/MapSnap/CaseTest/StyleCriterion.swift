/// The render suite's verdict on a frame: pixelmatch 4.0.2 (the version the
/// suite pins, `PixelMatch.AntialiasDetection.pixelmatch4`) with threshold
/// 0.13 and anti-aliased pixels not counted, between the frame's
/// **premultiplied** pixels, taken as if they were straight, and the
/// expected image's pixels as the file stores them: the expected images were
/// read back from a WebGL framebuffer, premultiplied, and written unchanged.
/// A frame passes when the differing pixels are at most `allowed` of all,
/// and is "within 1 %" when they are at most 1 % of all.
public enum StyleCriterion {
  /// The suite's pixelmatch threshold.
  public static let threshold = 0.13
  /// The fraction of pixels "within 1 %" allows.
  public static let nearRatio = 0.01

  /// The comparison the suite makes.
  public static var match: PixelMatch { PixelMatch(threshold: threshold, includeAA: false, antialiasing: .pixelmatch4) }

  /// What the comparison found.
  public struct Result: Sendable, Equatable {
    public var counts: PixelMatch.Counts
    /// Differing pixels as a fraction of all.
    public var ratio: Double
    public var passed: Bool
    public var withinOnePercent: Bool
  }

  /// Compares `frame` (premultiplied RGBA, `width × height`) with `expected`
  /// (RGBA as stored, one `UInt32` per pixel, R in the low byte); writes the
  /// diff image into `diff` when given.
  public static func judge(
    frame: UnsafeBufferPointer<UInt32>, expected: UnsafeBufferPointer<UInt32>, width: Int, height: Int, allowed: Double,
    diff: UnsafeMutableBufferPointer<UInt32>? = nil
  ) -> Result {
    let counts = match.compare(frame, expected, width: width, height: height, diff: diff, threads: 1)
    let pixels = Double(max(width * height, 1))
    let ratio = Double(counts.differing) / pixels
    return Result(counts: counts, ratio: ratio, passed: ratio <= allowed, withinOnePercent: ratio <= nearRatio)
  }
}
