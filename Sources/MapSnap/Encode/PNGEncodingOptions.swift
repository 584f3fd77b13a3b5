/// Knobs for ``PNGEncoder``.
///
/// zlib always runs with `Z_DEFAULT_STRATEGY` and a 256 KiB compression buffer
/// (so large images get few IDAT chunks).
public struct PNGEncodingOptions: Sendable, Equatable, Hashable {
  /// zlib compression level, `0...9` (0 stores, 9 is slowest). Default 2.
  public var compressionLevel: Int
  /// Row filtering. Default ``PNGFilter/none``.
  public var filter: PNGFilter

  /// Threads compressing with ``PNGFilter/none``; 0 means one per active
  /// processor. The bytes written are the same for every value: the zlib
  /// stream is cut into segments by image width alone.
  public var threads: Int

  /// Palette (PNG8) output: nil (the default) writes true colour (RGB or
  /// RGBA); a ``PaletteOptions`` writes colour type 3 with at most that many
  /// colours (``PNGEncoder``'s palette rule).
  public var palette: PaletteOptions?

  public init(compressionLevel: Int = 2, filter: PNGFilter = .none, threads: Int = 0, palette: PaletteOptions? = nil) {
    self.compressionLevel = compressionLevel
    self.filter = filter
    self.threads = threads
    self.palette = palette
  }

  /// Level 2, no filtering: the default, tuned for encode speed.
  public static let fast = PNGEncodingOptions(compressionLevel: 2, filter: .none)
  /// Level 9, no filtering: the smallest files of zlib's levels on map frames
  /// (level 6 is larger than level 2 on frames with haloed text), about
  /// 4–6 times slower than `fast`.
  public static let small = PNGEncodingOptions(compressionLevel: 9, filter: .none)
}
