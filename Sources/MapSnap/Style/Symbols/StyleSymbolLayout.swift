internal import _MapSnapRaster
internal import _MapSnapStyle

#if canImport(Glibc)
  import Glibc
#endif

/// Lays out a `symbol` layer's features for one frame, as MapLibre's
/// symbol layout does in its workers: each feature's anchors (a point of a
/// point feature, a polygon's pole of inaccessibility, a line's first point,
/// or points along a line every `symbol-spacing`), its text shaped from the
/// style's SDF glyphs (`SymbolShaping`) and its icon from the sprite, as
/// quads and collision boxes in device pixels (`StyleSymbol`). Decides
/// nothing about what is shown: placement does (`StyleSymbolPlacer`).
///
/// A tile's feature is laid out only at anchors inside its tile (the tile's
/// buffer belongs to its neighbour, which lays out the same feature), so a
/// label that crosses tile borders is one symbol, as in MapLibre.
struct StyleSymbolLayout {
  let layer: StyleLayer
  let camera: StyleCamera
  let sprite: StyleSprite
  var glyphs: StyleGlyphSource
  let properties: StyleSymbolProperties
  private(set) var symbols: [StyleSymbol] = []
  /// Warnings of the layer (images missing from the sprite).
  var missingImages: [String] = []
  /// Each sprite image's padded texels, made once per frame.
  var texels: [String: SpriteTexels] = [:]
  private var features = 0

  /// The default `text-font` of the specification.
  static let defaultFont = ["Open Sans Regular", "Arial Unicode MS Regular"]

  init(layer: StyleLayer, camera: StyleCamera, sprite: StyleSprite, glyphs: StyleGlyphSource, problems: inout [String]) {
    self.layer = layer
    self.camera = camera
    self.sprite = sprite
    self.glyphs = glyphs
    properties = StyleSymbolProperties(layer, zoom: camera.zoom, images: sprite.names, problems: &problems)
  }

  /// Lays out one kept feature; true when it made at least one symbol.
  mutating func add(_ kept: StyleLayerPainter.KeptFeature) -> Bool {
    let f = kept.feature
    let order = features
    features += 1
    guard let shaped = shape(f) else { return false }
    let anchors = self.anchors(kept, shaped)
    guard !anchors.isEmpty else { return false }
    let key = Self.key(f, anchor: kept.transform.apply(anchors[0].point.x, anchors[0].point.y), camera: camera)
    var square = Rect.empty
    for p in kept.square { square.include(p) }
    for (i, a) in anchors.enumerated() {
      let at = kept.transform.apply(a.point.x, a.point.y)
      let lineAngle = a.angle.map { angleOnFrame($0, kept.transform) }
      var symbol = self.symbol(shaped, at: at, lineAngle: lineAngle)
      symbol.key = i == 0 ? key : "\(key)@\(i)"
      symbol.order = order
      symbol.tileSquare = square
      symbols.append(symbol)
    }
    return true
  }

  /// The anchors of a feature in its tile (tile units).
  private func anchors(_ kept: StyleLayerPainter.KeptFeature, _ shaped: ShapedSymbol) -> [LineAnchor] {
    let f = kept.feature
    let placement = properties.placement.string(f) ?? "point"
    let extent = Double(kept.extent)
    let g = kept.geometry
    func inTile(_ p: Point) -> Bool { p.x >= 0 && p.y >= 0 && p.x < extent && p.y < extent }
    let parts = (0..<g.partCount).map { g.part($0).map { Point(Double($0.x), Double($0.y)) } }
    if placement != "point" && g.kind != .point {
      // Tile units per CSS pixel of a tile 512 pixels across.
      let tileRatio = extent / 512
      let em = shaped.textSize * tileRatio
      let lines = g.kind == .polygon ? parts.map { $0 + ($0.first.map { [$0] } ?? []) } : parts
      return lines.flatMap { line in
        SymbolLineAnchors.anchors(
          line, spacing: properties.spacing.number(f) * tileRatio, labelLength: shaped.length * tileRatio, em: em,
          hasText: shaped.text != nil, maxAngle: properties.textMaxAngle.number(f) * .pi / 180, center: placement == "line-center",
          extent: extent)
      }
    }
    switch g.kind {
    case .point: return parts.flatMap { $0 }.filter(inTile).map { LineAnchor(point: $0) }
    case .lineString: return parts.compactMap { $0.first }.filter(inTile).map { LineAnchor(point: $0) }
    case .polygon:
      var out: [LineAnchor] = []
      var start = 0
      for end in g.polygonEnds {
        let rings = Array(parts[start..<min(Int(end), parts.count)])
        start = Int(end)
        if let p = PoleOfInaccessibility.of(rings), inTile(p) { out.append(LineAnchor(point: p)) }
      }
      return out
    case .unknown: return []
    }
  }

  /// A line anchor's direction turned from tile units to the frame's.
  private func angleOnFrame(_ angle: Double, _ t: TileTransform) -> Double {
    let dx = cos(angle), dy = sin(angle)
    return atan2(t.b * dx + t.d * dy, t.a * dx + t.c * dy)
  }

  /// The symbol's stable key (`StyleSymbol.key`) without its anchor index.
  static func key(_ f: EvaluationFeature, anchor: Point, camera: StyleCamera) -> String {
    if let id = f.id { return "id:" + id.compactJSON }
    var bytes: [UInt8] = []
    for name in f.properties.keys.sorted() {
      bytes += Array(name.utf8) + [0] + Array(f.properties[name]!.compactJSON.utf8) + [0]
    }
    // The anchor in Web Mercator metres (not pixels), so the key holds at any zoom and size.
    let m = camera.mercator(anchor)
    for v in [m.x, m.y] { bytes += Array(String(Int((v).rounded())).utf8) + [0] }
    return "#" + String(SHA256.hex(of: bytes).prefix(FeatureKeyDigest.hexDigits))
  }
}

/// An anchor of a symbol in tile units, with the direction of its line
/// (radians, tile space) for symbols placed along lines.
struct LineAnchor {
  var point: Point
  var angle: Double? = nil
  /// For line placement: the line and the segment the anchor lies on.
  var line: [Point] = []
  var segment: Int = 0
}
