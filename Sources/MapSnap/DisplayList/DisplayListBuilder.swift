import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Parts written by index from parallel workers, each index by one worker only.
private struct SendableBuffer: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<DisplayList>
}

/// Turns a resolved `MapState` into a `DisplayList` in device pixels: layers
/// bottom-up (a translucent layer as one group), and within a layer each
/// feature in order: polygon fills, then strokes, then markers.
///
/// Rules fixed here: sizes are logical pixels times the pixel ratio; strokes
/// thinner than one device pixel are drawn one pixel wide with their alpha
/// scaled by the width (hairlines); lines are clipped to the frame grown by
/// the stroke's reach before they are stroked, keeping the dash phase.
public struct DisplayListBuilder: Sendable {
  public let state: MapState
  /// Laid-out annotation and label text (empty when the map has none).
  public let text: TextPlacement
  /// Placed view annotations, drawn above everything else.
  public let boxes: [PlacedBox]
  /// Flattening tolerance in device pixels for round joins, caps and markers.
  public var tolerance = 0.1
  /// Worker threads; 0 means one per active processor.
  public var threads = 0

  /// Marker icons, loaded before the build (see `Snapshot.render`).
  public let icons: IconCache

  public init(
    state: MapState, text: TextPlacement = TextPlacement(), boxes: [PlacedBox] = [], icons: IconCache = IconCache(), threads: Int = 0
  ) {
    self.state = state
    self.text = text
    self.boxes = boxes
    self.icons = icons
    self.threads = threads
  }

  /// A run of work built into a part of its own: drawables or annotation
  /// texts of one layer, or labels (layer -1, above every layer).
  private struct Chunk {
    enum Kind { case drawables, annotations, labels, boxes }
    var kind: Kind
    var layer: Int
    var range: Range<Int>
  }

  /// Builds the list. Drawables are cut into chunks by their number of
  /// points (never by the thread count), chunks are built in parallel and
  /// appended in order, so the list is the same as a serial build.
  public func build() -> DisplayList {
    let v = state.viewport
    var list = DisplayList(width: v.deviceWidth, height: v.deviceHeight, background: state.background)
    var chunks: [Chunk] = []
    for (li, layer) in state.layers.enumerated() where layer.status.contains(.active) {
      var start = 0
      var points = 0
      for (i, d) in layer.drawables.enumerated() {
        points += d.geometry.pointCount
        if points >= Self.chunkPoints || i - start + 1 >= Self.chunkDrawables {
          chunks.append(Chunk(kind: .drawables, layer: li, range: start..<(i + 1)))
          start = i + 1
          points = 0
        }
      }
      if start < layer.drawables.count { chunks.append(Chunk(kind: .drawables, layer: li, range: start..<layer.drawables.count)) }
      if let texts = text.annotations[li] {
        for s in stride(from: 0, to: texts.count, by: Self.chunkDrawables) {
          chunks.append(Chunk(kind: .annotations, layer: li, range: s..<min(texts.count, s + Self.chunkDrawables)))
        }
      }
    }
    for s in stride(from: 0, to: text.labels.count, by: Self.chunkDrawables) {
      chunks.append(Chunk(kind: .labels, layer: -1, range: s..<min(text.labels.count, s + Self.chunkDrawables)))
    }
    for s in stride(from: 0, to: boxes.count, by: Self.chunkDrawables) {
      chunks.append(Chunk(kind: .boxes, layer: -1, range: s..<min(boxes.count, s + Self.chunkDrawables)))
    }
    let parts = buildParts(chunks, width: v.deviceWidth, height: v.deviceHeight)
    var open: Int? = nil
    func opacity(_ layer: Int?) -> Double { layer.map { $0 >= 0 ? state.layers[$0].opacity : 1 } ?? 1 }
    for (chunk, part) in zip(chunks, parts) {
      if open != chunk.layer {
        if opacity(open) < 1 { list.endGroup() }
        open = chunk.layer
        if opacity(open) < 1 { list.beginGroup(opacity: opacity(open)) }
      }
      list.append(part)
    }
    if opacity(open) < 1 { list.endGroup() }
    return list
  }

  static let chunkPoints = 4096
  static let chunkDrawables = 128

  private func buildParts(_ chunks: [Chunk], width: Int, height: Int) -> [DisplayList] {
    let empty = DisplayList(width: width, height: height, background: .transparent)
    var parts = [DisplayList](repeating: empty, count: chunks.count)
    let workers = min(chunks.count, threads > 0 ? threads : activeProcessorCount())
    if workers <= 1 {
      for (k, chunk) in chunks.enumerated() { build(chunk, into: &parts[k]) }
      return parts
    }
    let next = Atomic<Int>(0)
    parts.withUnsafeMutableBufferPointer { buffer in
      let out = SendableBuffer(buffer: buffer)
      DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
          let k = next.add(1, ordering: .relaxed).oldValue
          if k >= chunks.count { break }
          self.build(chunks[k], into: &out.buffer[k])
        }
      }
    }
    return parts
  }

  private func build(_ chunk: Chunk, into list: inout DisplayList) {
    switch chunk.kind {
    case .drawables:
      let drawables = state.layers[chunk.layer].drawables
      for i in chunk.range { draw(drawables[i], into: &list) }
    case .annotations:
      let texts = text.annotations[chunk.layer] ?? []
      for i in chunk.range { draw(texts[i], into: &list) }
    case .labels:
      for i in chunk.range { draw(text.labels[i], into: &list) }
    case .boxes:
      for i in chunk.range { draw(boxes[i], into: &list) }
    }
  }

  /// A view annotation: the rounded box in its border colour, the inside
  /// (inset by the border width) in its background, then the text.
  private func draw(_ b: PlacedBox, into list: inout DisplayList) {
    let s = b.style
    if s.borderWidth > 0 {
      list.fill(roundedRect(b.box, radius: s.cornerRadius), rule: .nonZero, color: s.borderColor)
    }
    let inner = b.box.insetBy(s.borderWidth)
    if !inner.isEmpty {
      list.fill(roundedRect(inner, radius: max(0, s.cornerRadius - s.borderWidth)), rule: .nonZero, color: s.background)
    }
    draw(b.text, into: &list)
  }

  /// A rectangle with round corners as one flattened contour.
  private func roundedRect(_ r: Rect, radius: Double) -> Path {
    let rad = min(radius, r.width / 2, r.height / 2)
    var p = Path()
    if rad <= 0.01 {
      p.addContour([Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)], closed: true)
      return p
    }
    let steps = max(2, Int((Double.pi / 2 / (2 * acos(max(-1, 1 - tolerance / rad)))).rounded(.up)))
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
  private func draw(_ t: PlacedText, into list: inout DisplayList) {
    if let atlas = t.atlas {
      if let color = t.haloColor, !t.haloMasks.isEmpty { list.drawMasks(atlas, t.haloMasks, color: color) }
      list.drawMasks(atlas, t.glyphMasks, color: t.color)
      return
    }
    if let color = t.haloColor, let halo = t.halo { list.fill(halo, rule: .nonZero, color: color) }
    if let path = t.path { list.fill(path, rule: .nonZero, color: t.color) }
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
    var color = color
    var dash = s.strokeDash
    if let pattern = dash {
      // A dash period under one device pixel cannot show as dashes: it is
      // drawn solid with its alpha scaled by the share of "on" length, which
      // also bounds the work a tiny pattern on a long line would cost.
      let full = pattern.count % 2 == 1 ? pattern + pattern : pattern
      let period = full.reduce(0, +) * ratio
      if period < 1 {
        let on = stride(from: 0, to: full.count, by: 2).reduce(0.0) { $0 + full[$1] } * ratio
        color = color.withOpacity(on / period)
        dash = nil
      }
    }
    guard let (width, paint) = hairline(width: s.strokeWidth * ratio, color: color) else { return }
    let reach = width / 2 * (s.lineJoin == .miter ? max(s.miterLimit, 1.5) : 1.5) + 2
    let frame = Rect(minX: -reach, minY: -reach, maxX: Double(list.width) + reach, maxY: Double(list.height) + reach)
    var clipped = Path()
    var phases: [Double] = []
    for i in path.contours.indices {
      PolylineClipper.clip(path.points(of: i), closed: path.contours[i].isClosed, to: frame, into: &clipped, phases: &phases)
    }
    if clipped.isEmpty { return }
    if let dash {
      clipped = dashed(clipped, pattern: dash.map { $0 * ratio }, offset: 0, phaseOffsets: phases)
    }
    let outline = strokeOutline(
      clipped, style: StrokeStyle(width: width, join: s.lineJoin, cap: s.lineCap, miterLimit: s.miterLimit), tolerance: tolerance)
    list.fill(outline, rule: .nonZero, color: paint)
  }

  /// The width and paint a stroke is drawn with: nil for no width; under one
  /// device pixel, one pixel wide with the alpha scaled by the width.
  private func hairline(width: Double, color: Color) -> (Double, Color)? {
    guard width > 0 else { return nil }
    return width < 1 ? (1, color.withOpacity(width)) : (width, color)
  }

  private func drawMarker(_ m: MarkerStyle, at point: Point, into list: inout DisplayList) {
    let ratio = state.viewport.pixelRatio
    if let path = m.icon {
      // A missing or unreadable icon was reported on its layer; it draws nothing.
      guard case .success(let image) = icons.image(atPath: path) else { return }
      list.drawImage(image, in: iconRect(for: image, at: point, size: m.size, offset: m.offset, pixelRatio: ratio), opacity: m.opacity)
      return
    }
    let center = point + Point(m.offset.0 * ratio, m.offset.1 * ratio)
    let size = m.size * ratio
    let reach = size * 1.5 + m.strokeWidth * ratio
    guard center.x > -reach, center.y > -reach, center.x < Double(list.width) + reach, center.y < Double(list.height) + reach else { return }
    let shape = markerPath(m.shape, at: center, size: size, tolerance: tolerance)
    if let fill = m.fill { list.fill(shape, rule: .nonZero, color: fill.withOpacity(m.opacity)) }
    if let stroke = m.stroke, let (width, paint) = hairline(width: m.strokeWidth * ratio, color: stroke.withOpacity(m.opacity)) {
      let outline = strokeOutline(shape, style: StrokeStyle(width: width, join: .miter, cap: .butt, miterLimit: 4), tolerance: tolerance)
      list.fill(outline, rule: .nonZero, color: paint)
    }
  }
}
