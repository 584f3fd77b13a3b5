internal import _MapSnapRaster
internal import _MapSnapStyle

#if canImport(Glibc)
  import Glibc
#endif

extension StyleSymbolLayout {
  /// `f`'s icon (`icon-image` from the sprite), its box about the anchor
  /// (MapLibre's `shapeIcon`: `icon-anchor` on the image's size over its
  /// pixel ratio, moved by `icon-offset`, all times `icon-size`; or the
  /// text's box grown by `icon-text-fit-padding` under `icon-text-fit`).
  mutating func shapeIcon(
    _ f: EvaluationFeature, text: ShapedSymbol.TextPart?, textSize: Double, placement: String, missing: inout [String]
  ) -> ShapedSymbol.IconPart? {
    let p = properties
    guard layer.layout["icon-image"] != nil, let named = p.iconImage.imageName(f) else { return nil }
    let name = hasTokens("icon-image") ? Self.resolveTokens(named, f) : named
    guard !name.isEmpty else { return nil }
    guard let image = sprite.image(name) else {
      if !missingImages.contains(name) { missingImages.append(name) }
      missing.append("icon \(Echo.quoted(name)): not in the sprite")
      return nil
    }
    let size = max(0, p.iconSize.number(f))
    let w = Double(image.image.width) / image.pixelRatio, h = Double(image.image.height) / image.pixelRatio
    let align = SymbolShaping.alignment(p.iconAnchor.string(f) ?? "center")
    let offset = p.iconOffset.pair(f)
    var box = Rect(
      minX: (offset.x - w * align.x) * size, minY: (offset.y - h * align.y) * size, maxX: (offset.x - w * align.x + w) * size,
      maxY: (offset.y - h * align.y + h) * size)
    let fit = p.iconTextFit.string(f) ?? "none"
    if fit != "none", let text {
      let k = textSize / Self.em
      let s = text.shaping
      let pad = p.iconTextFitPadding.padding(f)
      let tl = s.left * k, tr = s.right * k, tt = s.top * k, tb = s.bottom * k
      let fitWidth = fit == "width" || fit == "both", fitHeight = fit == "height" || fit == "both"
      let iw = box.width, ih = box.height
      let x0 = fitWidth ? tl - pad[3] : tl + (tr - tl - iw) / 2
      let y0 = fitHeight ? tt - pad[0] : tt + (tb - tt - ih) / 2
      box = Rect(
        minX: x0, minY: y0, maxX: fitWidth ? tr + pad[1] : x0 + iw, maxY: fitHeight ? tb + pad[2] : y0 + ih)
    }
    if texels[name] == nil { texels[name] = SpriteTexels(image.image) }
    let rotate = p.iconRotate.number(f)
    let mapAligned: Bool
    switch p.iconRotationAlignment.string(f) ?? "auto" {
    case "map": mapAligned = true
    case "viewport": mapAligned = false
    default: mapAligned = placement != "point"
    }
    let sdf =
      image.sdf
      ? SDFPaint(
        color: p.iconColor.styleColor(f), haloColor: p.iconHaloColor.styleColor(f), haloWidth: max(0, p.iconHaloWidth.number(f)),
        haloBlur: max(0, p.iconHaloBlur.number(f)), opacity: 1, size: size, pixelRatio: camera.pixelRatio) : nil
    let translate = p.iconTranslate.pair(f)
    return ShapedSymbol.IconPart(
      name: name, image: image, texels: texels[name]!, box: box, fitted: fit != "none" && text != nil, padding: p.iconPadding.padding(f), rotate: rotate,
      translate: StylePaint.turned([translate.x, translate.y], anchor: p.iconTranslateAnchor.string(f), bearing: camera.bearing, ratio: camera.pixelRatio),
      opacity: min(1, max(0, p.iconOpacity.number(f))), sdf: sdf,
      linear: image.sdf || size != 1 || fit != "none" || image.pixelRatio != camera.pixelRatio || rotate != 0 || (mapAligned && camera.bearing != 0),
      allowOverlap: p.iconAllowOverlap.bool(f), ignorePlacement: p.iconIgnorePlacement.bool(f), optional: p.iconOptional.bool(f),
      keepUpright: p.iconKeepUpright.bool(f), mapAligned: mapAligned)
  }

  /// The symbol of `shaped` at `anchor` (device pixels); `path` is the
  /// line it stands on, nil for a point placement.
  func symbol(_ shaped: ShapedSymbol, at anchor: Point, path: SymbolLinePath?) -> StyleSymbol {
    let ratio = camera.pixelRatio
    let lineAngle: Double? = path.map { p in atan2(p.points[p.segment + 1].y - p.points[p.segment].y, p.points[p.segment + 1].x - p.points[p.segment].x) }
    /// The frame's turn under map-aligned parts: the line's direction, or the map's bearing.
    func turn(_ mapAligned: Bool) -> Double {
      guard mapAligned else { return 0 }
      return lineAngle ?? (-camera.bearing * .pi / 180)
    }
    var symbol = StyleSymbol(key: "", anchor: anchor, missing: shaped.missing, sortKey: shaped.sortKey ?? 0, order: 0)
    if let t = shaped.text {
      if let text = self.text(t, textSize: shaped.textSize, at: anchor, path: path, turn: turn(t.mapAligned), lineAngle: lineAngle) {
        symbol.text = text
        symbol.textVariants = shaped.textVariants.compactMap {
          self.text($0, textSize: shaped.textSize, at: anchor, path: path, turn: turn($0.mapAligned), lineAngle: lineAngle)
        }
      } else {
        symbol.lineTooShort = true
      }
    }
    if let i = shaped.icon {
      var angle = turn(i.mapAligned) + i.rotate * .pi / 180
      if i.keepUpright && i.mapAligned && lineAngle != nil { angle = Self.upright(angle) }
      let frame = QuadFrame(anchor: anchor + i.translate, angle: angle, scale: ratio)
      let b = i.box
      let pieces: [ImageWarp.Quad]
      if i.fitted, let cut = IconStretch.pieces(i.image, box: b) {
        pieces = cut.map { p in
          let r = p.box
          return ImageWarp.Quad(
            corners: [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)].map(frame.apply), texture: p.texture)
        }
      } else {
        // The atlas's one-texel border lies outside the image's box, in the
        // image's own pixels at its scale; an image fitted to text is drawn
        // with its border inside the text's box, as MapLibre draws it.
        let bx = i.fitted ? 0 : b.width / Double(i.image.image.width), by = i.fitted ? 0 : b.height / Double(i.image.image.height)
        let corners = [
          Point(b.minX - bx, b.minY - by), Point(b.maxX + bx, b.minY - by), Point(b.maxX + bx, b.maxY + by), Point(b.minX - bx, b.maxY + by),
        ].map(frame.apply)
        pieces = [ImageWarp.Quad(corners: corners, texture: Rect(minX: 0, minY: 0, maxX: Double(i.texels.width), maxY: Double(i.texels.height)))]
      }
      // A fitted image's collision box also covers what stands outside its content.
      let content = i.fitted ? IconStretch.contentPadding(i.image) : [0, 0, 0, 0]
      let pad = zip(i.padding, content).map { $0 + $1 }
      let boxes = Self.boxes(
        Rect(minX: b.minX - pad[3], minY: b.minY - pad[0], maxX: b.maxX + pad[1], maxY: b.maxY + pad[2]), frame: frame, alongLine: false)
      symbol.icon = StyleSymbol.Icon(
        name: i.name, texels: i.texels, pieces: pieces, sdf: i.sdf, opacity: i.opacity, linear: i.linear, boxes: boxes,
        allowOverlap: i.allowOverlap, ignorePlacement: i.ignorePlacement, optional: i.optional)
    }
    return symbol
  }

  /// A text part's quads and boxes at `anchor`: along `path` glyph by
  /// glyph when it turns with the map on a line, else as one block turned
  /// by `turn` and `text-rotate`; nil when a line label's glyphs fall off its line.
  func text(_ t: ShapedSymbol.TextPart, textSize: Double, at anchor: Point, path: SymbolLinePath?, turn: Double, lineAngle: Double?) -> StyleSymbol.Text? {
    let scale = textSize / Self.em * camera.pixelRatio
    let placed: (quads: [SDFQuad], boxes: [Rect])
    if let path, t.mapAligned {
      guard let along = alongLine(t, path: path, scale: scale) else { return nil }
      placed = along
    } else {
      var angle = turn + t.rotate * .pi / 180
      if t.keepUpright && t.mapAligned && lineAngle != nil { angle = Self.upright(angle) }
      let frame = QuadFrame(anchor: anchor + t.translate, angle: angle, scale: scale)
      let quads = t.shaping.glyphs.compactMap { g in Self.glyphQuad(g, frame: frame, at: Point(g.x, g.y), upright: true) }
      let s = t.shaping
      let pad = t.padding / (textSize / Self.em)
      let boxes = Self.boxes(
        Rect(minX: s.left - pad, minY: s.top - pad, maxX: s.right + pad, maxY: s.bottom + pad), frame: frame, alongLine: lineAngle != nil)
      placed = (quads, boxes)
    }
    return StyleSymbol.Text(
      quads: placed.quads, paint: t.paint, boxes: placed.boxes, allowOverlap: t.allowOverlap, ignorePlacement: t.ignorePlacement,
      optional: t.optional, string: t.string)
  }

  /// `*-keep-upright`: an angle that would turn a part upside down (more
  /// than a quarter turn either way) turned half a turn more.
  static func upright(_ angle: Double) -> Double {
    let a = remainder(angle, 2 * .pi)
    return a > .pi / 2 || a < -.pi / 2 ? angle + .pi : angle
  }

  /// A glyph's quad: its field's rectangle (with MapLibre's `rectBuffer`
  /// around the ink) with the glyph's pen at `pen` in `frame`'s units.
  /// `upright`: a glyph set upright in vertical text (`SymbolShaping.Glyph.vertical`)
  /// turned a quarter back against its line as MapLibre's quads turn it:
  /// (x, y below the pen) goes to (the pen + y − half an em, the line's
  /// centre − x from the glyph's middle), the line's centre lying the
  /// baseline offset above the pen (the render suite's vertical CJK labels
  /// stand there to the pixel).
  static func glyphQuad(_ g: SymbolShaping.Glyph, frame: QuadFrame, at pen: Point, upright: Bool = false) -> SDFQuad? {
    guard !g.glyph.field.isEmpty else { return nil }
    let b = glyphRectBuffer
    let x1 = pen.x + (Double(g.glyph.left) - b) * g.scale
    let y1 = pen.y + (-Double(g.glyph.top) - b) * g.scale
    let qw = (Double(g.glyph.width) + 2 * b) * g.scale, qh = (Double(g.glyph.height) + 2 * b) * g.scale
    let middle = pen.x + Double(g.glyph.advance) * g.scale / 2
    let turn = upright && g.vertical
    func place(_ x: Double, _ y: Double) -> Point {
      guard turn else { return frame.apply(Point(x, y)) }
      return frame.apply(Point(pen.x + (y - pen.y) - SymbolShaping.oneEm / 2, pen.y - SymbolShaping.baselineOffset - (x - middle)))
    }
    let origin = place(x1, y1)
    let border = GlyphRange.border
    let fw = g.glyph.width + 2 * border, fh = g.glyph.height + 2 * border
    return SDFQuad(
      field: g.glyph.field, fieldWidth: fw, fieldHeight: fh, origin: origin, xAxis: place(x1 + qw, y1) - origin,
      yAxis: place(x1, y1 + qh) - origin, texture: Rect(minX: -1, minY: -1, maxX: Double(fw + 1), maxY: Double(fh + 1)),
      color: g.color)
  }

  /// A line label's glyphs laid along `path` one by one (MapLibre's
  /// `placeGlyphsAlongLine`): each glyph's centre at its distance from the
  /// anchor along the line, turned to the segment there; with
  /// `text-keep-upright`, the label read the other way when its last glyph
  /// would stand left of its first. Where the label would rise more than
  /// it runs and it has a vertical line (`SymbolVertical`), that line is
  /// drawn instead, read down the screen, its upright glyphs standing
  /// upright. Its boxes: a square as tall as the label (padding included)
  /// about each glyph's centre, standing in for MapLibre's collision
  /// circles. Nil when a glyph falls off the line.
  func alongLine(_ t: ShapedSymbol.TextPart, path: SymbolLinePath, scale: Double) -> (quads: [SDFQuad], boxes: [Rect])? {
    typealias Placed = (quads: [SDFQuad], centres: [Point])
    func place(_ s: SymbolShaping, flipped: Bool) -> Placed? {
      var quads: [SDFQuad] = []
      var centres: [Point] = []
      for g in s.glyphs {
        let half = g.advance / 2
        let along = (g.x + half) * scale * (flipped ? -1 : 1)
        guard let (p, angle) = path.point(at: along) else { return nil }
        let frame = QuadFrame(anchor: p + t.translate, angle: angle + (flipped ? .pi : 0), scale: scale)
        if let q = Self.glyphQuad(g, frame: frame, at: Point(-half, g.y), upright: true) { quads.append(q) }
        centres.append(frame.apply(Point(0, (s.top + s.bottom) / 2)))
      }
      return (quads, centres)
    }
    /// `s` placed, then read the other way when it would read the wrong way.
    func oriented(_ s: SymbolShaping, vertical: Bool) -> Placed? {
      guard let placed = place(s, flipped: false) else { return nil }
      guard t.keepUpright, let first = placed.centres.first, let last = placed.centres.last else { return placed }
      let wrongWay: Bool
      if vertical {
        wrongWay = last.y < first.y
      } else if placed.centres.count > 1 {
        wrongWay = last.x < first.x
      } else {
        let a = remainder(path.point(at: 0)?.angle ?? 0, 2 * .pi)
        wrongWay = a > .pi / 2 || a < -.pi / 2
      }
      return wrongWay ? place(s, flipped: true) : placed
    }
    var s = t.shaping
    guard var placed = oriented(s, vertical: false) else { return nil }
    if let v = t.vertical, let first = placed.centres.first, let last = placed.centres.last, abs(last.y - first.y) > abs(last.x - first.x) {
      guard let down = oriented(v, vertical: true) else { return nil }
      (placed, s) = (down, v)
    }
    let side = (s.bottom - s.top) * scale + 2 * t.padding * camera.pixelRatio
    let boxes = placed.centres.map { c in Rect(minX: c.x - side / 2, minY: c.y - side / 2, maxX: c.x + side / 2, maxY: c.y + side / 2) }
    return (placed.quads, boxes)
  }

  /// The collision boxes of `box` (the part's box about the anchor, in its
  /// own units) on the frame: its turned corners' bounds; along a line,
  /// squares as tall as the box every box-height along it (standing in for
  /// MapLibre's collision circles, so a slanted label does not claim the
  /// whole square around it).
  static func boxes(_ box: Rect, frame: QuadFrame, alongLine: Bool) -> [Rect] {
    func bounds(_ r: Rect) -> Rect {
      var out = Rect.empty
      for p in [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)] { out.include(frame.apply(p)) }
      return out
    }
    guard alongLine, box.height > 0, box.width > box.height else { return [bounds(box)] }
    let side = box.height
    let count = Int((box.width / side).rounded(.up))
    let step = count > 1 ? (box.width - side) / Double(count - 1) : 0
    let cy = (box.minY + box.maxY) / 2
    return (0..<count).map { k in
      let c = frame.apply(Point(box.minX + side / 2 + Double(k) * step, cy))
      let half = side * frame.scale / 2
      return Rect(minX: c.x - half, minY: c.y - half, maxX: c.x + half, maxY: c.y + half)
    }
  }
}

/// Symbol space (about the anchor, unscaled) to device pixels: turned by
/// `angle` (radians, clockwise on the screen), scaled, moved to the anchor.
struct QuadFrame {
  let anchor: Point
  let scale: Double
  let cosA: Double
  let sinA: Double

  init(anchor: Point, angle: Double, scale: Double) {
    self.anchor = anchor
    self.scale = scale
    cosA = cos(angle)
    sinA = sin(angle)
  }

  @inline(__always) func apply(_ p: Point) -> Point {
    Point(anchor.x + (p.x * cosA - p.y * sinA) * scale, anchor.y + (p.x * sinA + p.y * cosA) * scale)
  }
}
