internal import _MapSnapRaster

/// Turns a style's draw commands (`StyleFrameState.commands`) into display
/// list fills: areas filled even-odd, lines stroked (dashed, offset), discs
/// with their stroke, each cut to its tile's square when it has one.
enum StyleDrawing {
  /// Adds `commands` to `list`, in order.
  static func draw(_ commands: ArraySlice<StyleDrawCommand>, into list: inout DisplayList) {
    let tolerance = Flattening.tolerance
    for c in commands {
      switch c.shape {
      case .frame:
        var p = Path()
        let w = Double(list.width), h = Double(list.height)
        p.addContour([Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)], closed: true)
        list.fill(p, rule: .nonZero, color: c.color)
      case .area(let path):
        let cut = c.clip.map { ConvexClip.clip(path, to: $0) } ?? path
        guard !cut.isEmpty else { continue }
        list.fill(cut, rule: .evenOdd, color: c.color)
      case .line(let path, let style, let dash, let offset):
        var line = offset == 0 ? path : LineOffset.offset(path, by: offset, miterLimit: style.miterLimit)
        if let dash { line = dashed(line, pattern: dash) }
        if let clip = c.clip {
          let outline = ConvexClip.clip(strokeOutline(line, style: style, tolerance: tolerance), to: clip)
          guard !outline.isEmpty else { continue }
          list.fill(outline, rule: .nonZero, color: c.color)
        } else {
          _ = list.fillStroke(of: line, style: style, tolerance: tolerance, color: c.color)
        }
      case .circles(let points, let radius, let strokeWidth, let strokeColor):
        // The stroke lies outside the disc, as MapLibre draws it: the disc
        // and its ring are one shape of radius `radius + strokeWidth`, the
        // ring painted over the disc.
        var discs = Path()
        var rings = Path()
        for p in points {
          if radius > 0 { discs.append(markerPath(.circle, at: p, size: 2 * radius, tolerance: tolerance)) }
          if strokeWidth > 0 {
            rings.append(markerPath(.circle, at: p, size: 2 * (radius + strokeWidth), tolerance: tolerance))
            if radius > 0 { rings.append(reversed(markerPath(.circle, at: p, size: 2 * radius, tolerance: tolerance))) }
          }
        }
        if !discs.isEmpty { list.fill(discs, rule: .nonZero, color: c.color) }
        if !rings.isEmpty { list.fill(rings, rule: .nonZero, color: strokeColor) }
      }
    }
  }

  /// `path` with every contour's direction reversed (a hole under nonzero).
  private static func reversed(_ path: Path) -> Path {
    var out = Path()
    for i in path.contours.indices {
      out.addContour(path.points(of: i).reversed(), closed: path.contours[i].isClosed)
    }
    return out
  }
}
