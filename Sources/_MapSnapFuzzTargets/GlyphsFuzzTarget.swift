import MapSnap

/// `glyphs`: bytes read as a style's SDF glyph range 0–255 of the fontstack
/// `F` (`GlyphRange`: the protocol buffers, each glyph's metrics and field
/// checked against its size), then drawn at 64×64 by a style whose symbol
/// layer writes "Ag Ag" with a halo at a point, "Ag" along a line, and
/// "Ag" over two lines. Code points the range lacks come from the bundled
/// fonts (`LocalGlyphs`).
public enum GlyphsFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("glyphs")
    defer { folder.remove() }
    _ = folder.write(data, to: "F/0-255.pbf")
    return FrameRenderer.render(json: style, in: folder.path)
  }

  static let style = """
    {"version": 8, "center": [0, 0], "zoom": 3, "glyphs": "{fontstack}/{range}.pbf",
     "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
       {"type": "Feature", "properties": {"t": "Ag Ag"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
       {"type": "Feature", "properties": {"t": "Ag\\nAg"}, "geometry": {"type": "Point", "coordinates": [-5, 5]}},
       {"type": "Feature", "properties": {"t": "Ag"}, "geometry": {"type": "LineString", "coordinates": [[-20, -10], [20, -8]]}}]}}},
     "layers": [{"id": "p", "type": "symbol", "source": "g", "filter": ["==", "$type", "Point"],
                 "layout": {"text-field": ["get", "t"], "text-font": ["F"], "text-max-width": 2, "text-allow-overlap": true},
                 "paint": {"text-halo-width": 2, "text-halo-color": "#fff"}},
                {"id": "l", "type": "symbol", "source": "g", "filter": ["==", "$type", "LineString"],
                 "layout": {"text-field": ["get", "t"], "text-font": ["F"], "symbol-placement": "line", "symbol-spacing": 20}}]}
    """
}
