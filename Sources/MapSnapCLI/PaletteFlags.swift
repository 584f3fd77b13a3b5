import ArgumentParser
import MapSnap

/// `--palette N` and `--dither`: palette (PNG8) output; shared by `render`
/// and `batch`.
struct PaletteFlags: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Write a palette PNG (PNG8, colour type 3) of at most N colours, 2 to 256, chosen by mapsnap's quantiser (Oklab; colours of thin lines kept). Lossless when the frame has at most N colours.",
      valueName: "N"))
  var palette: Int?

  @Flag(help: "With --palette: Floyd–Steinberg dithering of the colours between palette entries (off by default: map fills are flat).")
  var dither = false

  func validate() throws {
    if let palette, !PaletteOptions.allowedColors.contains(palette) {
      throw ValidationError("--palette must be 2 to 256 colours, got \(palette)")
    }
    if dither && palette == nil { throw ValidationError("--dither needs --palette N") }
  }

  /// `encoding` with the palette asked for (unchanged without `--palette`).
  func applied(to encoding: PNGEncodingOptions) -> PNGEncodingOptions {
    var out = encoding
    out.palette = palette.map { PaletteOptions(colors: $0, dither: dither) }
    return out
  }
}
