import ArgumentParser
import MapSnap

/// `--palette N` and `--dither`: palette (PNG8) output; shared by `render`
/// and `batch`. What they ask for is `settings`.
struct PaletteFlags: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Write a palette PNG (PNG8, colour type 3) of at most N colours, 2 to 256, chosen by mapsnap's quantiser (Oklab; colours of thin lines kept). Lossless when the frame has at most N colours.",
      valueName: "N"))
  var palette: Int?

  @Flag(help: "With --palette: Floyd–Steinberg dithering of the colours between palette entries (off by default: map fills are flat).")
  var dither = false

  func validate() throws { try settings.validate() }

  /// The values given, as plain data.
  var settings: PaletteSettings { PaletteSettings(palette: palette, dither: dither) }
}
