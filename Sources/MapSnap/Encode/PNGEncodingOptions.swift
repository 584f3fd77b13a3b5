/// The deflate implementation of an unfiltered PNG's zlib stream.
public enum PNGDeflater: String, Sendable, Equatable, Hashable, CaseIterable {
  /// zlib, levels `0...9`: the same bytes on every machine.
  case zlib
  /// ISA-L's igzip (libisal, BSD-3-Clause, opened on first use), levels
  /// `0...3`: on map frames five to eight times faster than zlib's level 2,
  /// and 9–17 % larger. Its bytes are the same on every x86-64 processor
  /// with SSE4.2 (every one since 2008); igzip's plain-C fallback below
  /// that writes other bytes of the same pixels. An image whose scanlines
  /// fit in one segment (256 KiB: about 300 × 300 pixels) is deflated by
  /// zlib at the same level instead, which takes less time than opening
  /// libisal.
  case igzip

  /// The levels it takes.
  public var levels: ClosedRange<Int> { self == .igzip ? 0...3 : 0...9 }
}

/// Knobs for ``PNGEncoder``.
///
/// zlib always runs with `Z_DEFAULT_STRATEGY` and a 256 KiB compression buffer
/// (so large images get few IDAT chunks).
public struct PNGEncodingOptions: Sendable, Equatable, Hashable {
  /// The deflater's compression level (``PNGDeflater/levels``: zlib `0...9`,
  /// 0 stores and 9 is slowest; igzip `0...3`). Default 2.
  public var compressionLevel: Int
  /// Who deflates an unfiltered (``PNGFilter/none``) image's segments.
  /// The adaptive filter and palettes are libpng's own, written with zlib
  /// at ``compressionLevel`` whatever this says. Default ``PNGDeflater/zlib``.
  public var deflater: PNGDeflater
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

  public init(
    compressionLevel: Int = 2, filter: PNGFilter = .none, threads: Int = 0, palette: PaletteOptions? = nil,
    deflater: PNGDeflater = .zlib
  ) {
    self.compressionLevel = compressionLevel
    self.filter = filter
    self.threads = threads
    self.palette = palette
    self.deflater = deflater
  }

  /// The deflater the encoder runs: ``deflater`` for unfiltered images,
  /// zlib for the adaptive filter (libpng's own).
  public var effectiveDeflater: PNGDeflater { filter == .none ? deflater : .zlib }

  /// igzip level 2, no filtering: the default (`--compression fast`), tuned
  /// for encode speed.
  public static let fast = PNGEncodingOptions(compressionLevel: 2, filter: .none, deflater: .igzip)
  /// zlib level 2, no filtering (`--compression balanced`): the default
  /// before igzip, a tenth or so smaller than `fast`, the same bytes on any
  /// processor.
  public static let balanced = PNGEncodingOptions(compressionLevel: 2, filter: .none)
  /// Level 9, no filtering: the smallest files of zlib's levels on map frames
  /// (level 6 is larger than level 2 on frames with haloed text), about
  /// 4–6 times slower than `balanced`.
  public static let small = PNGEncodingOptions(compressionLevel: 9, filter: .none)
}
