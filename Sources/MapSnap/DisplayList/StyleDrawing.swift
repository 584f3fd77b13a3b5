internal import _MapSnapRaster

/// Turns a style's draw commands (`StyleFrameState.commands`) into display
/// list fills: areas filled nonzero (their rings wound by the painter), lines stroked (dashed, offset), discs
/// with their stroke, each cut to its tile's square when it has one; areas
/// and the frame filled with a pattern (`StyleDrawCommand.pattern`), lines
/// with one along them (`drawLinePattern`).
///
/// Soft edges (`line-blur`, `circle-blur`, and a circle's own 1-pixel
/// antialiasing band, which lies inside its radius in MapLibre's shader)
/// are nested shapes of one colour, each a step narrower and with the alpha
/// that brings the stack to the fade's value there (`FadeSteps`).
enum StyleDrawing {
  /// Adds `commands` to `list`, in order.
  static func draw(_ commands: ArraySlice<StyleDrawCommand>, into list: inout DisplayList) {
    for c in commands {
      switch c.shape {
      case .frame:
        var p = Path()
        let w = Double(list.width), h = Double(list.height)
        p.addContour([Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)], closed: true)
        if let pattern = c.pattern {
          list.fill(p, rule: .nonZero, pattern: pattern)
        } else {
          list.fill(p, rule: .nonZero, color: c.color)
        }
      case .image(let image, let rect, let opacity):
        list.drawImage(image, in: rect, opacity: opacity)
      case .beginGroup(let opacity):
        list.beginGroup(opacity: opacity)
      case .endGroup:
        list.endGroup()
      case .area(let path):
        let cut = c.clip.map { ConvexClip.clip(path, to: $0) } ?? path
        guard !cut.isEmpty else { continue }
        if let pattern = c.pattern {
          list.fill(cut, rule: .nonZero, pattern: pattern)
        } else {
          list.fill(cut, rule: .nonZero, color: c.color)
        }
      case .linePattern(let path, let style, let offset, let pattern):
        let line = offset == 0 ? path : LineOffset.offset(path, by: offset, miterLimit: style.miterLimit)
        drawLinePattern(line, style: style, pattern: pattern, clip: c.clip, into: &list)
      case .line(let path, let style, let dash, let offset, let blur):
        var line = offset == 0 ? path : LineOffset.offset(path, by: offset, miterLimit: style.miterLimit)
        if let dash { line = dashed(line, pattern: dash) }
        guard blur > 0 else {
          stroke(line, style, c.color, clip: c.clip, into: &list)
          continue
        }
        // The edge fades from full at half-width − blur − 0.5 to none at half-width + 0.5.
        let fade = FadeSteps(band: blur + 1)
        let grouped = c.color.a < 255
        if grouped { list.beginGroup(opacity: Double(c.color.a) / 255) }
        for (k, alpha) in fade.alphas.enumerated() {
          var s = style
          s.width = max(0.1, style.width + 1 - 2 * fade.inset(k))
          stroke(line, s, (grouped ? c.color.opaque : c.color).scaled(alpha), clip: c.clip, into: &list)
        }
        if grouped { list.endGroup() }
      case .symbols:
        // Drawn by their own chunk, after placement (`StyleSymbolDrawing`).
        continue
      case .circles(let points, let radius, let strokeWidth, let strokeColor, let blur):
        drawCircles(points, radius: radius, strokeWidth: strokeWidth, color: c.color, strokeColor: strokeColor, blur: blur, into: &list)
      }
    }
  }

  private static func stroke(_ line: Path, _ style: StrokeStyle, _ color: Color, clip: [Point]?, into list: inout DisplayList) {
    let tolerance = Flattening.tolerance
    if let clip {
      let outline = ConvexClip.clip(strokeOutline(line, style: style, tolerance: tolerance), to: clip)
      guard !outline.isEmpty else { return }
      list.fill(outline, rule: .nonZero, color: color)
    } else {
      _ = list.fillStroke(of: line, style: style, tolerance: tolerance, color: color)
    }
  }

  /// MapLibre's circle: the whole radius R = radius + stroke fades to
  /// nothing at R from full at R·(1 − b), b = max(blur, 1 / R) in device
  /// pixels; the stroke colour lies outside `radius`.
  private static func drawCircles(
    _ points: [Point], radius: Double, strokeWidth: Double, color: Color, strokeColor: Color, blur: Double, into list: inout DisplayList
  ) {
    let tolerance = Flattening.tolerance
    let whole = radius + strokeWidth
    guard whole > 0 else { return }
    let band = max(blur * whole, 1)
    let fade = FadeSteps(band: band)
    let outer = strokeWidth > 0 ? strokeColor : color
    func discs(_ r: Double) -> Path {
      var p = Path()
      for pt in points { p.append(markerPath(.circle, at: pt, size: 2 * r, tolerance: tolerance)) }
      return p
    }
    // A translucent circle's steps are composed as one shape (a group) so
    // that they do not darken each other.
    let grouped = fade.alphas.count > 1 && outer.a < 255
    if grouped { list.beginGroup(opacity: Double(outer.a) / 255) }
    let stepColor = grouped ? outer.opaque : outer
    defer { if grouped { list.endGroup() } }
    for (k, alpha) in fade.alphas.enumerated() {
      // Each step's edge sits in the middle of its part of the band.
      let r = whole - fade.inset(k) - 0.5 * band / Double(fade.alphas.count)
      guard r > 0 else { break }
      if strokeWidth > 0 && radius > 0 && r < radius - 0.5 {
        // Inside the stroke's inner edge: the fill colour takes over.
        break
      }
      list.fill(discs(r), rule: .nonZero, color: stepColor.scaled(alpha))
    }
    if strokeWidth > 0 && radius > 0 && color.a > 0 {
      list.fill(discs(max(0, radius - 0.5)), rule: .nonZero, color: color)
    }
  }
}

/// A fade over `band` device pixels drawn as nested shapes of one colour:
/// step k is inset by `inset(k)` from the outer edge and drawn with
/// `alphas[k]`, chosen so that the stack's alpha at each step is the fade's
/// (smoothstep) value there: `1 − Π(1 − alphas[i])` over the steps drawn.
struct FadeSteps {
  let band: Double
  let alphas: [Double]

  /// At most this many steps: a finer stack changes no 8-bit value.
  static let maximumSteps = 8

  init(band: Double) {
    self.band = band
    let n = max(1, min(Self.maximumSteps, Int(band.rounded(.up))))
    var out: [Double] = []
    var covered = 0.0
    for k in 0..<n {
      // The fade's value at the middle of step k, from the outer edge in.
      let t = (Double(k) + 0.5) / Double(n)
      let target = n == 1 ? 1 : t * t * (3 - 2 * t)
      let a = covered >= 1 ? 0 : max(0, min(1, 1 - (1 - target) / (1 - covered)))
      out.append(a)
      covered = 1 - (1 - covered) * (1 - a)
    }
    if n > 1 {
      // The innermost step completes the stack.
      out[n - 1] = 1
    }
    alphas = out
  }

  /// How far step `k`'s edge lies inside the outer edge.
  func inset(_ k: Int) -> Double { band * Double(k) / Double(alphas.count) }
}

extension Color {
  /// This colour with alpha 255.
  var opaque: Color {
    var c = self
    c.a = 255
    return c
  }

  /// This colour with its alpha multiplied by `k` (0…1).
  func scaled(_ k: Double) -> Color {
    var c = self
    c.a = UInt8(max(0, min(255, (Double(a) * k).rounded())))
    return c
  }
}
