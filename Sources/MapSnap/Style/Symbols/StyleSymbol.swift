internal import _MapSnapRaster
internal import _MapSnapStyle

/// One symbol a style layer lays out (`StyleSymbolLayout`): an anchor and
/// the text and icon drawn about it, in device pixels, with their paint
/// and collision boxes. Placement decides which are shown
/// (`StyleSymbolPlacer`); the display list draws those.
struct StyleSymbol: Sendable {
  /// The symbol's stable key within its layer: the feature's id (`id:7`,
  /// `id:"a"`) or the digest of its properties and anchor (`#3fa2…`), then
  /// `@N` for the Nth anchor of one feature (points of a multipoint,
  /// placements along a line) after the first.
  var key: String
  /// Where the symbol stands, in device pixels.
  var anchor: Point
  var text: Text?
  /// With `text-variable-anchor`: the text at each further anchor, tried in order after `text`.
  var textVariants: [Text] = []
  var icon: Icon?
  /// What the layout could not draw: text whose glyphs no range has, an
  /// icon the sprite lacks. Shown in the report beside the outcome.
  var missing: [String] = []
  /// `symbol-sort-key` (placement and drawing order within the layer).
  var sortKey: Double
  /// The order the layer's features came in (ties of the sort key).
  var order: Int
  /// Along a line: the text's glyphs do not all fit on the line from the anchor.
  var lineTooShort = false
  /// For `symbol-avoid-edges`: the tile's square the boxes must stay inside.
  var tileSquare: Rect?

  /// A symbol's text: its glyph quads and SDF paint.
  struct Text: Sendable {
    var quads: [SDFQuad]
    var paint: SDFPaint
    /// The collision boxes (device pixels, padding included).
    var boxes: [Rect]
    var allowOverlap: Bool
    var ignorePlacement: Bool
    var optional: Bool
    /// The label's characters, for the report.
    var string: String
  }

  /// A symbol's icon: a sprite image over a quad.
  struct Icon: Sendable {
    var name: String
    /// The image's texels with a transparent border of one texel, and the
    /// quads it is drawn in (device pixels): one over the whole texels, or
    /// the pieces of an image stretched to its text (`IconStretch`).
    var texels: SpriteTexels
    var pieces: [ImageWarp.Quad]
    /// For an SDF icon: its field's quad and paint (`icon-color`, halo).
    var sdf: SDFPaint?
    var opacity: Double
    /// Sampled linearly (scaled, turned or SDF), else nearest, as MapLibre's texture filter.
    var linear: Bool
    var boxes: [Rect]
    var allowOverlap: Bool
    var ignorePlacement: Bool
    var optional: Bool
  }
}

/// A sprite image's premultiplied texels with a transparent border of one
/// texel (MapLibre's image atlas padding), made once per image per frame.
final class SpriteTexels: Sendable {
  let texels: [UInt32]
  let width: Int
  let height: Int
  /// The alpha channel as a field (SDF icons), same size.
  let field: [UInt8]

  init(_ image: RasterImage) {
    let w = image.width + 2, h = image.height + 2
    var out = [UInt32](repeating: 0, count: w * h)
    var alpha = [UInt8](repeating: 0, count: w * h)
    let px = image.pixels
    for y in 0..<image.height {
      for x in 0..<image.width {
        let v = px[y * image.width + x]
        out[(y + 1) * w + x + 1] = v
        alpha[(y + 1) * w + x + 1] = UInt8(v >> 24)
      }
    }
    texels = out
    width = w
    height = h
    field = alpha
  }
}

/// One quad of a signed distance field drawn on the frame: a parallelogram
/// (`origin`, and the device-pixel vectors along the field's x and y for
/// its whole `texture` rectangle), over `texture` (field pixels) of a field
/// `fieldWidth` × `fieldHeight`; outside the field reads 0.
struct SDFQuad: Sendable {
  var field: [UInt8]
  var fieldWidth: Int
  var fieldHeight: Int
  var origin: Point
  var xAxis: Point
  var yAxis: Point
  /// The texture rectangle in field pixels (may start at −1: the padding).
  var texture: Rect
  /// The quad's colour when its `format` section gives one.
  var color: StyleColor?

  /// The quad's four corners (top-left, top-right, bottom-right, bottom-left).
  var corners: [Point] {
    [origin, origin + xAxis, origin + xAxis + yAxis, origin + yAxis]
  }
}

/// How an SDF is painted (MapLibre's `symbol_sdf` shader): the fill where
/// the field passes `fillEdge`, a halo where it passes `haloEdge`, each
/// faded over `±gamma` of field value, halo under fill.
struct SDFPaint: Sendable {
  var color: StyleColor
  var haloColor: StyleColor
  var opacity: Double
  /// The field value (0…1) of the fill's edge: 0.75.
  var fillEdge: Double
  var fillGamma: Double
  /// The halo's edge and fade; no halo when its colour is transparent or its width 0.
  var haloEdge: Double
  var haloGamma: Double
  var hasHalo: Bool

  /// The shader's `SDF_PX` (field units per pixel of the 24-px em) and
  /// `EDGE_GAMMA` (0.105 per device pixel ratio).
  static let fieldPixel = 8.0
  static let edgeGamma = 0.105

  /// `size` is the drawn size over the field's own (text: text-size / 24;
  /// icons: icon-size); `haloWidth` and `haloBlur` in CSS pixels.
  init(color: StyleColor, haloColor: StyleColor, haloWidth: Double, haloBlur: Double, opacity: Double, size: Double, pixelRatio: Double) {
    self.color = color
    self.haloColor = haloColor
    self.opacity = opacity
    let scale = max(size, 1e-6)
    let gamma = Self.edgeGamma / max(pixelRatio, 1e-6)
    fillEdge = (256 - 64) / 256
    fillGamma = gamma / scale
    haloEdge = (6 - haloWidth / scale) / Self.fieldPixel
    haloGamma = (haloBlur * 1.19 / Self.fieldPixel + gamma) / scale
    hasHalo = haloWidth > 0 && haloColor.a > 0
  }
}
