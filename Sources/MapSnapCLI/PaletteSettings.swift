import ArgumentParser
import MapSnap

/// What `--palette` and `--dither` ask for, as plain values, whoever read
/// them (`PaletteFlags` through ArgumentParser, or `QuickRender`).
struct PaletteSettings: Equatable {
  var palette: Int? = nil
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
