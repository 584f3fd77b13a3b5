internal import _MapSnapRaster
internal import _MapSnapStyle

#if canImport(Glibc)
  import Glibc
#endif

/// A `fill-extrusion` layer seen from straight above: only its roofs show.
/// Each feature's roof is its polygon at `fill-extrusion-height`, lit from
/// above as MapLibre lights a face whose normal points up, and the roofs
/// hide one another by height (a taller roof is nearer the eye; of equal
/// heights the later feature wins, as the depth test `LEQUAL` lets it).
/// The layer is composed as a whole with `fill-extrusion-opacity`, so
/// roofs never show through one another.
///
/// Sides and bases do not show at pitch 0 and are not drawn;
/// `fill-extrusion-pattern` is not drawn yet (the roof takes its colour).
struct ExtrusionRoofs {
  /// One feature's roof, in device pixels.
  struct Roof {
    let height: Double
    let path: Path
    let color: Color
    let clip: [Point]?
  }

  private(set) var roofs: [Roof] = []
  let light: ExtrusionLight

  init(light: ExtrusionLight) {
    self.light = light
  }

  /// Adds a feature's roof: `color` is `fill-extrusion-color` (its alpha
  /// is not used: MapLibre draws every roof opaque before the layer's
  /// opacity); `height` in metres, below zero read as zero.
  mutating func add(_ path: Path, height: Double, color: StyleColor, clip: [Point]?) {
    roofs.append(Roof(height: max(0, height.isFinite ? height : 0), path: path, color: light.roofColor(color), clip: clip))
  }

  /// The layer's commands: the roofs lowest first inside one group of
  /// `opacity`. Nothing when there are no roofs or the opacity is 0.
  func commands(opacity: Double, into commands: inout [StyleDrawCommand]) {
    let o = max(0, min(1, opacity))
    guard !roofs.isEmpty, o > 0 else { return }
    // Stable: equal heights keep feature order, the later on top.
    let order = roofs.indices.sorted { roofs[$0].height < roofs[$1].height || (roofs[$0].height == roofs[$1].height && $0 < $1) }
    commands.append(StyleDrawCommand(shape: .beginGroup(opacity: o), color: Color(r: 0, g: 0, b: 0, a: 0), clip: nil))
    for i in order {
      StylePaint.append(StyleDrawCommand(shape: .area(roofs[i].path), color: roofs[i].color, clip: roofs[i].clip), to: &commands)
    }
    commands.append(StyleDrawCommand(shape: .endGroup, color: Color(r: 0, g: 0, b: 0, a: 0), clip: nil))
  }
}

/// The style's root `light`, as it lights a roof (a face whose normal
/// points straight up).
struct ExtrusionLight: Equatable {
  /// The light's height above the map: `radial · cos(polar)` of its
  /// `position` (the specification's default `[1.15, 210, 30]`). A roof's
  /// normal is vertical, so neither `anchor` nor the azimuth changes it.
  var up: Double
  var intensity: Double
  var color: (r: Double, g: Double, b: Double)

  static func == (a: ExtrusionLight, b: ExtrusionLight) -> Bool {
    a.up == b.up && a.intensity == b.intensity && a.color == b.color
  }

  /// The specification's default light.
  static let standard = ExtrusionLight(up: 1.15 * cos(30 * Double.pi / 180), intensity: 0.5, color: (1, 1, 1))

  /// The light of a style's root `light` object at MapLibre zoom `zoom`
  /// (constants, or expressions of zoom); what does not read as the
  /// property's type keeps its default.
  init(_ json: JSONValue?, zoom: Double) {
    self = .standard
    guard case .object(let o)? = json else { return }
    func value(_ key: String) -> StyleValue? {
      guard let v = o[key], let spec = StyleReference.light[key] else { return nil }
      guard case .success(let e) = StyleExpression.property(v, spec: spec) else { return nil }
      return e.evaluate(EvaluationContext(zoom: zoom), nil)
    }
    if case .number(let n)? = value("intensity"), n.isFinite { intensity = max(0, min(1, n)) }
    if case .color(let c)? = value("color") { color = (c.r, c.g, c.b) }
    if case .array(let a)? = value("position"), a.count == 3, case .number(let r) = a[0], case .number(let polar) = a[2] {
      up = r * cos(polar * .pi / 180)
    }
  }

  init(up: Double, intensity: Double, color: (r: Double, g: Double, b: Double)) {
    self.up = up
    self.intensity = intensity
    self.color = color
  }

  /// MapLibre's lighting of an upward face: the colour (premultiplied, as
  /// styles evaluate colours) plus an ambient 0.03; a directional factor
  /// `cosθ` (clamped to 0…1) narrowed by the light's intensity and the
  /// colour's luminance, `mix(1 − I, max(1 − L + I, 1), cosθ)`; each channel
  /// `colour · factor · light`, clamped below by `0.3 · (1 − light)` (shadows
  /// tinted against the light's hue) and above by 1; opaque.
  func roofColor(_ c: StyleColor) -> Color {
    let r = c.r * c.a, g = c.g * c.a, b = c.b * c.a
    let luminance = r * 0.2126 + g * 0.7152 + b * 0.0722
    let cosine = max(0, min(1, up))
    let i = intensity
    let factor = (1 - i) + (max(1 - luminance + i, 1) - (1 - i)) * cosine
    func channel(_ v: Double, _ l: Double) -> UInt8 {
      let lit = max(0.3 * (1 - l), min(1, (v + 0.03) * factor * l))
      return UInt8((lit * 255).rounded())
    }
    return Color(r: channel(r, color.r), g: channel(g, color.g), b: channel(b, color.b), a: 255)
  }
}
