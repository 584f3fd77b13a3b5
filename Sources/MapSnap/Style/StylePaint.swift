internal import _MapSnapRaster
internal import _MapSnapStyle

#if canImport(Glibc)
  import Glibc
#endif

/// The paint and layout properties one layer type reads, compiled for a
/// frame, and how a feature's values become draw commands. Sizes are CSS
/// pixels in the style and device pixels (× pixel ratio) in commands.
struct StylePaint {
  let kind: StyleLayer.Kind
  let color: StyleProperty
  let opacity: StyleProperty
  /// `fill-outline-color`, when the style gives it.
  let outlineColor: StyleProperty?
  let antialias: StyleProperty?
  let translate: StyleProperty?
  /// `map` (default): the offset turns with the map; `viewport`: it stays on screen.
  let translateAnchor: StyleProperty?
  /// The camera's bearing in degrees (turns `map`-anchored offsets).
  let bearing: Double
  /// `*-translate` and its anchor when the same for every feature: the
  /// offset in CSS pixels, already turned by the bearing when anchored to
  /// the map.
  private let fixedTranslate: Point?
  let width: StyleProperty?
  let gapWidth: StyleProperty?
  let offset: StyleProperty?
  let dasharray: StyleProperty?
  let cap: StyleProperty?
  let join: StyleProperty?
  let miterLimit: StyleProperty?
  let radius: StyleProperty?
  let strokeWidth: StyleProperty?
  let strokeColor: StyleProperty?
  let strokeOpacity: StyleProperty?
  let blur: StyleProperty?
  /// A raster layer's colour adjustments, by name.
  private let rasterProperties: [String: StyleProperty]
  /// `background-pattern`, `fill-pattern` or `line-pattern`, when the style gives it.
  let pattern: StyleProperty?
  /// The images patterns name.
  let sprite: StyleSprite
  /// Where fill and background patterns lie (`StylePatternGrid`).
  let grid: StylePatternGrid?
  /// Images patterns named that the sprite does not have, in the order met.
  private(set) var missingImages: [String] = []

  init(
    _ layer: StyleLayer, kind: StyleLayer.Kind, zoomBearing: (zoom: Double, bearing: Double), sprite: StyleSprite = StyleSprite(),
    grid: StylePatternGrid? = nil, problems: inout [String]
  ) {
    let zoom = zoomBearing.zoom
    self.kind = kind
    self.sprite = sprite
    self.grid = grid
    func p(_ name: String) -> StyleProperty { StyleProperty(layer, name, zoom: zoom, problems: &problems) }
    func l(_ name: String) -> StyleProperty { StyleProperty(layer, name, layout: true, zoom: zoom, problems: &problems) }
    let prefix = kind == .background ? "background" : kind.rawValue
    color = p("\(prefix)-color")
    opacity = p("\(prefix)-opacity")
    translate = kind == .background ? nil : p("\(prefix)-translate")
    translateAnchor = kind == .background ? nil : p("\(prefix)-translate-anchor")
    bearing = zoomBearing.bearing
    fixedTranslate = Self.fixed(translate, anchor: translateAnchor, bearing: zoomBearing.bearing)
    outlineColor = kind == .fill && layer.paint["fill-outline-color"] != nil ? p("fill-outline-color") : nil
    antialias = kind == .fill ? p("fill-antialias") : nil
    if kind == .line {
      width = p("line-width"); gapWidth = p("line-gap-width"); offset = p("line-offset"); dasharray = layer.paint["line-dasharray"] != nil ? p("line-dasharray") : nil
      cap = l("line-cap"); join = l("line-join"); miterLimit = l("line-miter-limit")
    } else {
      width = nil; gapWidth = nil; offset = nil; dasharray = nil; cap = nil; join = nil; miterLimit = nil
    }
    blur = kind == .line || kind == .circle ? p("\(prefix)-blur") : nil
    var rp: [String: StyleProperty] = [:]
    if kind == .raster {
      for n in ["raster-hue-rotate", "raster-brightness-min", "raster-brightness-max", "raster-saturation", "raster-contrast"] { rp[n] = p(n) }
    }
    rasterProperties = rp
    let patternName = "\(prefix)-pattern"
    if [.background, .fill, .line].contains(kind), layer.paint[patternName] != nil {
      pattern = StyleProperty(layer, patternName, zoom: zoom, availableImages: sprite.names, problems: &problems)
    } else {
      pattern = nil
    }
    if kind == .circle {
      radius = p("circle-radius"); strokeWidth = p("circle-stroke-width"); strokeColor = p("circle-stroke-color"); strokeOpacity = p("circle-stroke-opacity")
    } else {
      radius = nil; strokeWidth = nil; strokeColor = nil; strokeOpacity = nil
    }
  }

  /// How far, in device pixels, a feature's drawing can stray from its
  /// geometry, when every property that sets it is the same for all the
  /// frame's features; nil when one of them reads the feature (or the
  /// layer type is not drawn feature by feature). Lines: half the stroke
  /// (both strokes and the gap between them under `line-gap-width`) plus
  /// the offset, times the larger of the miter limit and 2 (a miter join or
  /// a square cap reaches past the half-width, an offset corner as far),
  /// plus the blur; circles: radius plus stroke, grown by the blur; fills
  /// and roofs: the outline's width. Then the translate, and one pixel for
  /// antialiasing.
  func reach(ratio: Double) -> Double? {
    let sizing = [translate, width, gapWidth, offset, miterLimit, radius, strokeWidth, blur]
    guard sizing.allSatisfy({ $0?.isConstant ?? true }) else { return nil }
    func value(_ p: StyleProperty?) -> Double { max(0, p?.number(nil) ?? 0) }
    let moved = translate.map { p -> Double in
      let v = p.numbers(nil)
      return v.count == 2 ? (v[0] * v[0] + v[1] * v[1]).squareRoot() * ratio : 0
    } ?? 0
    let spread: Double
    switch kind {
    case .line:
      let w = value(width) * ratio, gap = value(gapWidth) * ratio
      let half = gap > 0 ? gap / 2 + w : w / 2
      let off = abs(offset?.number(nil) ?? 0) * ratio
      spread = (half + off) * max(2, value(miterLimit)) + value(blur) * ratio
    case .circle:
      spread = (value(radius) + value(strokeWidth)) * ratio * (1 + value(blur))
    case .fill, .fillExtrusion:
      spread = ratio
    default:
      return nil
    }
    return spread + moved + 1
  }

  /// A raster colour adjustment's value (its default when not given).
  func raster(_ name: String) -> Double { rasterProperties[name]?.number(nil) ?? 0 }

  /// `*-translate` in device pixels.
  func shift(_ f: EvaluationFeature?, ratio: Double) -> Point {
    if let fixedTranslate { return Point(fixedTranslate.x * ratio, fixedTranslate.y * ratio) }
    guard let translate else { return Point(0, 0) }
    return Self.turned(translate.numbers(f), anchor: translateAnchor?.string(f), bearing: bearing, ratio: ratio)
  }

  /// The translate `t` (CSS pixels) × `ratio`, turned with the map unless anchored to the viewport.
  static func turned(_ t: [Double], anchor: String?, bearing: Double, ratio: Double) -> Point {
    guard t.count == 2, t[0] != 0 || t[1] != 0 else { return Point(0, 0) }
    let x = t[0] * ratio, y = t[1] * ratio
    guard bearing != 0, anchor != "viewport" else { return Point(x, y) }
    let r = bearing * .pi / 180
    return Point(x * cos(r) + y * sin(r), -x * sin(r) + y * cos(r))
  }

  /// The translate in CSS pixels when it and its anchor read no feature (nil otherwise).
  private static func fixed(_ translate: StyleProperty?, anchor: StyleProperty?, bearing: Double) -> Point? {
    guard let translate else { return Point(0, 0) }
    guard translate.isConstant, anchor?.isConstant ?? true else { return nil }
    return turned(translate.numbers(nil), anchor: anchor?.string(nil), bearing: bearing, ratio: 1)
  }

  /// The background's command: its pattern, or its colour; true when it drew something.
  mutating func background(into commands: inout [StyleDrawCommand]) -> Bool {
    let o = opacity.number(nil)
    switch patternChoice(nil) {
    case .image(let image):
      guard let grid, o > 0 else { return false }
      commands.append(StyleDrawCommand(shape: .frame, color: .transparent, clip: nil, pattern: grid.paint(image, opacity: o)))
      return true
    case .missing(let name):
      missing(name)
      return false
    case .none:
      let c = color.color(nil, opacity: o)
      guard c.a > 0 else { return false }
      commands.append(StyleDrawCommand(shape: .frame, color: c, clip: nil))
      return true
    }
  }

  /// Notes an image the sprite does not have (once).
  private mutating func missing(_ name: String) {
    if !name.isEmpty && !missingImages.contains(name) { missingImages.append(name) }
  }

  /// A fill or line feature's commands; true when it drew something.
  mutating func shape(_ f: EvaluationFeature, path: Path, isPolygon: Bool, clip: [Point]?, ratio: Double, into commands: inout [StyleDrawCommand]) -> Bool {
    let c = color.color(f, opacity: opacity.number(f))
    var moved = path
    let d = shift(f, ratio: ratio)
    if d.x != 0 || d.y != 0 { for i in moved.points.indices { moved.points[i] = Point(moved.points[i].x + d.x, moved.points[i].y + d.y) } }
    switch patternChoice(f) {
    case .none: break
    case .missing(let name):
      missing(name)
      return false
    case .image(let image):
      return patterned(image, f, path: moved, clip: clip, ratio: ratio, into: &commands)
    }
    switch kind {
    case .fill:
      var drew = false
      if c.a > 0 {
        Self.append(StyleDrawCommand(shape: .area(moved), color: c, clip: clip), to: &commands)
        drew = true
      }
      if let outlineColor {
        let o = outlineColor.color(f, opacity: opacity.number(f))
        if o.a > 0 {
          commands.append(StyleDrawCommand(shape: .line(moved, StrokeStyle(width: ratio), dash: nil, offset: 0, blur: 0), color: o, clip: clip))
          drew = true
        }
      }
      return drew
    default:
      guard c.a > 0, let width, let gapWidth, let offset else { return false }
      let w = width.number(f) * ratio
      guard w > 0 else { return false }
      let style = StrokeStyle(width: w, join: Self.join(join?.string(f)), cap: Self.cap(cap?.string(f)), miterLimit: miterLimit?.number(f) ?? 2)
      let dash = dasharray.map { d in d.numbers(f).map { max(0, $0) * w } }.flatMap { $0.count >= 2 && $0.contains { $0 > 0 } ? $0 : nil }
      let gap = gapWidth.number(f) * ratio
      let off = offset.number(f) * ratio
      let fade = max(0, blur?.number(f) ?? 0) * ratio
      if gap > 0 {
        // A line with a gap is two lines, each `w` wide, either side of the gap.
        let side = gap / 2 + w / 2
        commands.append(StyleDrawCommand(shape: .line(moved, style, dash: dash, offset: off - side, blur: fade), color: c, clip: clip))
        commands.append(StyleDrawCommand(shape: .line(moved, style, dash: dash, offset: off + side, blur: fade), color: c, clip: clip))
      } else {
        Self.append(StyleDrawCommand(shape: .line(moved, style, dash: dash, offset: off, blur: fade), color: c, clip: clip), to: &commands)
      }
      return true
    }
  }

  /// A fill or line feature drawn with a sprite image: a fill's polygons
  /// with the image on the frame's pattern grid, with `fill-opacity`
  /// (`fill-outline-color` does not apply, as in MapLibre); a
  /// line's stroke with the image along it (`StyleLinePattern`), with
  /// `line-opacity` (`line-dasharray` does not apply, as in MapLibre).
  private func patterned(
    _ image: StyleSprite.Image, _ f: EvaluationFeature, path: Path, clip: [Point]?, ratio: Double, into commands: inout [StyleDrawCommand]
  ) -> Bool {
    let o = max(0, min(1, opacity.number(f)))
    guard o > 0, let grid else { return false }
    if kind == .fill {
      // Edges antialiased by exact coverage, as solid fills' are (no outline).
      Self.append(StyleDrawCommand(shape: .area(path), color: .transparent, clip: clip, pattern: grid.paint(image, opacity: o)), to: &commands)
      return true
    }
    guard let width, let gapWidth, let offset else { return false }
    let w = width.number(f) * ratio
    guard w > 0 else { return false }
    let style = StrokeStyle(width: w, join: Self.join(join?.string(f)), cap: Self.cap(cap?.string(f)), miterLimit: miterLimit?.number(f) ?? 2)
    let natural = ratio / image.pixelRatio
    let line = StyleLinePattern(image: image.image, along: natural * grid.zoomScale, natural: natural, imageRatio: image.pixelRatio, opacity: o)
    let gap = gapWidth.number(f) * ratio
    let off = offset.number(f) * ratio
    if gap > 0 {
      let side = gap / 2 + w / 2
      commands.append(StyleDrawCommand(shape: .linePattern(path, style, offset: off - side, line), color: .transparent, clip: clip))
      commands.append(StyleDrawCommand(shape: .linePattern(path, style, offset: off + side, line), color: .transparent, clip: clip))
    } else {
      commands.append(StyleDrawCommand(shape: .linePattern(path, style, offset: off, line), color: .transparent, clip: clip))
    }
    return true
  }

  /// A circle feature's command; true when it drew something.
  func circles(_ f: EvaluationFeature, points: [Point], ratio: Double, into commands: inout [StyleDrawCommand]) -> Bool {
    guard !points.isEmpty, let radius, let strokeWidth, let strokeColor, let strokeOpacity else { return false }
    let r = radius.number(f) * ratio
    let sw = strokeWidth.number(f) * ratio
    let c = color.color(f, opacity: opacity.number(f))
    let sc = strokeColor.color(f, opacity: strokeOpacity.number(f))
    guard r > 0 || sw > 0, c.a > 0 || (sw > 0 && sc.a > 0) else { return false }
    let d = shift(f, ratio: ratio)
    let pts = d.x == 0 && d.y == 0 ? points : points.map { Point($0.x + d.x, $0.y + d.y) }
    commands.append(StyleDrawCommand(shape: .circles(pts, radius: max(0, r), strokeWidth: sw, strokeColor: sc, blur: max(0, blur?.number(f) ?? 0)), color: c, clip: nil))
    return true
  }

  /// Adds `command`, joining it to the one before when both are opaque
  /// areas, or opaque plain lines (no dash, offset or blur) of one stroke,
  /// of the same colour (or the same pattern at full opacity) and tile:
  /// one shape, drawn as MapLibre draws them, with no seam where features
  /// meet (a seam that coverage antialiasing would leave and a GPU's
  /// aliased triangles do not).
  /// Translucent features stay apart, so that they darken where they overlap.
  static func append(_ command: StyleDrawCommand, to commands: inout [StyleDrawCommand]) {
    let samePaint: Bool
    if let p = command.pattern {
      samePaint = p.opacity == 1 && commands.last?.pattern.map { $0.isSame(as: p) } == true
    } else {
      samePaint = command.color.a == 255 && commands.last?.pattern == nil && commands.last?.color == command.color
    }
    guard samePaint, let last = commands.last, last.clip == command.clip else {
      commands.append(command)
      return
    }
    let i = commands.count - 1
    switch (last.shape, command.shape) {
    case (.area, .area(let b)):
      // Taken out of the array first, so the path grows in place.
      guard case .area(var a) = commands[i].shape else { return }
      commands[i].shape = .frame
      a.append(b)
      commands[i].shape = .area(a)
    case (.line(_, let sa, nil, 0, 0), .line(let b, let sb, nil, 0, 0)) where sa == sb:
      guard case .line(var a, _, _, _, _) = commands[i].shape else { return }
      commands[i].shape = .frame
      a.append(b)
      commands[i].shape = .line(a, sa, dash: nil, offset: 0, blur: 0)
    default:
      commands.append(command)
    }
  }

  static func join(_ s: String?) -> LineJoin {
    switch s {
    case "round": return .round
    case "bevel": return .bevel
    default: return .miter
    }
  }

  static func cap(_ s: String?) -> LineCap {
    switch s {
    case "round": return .round
    case "square": return .square
    default: return .butt
    }
  }
}
