internal import _MapSnapRaster
internal import _MapSnapStyle

/// The scene format's named colours: CSS Color Module Level 4's table
/// (`CSSNamedColorTable`, shared with the style specification's colours),
/// as the renderer's `Color`.
enum CSSNamedColors {
  /// Lowercase name and 0xRRGGBB value, in alphabetical order.
  static var table: [(name: String, rgb: UInt32)] { CSSNamedColorTable.table }

  /// The lowercase names, in alphabetical order.
  static var names: [String] { CSSNamedColorTable.names }

  /// The colour called `name`, which must already be lowercase.
  static func color(lowercasedName name: String) -> Color? {
    guard let rgb = CSSNamedColorTable.rgb(lowercasedName: name) else { return nil }
    return Color(r: UInt8(rgb >> 16), g: UInt8((rgb >> 8) & 0xFF), b: UInt8(rgb & 0xFF))
  }
}
