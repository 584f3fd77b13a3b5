/// Turns a resolved `MapState` into a `DisplayList` in device pixels: layers
/// bottom-up (a translucent layer as one group), and within a layer each
/// feature in order: polygon fills, then strokes, then markers.
///
/// Rules fixed here: sizes are logical pixels times the pixel ratio; strokes
/// thinner than one device pixel are drawn one pixel wide with their alpha
/// scaled by the width (hairlines); lines are clipped to the frame grown by
/// the stroke's reach before they are stroked, keeping the dash phase.
public struct DisplayListBuilder {
  public let state: MapState
  /// Flattening tolerance in device pixels for round joins, caps and markers.
  public var tolerance = 0.1

  public init(state: MapState) {
    self.state = state
  }

  public func build() -> DisplayList {
    let v = state.viewport
    var list = DisplayList(width: v.deviceWidth, height: v.deviceHeight, background: state.background)
    for layer in state.layers where layer.status.contains(.active) && !layer.drawables.isEmpty {
      let grouped = layer.opacity < 1
      if grouped { list.beginGroup(opacity: layer.opacity) }
      for d in layer.drawables { draw(d, into: &list) }
      if grouped { list.endGroup() }
    }
    return list
  }

  private func draw(_ d: Drawable, into list: inout DisplayList) {
    let v = state.viewport
    let s = d.style
    let g = d.geometry
    if !g.polygons.isEmpty {
      var rings = Path()
      for polygon in g.polygons {
        for ring in polygon { rings.addContour(ring.lazy.map(v.toDevice), closed: true) }
      }
      if let fill = s.fill { list.fill(rings, rule: s.fillRule, color: fill) }
      if let stroke = s.stroke { self.stroke(rings, style: s, color: stroke, into: &list) }
    }
    if !g.lines.isEmpty, let stroke = s.stroke {
      var lines = Path()
      for line in g.lines { lines.addContour(line.lazy.map(v.toDevice), closed: false) }
      self.stroke(lines, style: s, color: stroke, into: &list)
    }
    if !g.points.isEmpty, let marker = s.marker {
      for p in g.points { drawMarker(marker, at: v.toDevice(p), into: &list) }
    }
  }

  private func stroke(_ path: Path, style s: Style, color: Color, into list: inout DisplayList) {
    let ratio = state.viewport.pixelRatio
    var width = s.strokeWidth * ratio
    guard width > 0 else { return }
    var paint = color
    if width < 1 {
      paint = color.withOpacity(width)
      width = 1
    }
    let reach = width / 2 * (s.lineJoin == .miter ? max(s.miterLimit, 1.5) : 1.5) + 2
    let frame = Rect(minX: -reach, minY: -reach, maxX: Double(list.width) + reach, maxY: Double(list.height) + reach)
    var clipped = Path()
    var phases: [Double] = []
    for i in path.contours.indices {
      PolylineClipper.clip(path.points(of: i), closed: path.contours[i].isClosed, to: frame, into: &clipped, phases: &phases)
    }
    if clipped.isEmpty { return }
    if let dash = s.strokeDash {
      clipped = dashed(clipped, pattern: dash.map { $0 * ratio }, offset: 0, phaseOffsets: phases)
    }
    let outline = strokeOutline(
      clipped, style: StrokeStyle(width: width, join: s.lineJoin, cap: s.lineCap, miterLimit: s.miterLimit), tolerance: tolerance)
    list.fill(outline, rule: .nonZero, color: paint)
  }

  private func drawMarker(_ m: MarkerStyle, at point: Point, into list: inout DisplayList) {
    let ratio = state.viewport.pixelRatio
    let center = point + Point(m.offset.0 * ratio, m.offset.1 * ratio)
    let size = m.size * ratio
    let reach = size * 1.5 + m.strokeWidth * ratio
    guard center.x > -reach, center.y > -reach, center.x < Double(list.width) + reach, center.y < Double(list.height) + reach else { return }
    let shape = markerPath(m.shape, at: center, size: size, tolerance: tolerance)
    if let fill = m.fill { list.fill(shape, rule: .nonZero, color: fill.withOpacity(m.opacity)) }
    if let stroke = m.stroke, m.strokeWidth > 0 {
      var width = m.strokeWidth * ratio
      var paint = stroke.withOpacity(m.opacity)
      if width < 1 {
        paint = paint.withOpacity(width)
        width = 1
      }
      let outline = strokeOutline(shape, style: StrokeStyle(width: width, join: .miter, cap: .butt, miterLimit: 4), tolerance: tolerance)
      list.fill(outline, rule: .nonZero, color: paint)
    }
  }
}
