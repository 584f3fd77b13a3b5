/// How large a frame mapsnap draws: a guard on memory and time, not a limit
/// of the renderer. Frames are streamed to PNG a strip at a time
/// (`FrameStream`), so a frame's memory grows with its width, not its area;
/// its time grows with its area, which is what the pixel limit bounds.
///
/// - At most `defaultMaxPixels` device pixels (2^30: 32768 × 32768) unless
///   the caller raises it (`ViewOverrides.maxPixels`, the CLI's
///   `--max-pixels`), up to `absoluteMaxPixels`.
/// - At most `maxSide` device pixels per side, whatever the pixel limit.
///
/// The logical size of the scene format (`map.size`, `--size`: 1 … 32768 per
/// side) is a separate rule; with a pixel ratio up to 16 a side reaches
/// 524,288 device pixels at most.
public enum FrameSizeLimit {
  /// Device pixels a frame may have unless raised: 2^30 (32768 × 32768,
  /// 4 GiB of RGBA were it held whole), about 9 minutes on one core at the
  /// 1:2000 benchmark's speed.
  public static let defaultMaxPixels = 1 << 30
  /// The most the pixel limit may be raised to: 2^36 (262144 × 262144).
  /// Every count the renderer keeps per frame (rows, bands, bins, byte
  /// offsets) is an `Int`; this keeps a frame's pixel count, its bytes as
  /// RGBA (2^38) and its PNG's size far inside them.
  public static let absoluteMaxPixels = 1 << 36
  /// Device pixels per side: 2^20 (1,048,576), the widest PNG mapsnap's
  /// decoder reads (so `diff` and `test` can read back any frame), well
  /// inside the rasteriser's 24.8 fixed-point range (2^23 pixels).
  public static let maxSide = 1 << 20
}
