internal import _MapSnapRaster

/// The attribution line of a frame (`map.attribution`, scene format 3.4):
/// its text and where it is drawn.
public struct AttributionPlacement: Sendable {
  /// The text drawn, or nil for none.
  public var text: String?
  var run: GlyphRun?

  package init() {}
}

/// Places the attribution line.
///
/// Rule: with `map.attribution: true` the text is the attributions of the
/// layers that draw something in this frame (active, not `error`, with
/// features, text or tiles to draw), each once, bottom layer first, joined
/// with " | "; with a string, that string. It is drawn in DejaVu Sans at
/// `size` logical pixels, dark grey with a white halo, its box's bottom-right
/// corner `margin` logical pixels inside the image's, above everything else.
/// A line wider than the image runs off its left edge.
package struct AttributionPlacer {
  package let state: MapState
  package let setting: MapSettings.Attribution
  let fonts: FontLibrary?

  /// Text size, halo and margin in logical pixels; colours.
  static let size = 10.0
  static let halo = 1.5
  static let margin = 4.0
  static let color = Color(r: 0x33, g: 0x33, b: 0x33)
  static let haloColor = Color.white

  package init(state: MapState, setting: MapSettings.Attribution, fonts: FontLibrary?) {
    self.state = state
    self.setting = setting
    self.fonts = fonts
  }

  /// The credits of the layers that draw something, each once, in layer order.
  var credits: [String] {
    var out: [String] = []
    for l in state.layers where l.status.contains(.active) && !l.status.contains(.error) {
      let draws = !l.drawables.isEmpty || l.annotations.contains(where: \.goesToPlacement) || l.tiles?.hasImage == true
      if draws, let a = l.attribution, !out.contains(a) { out.append(a) }
    }
    return out
  }

  package func place() -> AttributionPlacement {
    var out = AttributionPlacement()
    switch setting {
    case .none: return out
    case .text(let t): out.text = t
    case .fromLayers:
      let c = credits
      out.text = c.isEmpty ? nil : c.joined(separator: " | ")
    }
    guard let text = out.text, let fonts else { return out }
    let v = state.viewport
    let r = v.pixelRatio
    let block = fonts.layout(text, font: nil, size: Self.size * r, align: .right)
    let halo = Self.halo * r
    let origin = Point(
      Double(v.deviceWidth) - Self.margin * r - halo - block.width, Double(v.deviceHeight) - Self.margin * r - halo - block.height)
    var run = GlyphRun(block: block, origin: origin, color: Self.color, haloColor: Self.haloColor)
    run.haloWidth = halo
    out.run = run
    return out
  }
}
