internal import _MapSnapRaster

/// One thing a style layer draws, in device pixels, with its paint already
/// evaluated: what the display list turns into fills.
struct StyleDrawCommand: Sendable {
  enum Shape: Sendable {
    /// Polygon rings, filled nonzero: exteriors wound one way, holes the other.
    case area(Path)
    /// Lines stroked with `style` (device pixels), dashed by `dash`
    /// (device pixels, on and off), moved sideways by `offset` (device
    /// pixels, right of the line's direction), their edges faded over
    /// `blur` device pixels.
    case line(Path, StrokeStyle, dash: [Double]?, offset: Double, blur: Double)
    /// Discs of `radius` (device pixels) about each point; a `stroke` of
    /// `strokeWidth` outside the disc; the outer edge faded over `blur`
    /// (a fraction of the whole radius, as `circle-blur`).
    case circles([Point], radius: Double, strokeWidth: Double, strokeColor: Color, blur: Double)
    /// The whole frame (`background`).
    case frame
    /// An image (a raster tile) stretched over `rect` (device pixels), its
    /// pixels' alpha times `opacity`.
    case image(RasterImage, Rect, opacity: Double)
    /// The commands up to the matching `endGroup` composed as one picture,
    /// then drawn with `opacity` (a layer's opacity over shapes that hide
    /// one another, as `fill-extrusion` roofs do).
    case beginGroup(opacity: Double)
    case endGroup
    /// A line stroked with `style`, moved sideways by `offset`, painted with
    /// `pattern` repeated along it (`StyleDrawing.drawLinePattern`).
    case linePattern(Path, StrokeStyle, offset: Double, StyleLinePattern)
    /// The placed symbols of symbol layer N of the frame
    /// (`StyleFrameState.symbolLayers`, `StyleSymbolPlacement`).
    case symbols(Int)
  }

  var shape: Shape
  var color: Color
  /// The tile's square in device pixels, which the shape is cut to as
  /// MapLibre cuts fills and lines at tile edges; nil: not cut (circles,
  /// GeoJSON sources, the background).
  var clip: [Point]?
  /// For `.frame` and `.area`: the pattern they are filled with instead of `color`.
  var pattern: PatternPaint? = nil
}

/// The frame's style, resolved: each layer's and source's record and the
/// draw commands, bottom layer first.
struct StyleFrameState: Sendable {
  var layers: [StyleLayerRecord] = []
  var sources: [StyleSourceRecord] = []
  var commands: [StyleDrawCommand] = []
  /// Each drawn symbol layer's symbols, laid out, for placement.
  var symbolLayers: [StyleSymbolLayerState] = []
  /// The features view annotations name, as drawn.
  var annotated: [StyleAnnotatedFeature] = []
  /// How long the symbol layers took to lay out (shaping, anchors, quads), seconds.
  var symbolLayoutSeconds = 0.0
  /// The camera's MapLibre zoom.
  var zoom: Double = 0
  var bearing: Double = 0
  /// Findings that are not about one layer (pitch drawn flat, root
  /// properties ignored), each with its JSON path.
  var notes: [String] = []
}

/// A symbol layer's symbols as its layout made them, with the layer-wide
/// properties placement reads.
struct StyleSymbolLayerState: Sendable {
  /// The style layer's id.
  var id: String
  /// Its index in `StyleFrameState.layers`.
  var layerIndex: Int
  var symbols: [StyleSymbol]
  /// `symbol-avoid-edges`.
  var avoidEdges: Bool
  /// `symbol-z-order`.
  var zOrder: String
  var hasSortKey: Bool
  /// Any of `*-allow-overlap` or `*-ignore-placement` set for the layer.
  var mayOverlap: Bool
}
