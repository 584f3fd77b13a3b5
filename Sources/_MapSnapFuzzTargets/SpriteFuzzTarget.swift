import MapSnap

/// `sprite`: bytes read as a style's sprite index (`sprite.json`) over a
/// fixed 8×8 sheet, then drawn at 64×64 by a style whose background and
/// fill take the patterns `a` and `b`, and whose symbol layers draw them as
/// icons along the square's edge and fitted to a text (`StyleSprite`:
/// entries checked against the sheet and cut from it; the pattern paint,
/// the icon layout).
public enum SpriteFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("sprite")
    defer { folder.remove() }
    _ = folder.write(data, to: "sprite.json")
    _ = folder.write(sheet, to: "sprite.png")
    return FrameRenderer.render(json: style, in: folder.path)
  }

  /// The style the index is drawn with: a patterned background and a patterned square.
  static let style = """
    {"version": 8, "center": [0, 0], "zoom": 3, "sprite": "sprite",
     "sources": {"g": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[-20, -20], [20, -20], [20, 20], [-20, 20], [-20, -20]]]}}},
     "layers": [{"id": "bg", "type": "background", "paint": {"background-pattern": "a"}},
                {"id": "f", "type": "fill", "source": "g", "paint": {"fill-pattern": "b", "fill-opacity": 0.8}},
                {"id": "i", "type": "symbol", "source": "g",
                 "layout": {"icon-image": "b", "icon-size": 1.5, "icon-rotate": 30, "symbol-placement": "line", "symbol-spacing": 10, "icon-allow-overlap": true}},
                {"id": "j", "type": "symbol", "source": "g",
                 "layout": {"icon-image": "a", "icon-text-fit": "both", "text-field": "x", "text-optional": true},
                 "paint": {"icon-color": "#f00", "icon-halo-width": 1, "icon-halo-color": "#00f"}}]}
    """

  /// An 8×8 RGBA PNG: four colour quarters, a translucent diagonal.
  static let sheet: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x08, 0x08, 0x06, 0x00, 0x00, 0x00, 0xC4, 0x0F, 0xBE,
    0x8B, 0x00, 0x00, 0x00, 0x4F, 0x49, 0x44, 0x41, 0x54, 0x78, 0xDA, 0x63, 0x38, 0x51, 0x71, 0xA7,
    0xE1, 0x44, 0x85, 0xC6, 0x7F, 0x20, 0xFD, 0x1F, 0x44, 0xCB, 0x01, 0x69, 0x39, 0x24, 0x9A, 0x01,
    0x2A, 0x09, 0x57, 0x24, 0x87, 0xA6, 0x88, 0x01, 0xA6, 0x13, 0xA6, 0x08, 0x97, 0x09, 0x70, 0x45,
    0x98, 0x26, 0xD8, 0x00, 0x25, 0x6D, 0x80, 0x92, 0x50, 0x5A, 0xCE, 0x06, 0xA8, 0x08, 0x42, 0xFF,
    0x07, 0xD1, 0x0C, 0xC8, 0x92, 0x27, 0xA0, 0x82, 0xC8, 0x8A, 0xB0, 0x99, 0x80, 0xA2, 0x08, 0x97,
    0x09, 0x70, 0x45, 0x00, 0x6D, 0x10, 0x8F, 0x89, 0xAD, 0x5C, 0x30, 0xA1, 0x00, 0x00, 0x00, 0x00,
    0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
  ]
}
