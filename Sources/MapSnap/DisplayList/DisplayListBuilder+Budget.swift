internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

extension DisplayListBuilder {
  /// The dash budget, spent in drawing order before any dash is made: each
  /// dashed stroke costs the dashes its lines' length inside the frame (grown
  /// by the stroke's reach) holds; a stroke that would overspend the budget
  /// is drawn solid, alpha scaled by the pattern's "on" share, as a pattern
  /// finer than a pixel is. Returns the flat indices (`drawableFlags[layer]`
  /// + drawable) of the strokes drawn solid, and counts them per layer.
  func dashesOverBudget(_ drawableFlags: [Int], budget: FrameBudget, coverage: inout Coverage) -> Set<Int> {
    let v = state.viewport
    var spent = 0.0
    var solid = Set<Int>()
    for (li, layer) in state.layers.enumerated() where layer.status.contains(.active) {
      for i in layer.drawables.indices {
        // Read in place: most drawables have no dash, and a copy of each
        // (geometry, style, label) retains every reference it holds.
        guard let pattern = layer.drawables[i].style.strokeDash else { continue }
        let d = layer.drawables[i]
        let s = d.style
        guard s.stroke != nil, s.strokeWidth > 0, !d.geometry.lines.isEmpty || !d.geometry.polygons.isEmpty
        else { continue }
        let dash = DashPattern(pattern)
        let period = dash.period * v.pixelRatio
        guard period >= 1 else { continue }  // drawn solid anyway (see `stroke`)
        let width = max(1, s.strokeWidth * v.pixelRatio)
        let reach = SymbolReach.stroke(width: width, join: s.lineJoin, miterLimit: s.miterLimit) + Self.clipMargin
        let frame = Rect(minX: -reach, minY: -reach, maxX: Double(v.deviceWidth) + reach, maxY: Double(v.deviceHeight) + reach)
        var length = 0.0
        for polygon in d.geometry.polygons {
          for ring in polygon { length += Self.visibleLength(ring, closed: true, within: frame, v) }
        }
        for line in d.geometry.lines { length += Self.visibleLength(line, closed: false, within: frame, v) }
        let dashes = dash.dashes(along: length, scale: v.pixelRatio)
        if dashes.isFinite && spent + dashes <= Double(budget.dashes) {
          spent += dashes
        } else {
          solid.insert(drawableFlags[li] + i)
          coverage.overBudget[li, default: [:]][.dashes, default: 0] += 1
        }
      }
    }
    return solid
  }

  /// The length in device pixels of the parts of a line (a ring when
  /// `closed`) inside `frame`, segment by segment (Liang–Barsky).
  static func visibleLength(_ points: [Point], closed: Bool, within frame: Rect, _ v: Viewport) -> Double {
    guard points.count > 1 else { return 0 }
    var total = 0.0
    var a = v.toDevice(points[closed ? points.count - 1 : 0])
    for k in (closed ? 0 : 1)..<points.count {
      let b = v.toDevice(points[k])
      defer { a = b }
      guard a.isFinite, b.isFinite else { continue }
      let dx = b.x - a.x
      let dy = b.y - a.y
      var t0 = 0.0
      var t1 = 1.0
      // One side of the frame: p·t ≤ q keeps the segment inside it.
      func clip(_ p: Double, _ q: Double) -> Bool {
        if p == 0 { return q >= 0 }
        let t = q / p
        if p < 0 { if t > t1 { return false }; t0 = max(t0, t) } else { if t < t0 { return false }; t1 = min(t1, t) }
        return true
      }
      guard clip(-dx, a.x - frame.minX), clip(dx, frame.maxX - a.x), clip(-dy, a.y - frame.minY), clip(dy, frame.maxY - a.y),
        t1 > t0
      else { continue }
      total += (t1 - t0) * (dx * dx + dy * dy).squareRoot()
    }
    return total
  }
}
