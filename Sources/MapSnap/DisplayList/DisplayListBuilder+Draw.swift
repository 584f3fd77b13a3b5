internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

extension DisplayListBuilder {
  /// A view annotation: the rounded box in its border colour, the inside
  /// (inset by the border width) in its background, then the text.
  func draw(_ b: PlacedBox, text: PreparedText, into list: inout DisplayList) -> Bool {
    let s = b.style
    var drew = false
    if s.borderWidth > 0 {
      drew = list.fill(roundedRect(b.box, radius: s.cornerRadius), rule: .nonZero, color: s.borderColor) || drew
    }
    let inner = b.box.insetBy(s.borderWidth)
    if !inner.isEmpty {
      drew = list.fill(roundedRect(inner, radius: max(0, s.cornerRadius - s.borderWidth)), rule: .nonZero, color: s.background) || drew
    }
    return draw(text, into: &list) || drew
  }

  /// A rectangle with round corners as one flattened contour.
  func roundedRect(_ r: Rect, radius: Double) -> Path {
    let rad = min(radius, r.width / 2, r.height / 2)
    var p = Path()
    if rad <= 0.01 {
      p.addContour([Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)], closed: true)
      return p
    }
    let steps = Flattening.arcSegments(sweep: .pi / 2, radius: rad, tolerance: tolerance)
    var pts: [Point] = []
    let corners = [
      (Point(r.maxX - rad, r.minY + rad), -Double.pi / 2), (Point(r.maxX - rad, r.maxY - rad), 0.0),
      (Point(r.minX + rad, r.maxY - rad), Double.pi / 2), (Point(r.minX + rad, r.minY + rad), Double.pi),
    ]
    for (c, start) in corners {
      for k in 0...steps {
        let a = start + Double(k) / Double(steps) * Double.pi / 2
        pts.append(Point(c.x + rad * cos(a), c.y + rad * sin(a)))
      }
    }
    p.addContour(pts, closed: true)
    return p
  }

  /// A text: its halo (the outlines stroked with round joins, reaching
  /// `haloWidth` beyond them) under the glyphs.
  func draw(_ t: PreparedText, into list: inout DisplayList) -> Bool {
    var drew = false
    if let atlas = t.atlas {
      if let color = t.haloColor, !t.haloMasks.isEmpty { drew = list.drawMasks(atlas, t.haloMasks, color: color) }
      return list.drawMasks(atlas, t.glyphMasks, color: t.color) || drew
    }
    if let color = t.haloColor, let halo = t.halo { drew = list.fill(halo, rule: .nonZero, color: color) }
    if let path = t.path { drew = list.fill(path, rule: .nonZero, color: t.color) || drew }
    return drew
  }

  /// Draws a feature; true when any of its commands reached the frame.
  /// `solid`: its dashes did not fit the frame's budget. A fill or stroke
  /// that alone could make more than `maxEdges` edges is not built, and
  /// `tooBig` says so.
  func draw(_ d: Drawable, into list: inout DisplayList, solid: Bool, maxEdges: Int, tooBig: inout Bool) -> Bool {
    let v = state.viewport
    let s = d.style
    let g = d.geometry
    var drew = false
    if !g.polygons.isEmpty {
      var rings = Path()
      rings.points.reserveCapacity(g.pointCount)
      for polygon in g.polygons {
        for ring in polygon { rings.addContour(ring.lazy.map(v.toDevice), closed: true) }
      }
      DevicePrecision.reduceVertices(&rings)
      if let fill = s.fill {
        if rings.points.count > maxEdges { tooBig = true } else { drew = list.fill(rings, rule: s.fillRule, color: fill) || drew }
      }
      if let stroke = s.stroke {
        drew = self.stroke(rings, style: s, color: stroke, solid: solid, maxEdges: maxEdges, tooBig: &tooBig, into: &list) || drew
      }
    }
    if !g.lines.isEmpty, let stroke = s.stroke {
      var lines = Path()
      lines.points.reserveCapacity(g.pointCount)
      for line in g.lines { lines.addContour(line.lazy.map(v.toDevice), closed: false) }
      DevicePrecision.reduceVertices(&lines)
      drew = self.stroke(lines, style: s, color: stroke, solid: solid, maxEdges: maxEdges, tooBig: &tooBig, into: &list) || drew
    }
    if !g.points.isEmpty, let marker = s.marker {
      for p in g.points { drew = drawMarker(marker, at: v.toDevice(p), into: &list) || drew }
    }
    return drew
  }

  func stroke(
    _ path: Path, style s: Style, color: Color, solid: Bool, maxEdges: Int, tooBig: inout Bool, into list: inout DisplayList
  ) -> Bool {
    let ratio = state.viewport.pixelRatio
    var color = color
    var dash = s.strokeDash
    if let pattern = dash {
      // A dash period under one device pixel cannot show as dashes: it is
      // drawn solid with its alpha scaled by the share of "on" length, which
      // also bounds the work a tiny pattern on a long line would cost. So is
      // a stroke whose dashes did not fit the frame's budget.
      let written = DashPattern(pattern)
      let period = written.period * ratio
      if period < 1 || solid {
        let on = written.onLength * ratio
        color = color.withOpacity(on / period)
        dash = nil
      }
    }
    guard let (width, paint) = hairline(width: s.strokeWidth * ratio, color: color) else { return false }
    let reach = SymbolReach.stroke(width: width, join: s.lineJoin, miterLimit: s.miterLimit) + Self.clipMargin
    let frame = Rect(minX: -reach, minY: -reach, maxX: Double(list.width) + reach, maxY: Double(list.height) + reach)
    var phases: [Double] = []
    var clipped = PolylineClipper.clip(path, to: frame, phases: &phases)
    if clipped.isEmpty { return false }
    if let dash {
      clipped = dashed(clipped, pattern: dash.map { $0 * ratio }, offset: 0, phaseOffsets: phases)
    }
    let style = StrokeStyle(width: width, join: s.lineJoin, cap: s.lineCap, miterLimit: s.miterLimit)
    guard strokeOutlineFits(clipped, style: style, tolerance: tolerance, maxPoints: maxEdges) else {
      tooBig = true
      return false
    }
    return list.fillStroke(of: clipped, style: style, tolerance: tolerance, color: paint)
  }

  /// The width and paint a stroke is drawn with: nil for no width; under one
  /// device pixel, one pixel wide with the alpha scaled by the width.
  func hairline(width: Double, color: Color) -> (Double, Color)? {
    guard width > 0 else { return nil }
    return width < 1 ? (1, color.withOpacity(width)) : (width, color)
  }

  func drawMarker(_ m: MarkerStyle, at point: Point, into list: inout DisplayList) -> Bool {
    let ratio = state.viewport.pixelRatio
    if m.icon != nil {
      // A missing or unreadable icon was reported on its layer; it draws nothing.
      guard let image = inputs.icon(of: m) else { return false }
      return list.drawImage(image, in: MarkerBox.iconRect(for: IconSize(image), at: point, size: m.size, offset: m.offset, pixelRatio: ratio), opacity: m.opacity)
    }
    let center = point + Point(m.offset.0 * ratio, m.offset.1 * ratio)
    let reach = SymbolReach.marker(m, icon: nil) * ratio
    guard center.x > -reach, center.y > -reach, center.x < Double(list.width) + reach, center.y < Double(list.height) + reach else { return false }
    let shape = markerPath(m.shape, at: center, size: m.size * ratio, tolerance: tolerance)
    var drew = false
    if let fill = m.fill { drew = list.fill(shape, rule: .nonZero, color: fill.withOpacity(m.opacity)) }
    if let stroke = m.stroke, let (width, paint) = hairline(width: m.strokeWidth * ratio, color: stroke.withOpacity(m.opacity)) {
      let style = StrokeStyle(width: width, join: .miter, cap: .butt, miterLimit: 4)
      drew = list.fillStroke(of: shape, style: style, tolerance: tolerance, color: paint) || drew
    }
    return drew
  }

  /// The scale bar and the north arrow: each shape over a white halo of
  /// `FurniturePlacer.halo` logical pixels, then their texts.
  func drawFurniture(into list: inout DisplayList) {
    let r = state.viewport.pixelRatio
    let halo = StrokeStyle(width: 2 * FurniturePlacer.halo * r, join: .miter, cap: .butt, miterLimit: 4)
    for (shape, color) in [furniture.scaleBar.map { ($0.shape, $0.color) }, furniture.northArrow.map { ($0.shape, $0.color) }].compactMap({ $0 }) {
      _ = list.fillStroke(of: shape, style: halo, tolerance: tolerance, color: .white)
      _ = list.fill(shape, rule: .nonZero, color: color)
    }
    for t in furnitureText { _ = draw(t, into: &list) }
  }
}
