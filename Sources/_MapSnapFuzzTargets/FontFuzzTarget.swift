import MapSnap

/// `font`: bytes read as a font file of a style's `font-faces` (`F` →
/// `face.ttf`), then drawn at 64×64 by a style whose symbol layer writes
/// Latin letters and a Devanagari conjunct at a point and along a line:
/// FreeType's reading of the file, its outlines made into SDF glyphs
/// (`StyleFontFile`, `LocalGlyphs.make`), HarfBuzz's shaping of the
/// Devanagari run. Code points the file lacks come from the bundled fonts.
public enum FontFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("font")
    defer { folder.remove() }
    _ = folder.write(data, to: "face.ttf")
    return FrameRenderer.render(json: style, in: folder.path)
  }

  static let style = """
    {"version": 8, "center": [0, 0], "zoom": 3, "font-faces": {"F": "face.ttf"},
     "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
       {"type": "Feature", "properties": {"t": "Ag क्षि"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
       {"type": "Feature", "properties": {"t": "Ag"}, "geometry": {"type": "LineString", "coordinates": [[-20, -10], [20, -8]]}}]}}},
     "layers": [{"id": "p", "type": "symbol", "source": "g", "filter": ["==", "$type", "Point"],
                 "layout": {"text-field": ["get", "t"], "text-font": ["F"], "text-allow-overlap": true},
                 "paint": {"text-halo-width": 2, "text-halo-color": "#fff"}},
                {"id": "l", "type": "symbol", "source": "g", "filter": ["==", "$type", "LineString"],
                 "layout": {"text-field": ["get", "t"], "text-font": ["F"], "symbol-placement": "line", "symbol-spacing": 20}}]}
    """
}
