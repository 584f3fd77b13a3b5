/// Palette (PNG8) output: how many colours, and whether to dither. Set as
/// ``PNGEncodingOptions/palette``; nil there writes true colour.
///
/// With a palette the encoder writes colour type 3 (a `PLTE` chunk of at most
/// `colors` entries and a `tRNS` chunk when some entry is not opaque), the
/// colours chosen by ``PaletteQuantizer``. When the image has at most
/// `colors` distinct pixel values the palette holds exactly those colours and
/// the file decodes to the same pixels as the true-colour PNG.
public struct PaletteOptions: Sendable, Equatable, Hashable {
  /// The most palette entries, ``allowedColors`` (`2...256`). The palette
  /// may hold fewer when the image has fewer colours.
  public var colors: Int
  /// Floyd–Steinberg error diffusion when mapping pixels to the palette.
  /// Off by default: map frames are mostly flat fills, where dithering adds
  /// noise and file size. Pixels whose colour is exactly in the palette are
  /// never dithered (see ``PaletteQuantizer``).
  public var dither: Bool

  /// The palette sizes that may be asked for: 2 to 256 entries (PNG's
  /// palette holds at most 256; a one-colour palette is no useful choice).
  public static let allowedColors = 2...256
  /// The largest frame written as a palette PNG: 2^28 pixels (16384²). A
  /// palette is chosen from the whole frame, so unlike true-colour output
  /// (streamed a strip at a time) the frame is held whole: 1 GiB of RGBA
  /// plus 256 MiB of indices at this bound. Larger frames are refused
  /// (``PNGError/paletteFrameTooLarge(width:height:limit:)``).
  public static let maximumPixels = 1 << 28

  public init(colors: Int = 256, dither: Bool = false) {
    self.colors = colors
    self.dither = dither
  }
}
