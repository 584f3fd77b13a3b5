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
  /// The current tile's line labels, merged before they are laid out.
  private var pending: [PendingLine] = []
  /// Where the current tile's line labels stand, by text.
  private var repeats = RepeatedText()
  /// The ids of features view annotations name in this layer, the source's
  /// `promoteId`, and each one's symbols (indices in `symbols`).
  var watched: Set<FeatureID> = []
  var promoteId: String?
  private(set) var found: [FeatureID: [Int]] = [:]

  /// The anchors of a tile's line labels, by text: a label is not laid out
  /// within `distance` of one of the same text in the same tile.
  struct RepeatedText {
    private var tile: (Double, Double)?
    private var anchors: [String: [Point]] = [:]

    mutating func tooClose(_ text: String, _ p: Point, distance: Double, tile t: TileTransform) -> Bool {
      if tile.map({ $0 != (t.tx, t.ty) }) ?? true {
        tile = (t.tx, t.ty)
        anchors = [:]
      }
      for q in anchors[text, default: []].reversed() where hypot(p.x - q.x, p.y - q.y) < distance { return true }
      anchors[text, default: []].append(p)
      return false
    }
  }

  struct PendingLine {
    let kept: StyleLayerPainter.KeptFeature
    let order: Int
    let text: String
  }

  /// The default `text-font` of the specification.
  static let defaultFont = ["Open Sans Regular", "Arial Unicode MS Regular"]

  init(layer: StyleLayer, camera: StyleCamera, sprite: StyleSprite, glyphs: StyleGlyphSource, problems: inout [String]) {
    self.layer = layer
    self.camera = camera
    self.sprite = sprite
    self.glyphs = glyphs
    properties = StyleSymbolProperties(layer, zoom: camera.zoom, images: sprite.names, problems: &problems)
  }

  /// Lays out one kept feature; true when it made at least one symbol (a
  /// line label waiting to be merged counts as made).
  mutating func add(_ kept: StyleLayerPainter.KeptFeature) -> Bool {
    let f = kept.feature
    let order = features
    features += 1
    if kept.geometry.kind == .lineString, (properties.placement.string(f) ?? "point") == "line" {
      let text = textSections(f).map(\.text).joined()
      if !text.isEmpty {
        // Shaped once merged: a street cut into many pieces is shaped once.
        if let last = pending.last, last.kept.transform.tx != kept.transform.tx || last.kept.transform.ty != kept.transform.ty { mergeLines() }
        pending.append(PendingLine(kept: kept, order: order, text: text))
        return true
      }
    }
    guard let shaped = shape(f) else { return false }
    return emit(kept, shaped, order: order, lines: nil)
  }

  /// Lays out the line labels still waiting to be merged; call once every feature is added.
  mutating func finish() { mergeLines() }

  /// Merges the current tile's line labels (`SymbolLineMerge`) and lays them out.
  private mutating func mergeLines() {
    guard !pending.isEmpty else { return }
    let items = pending.map { p in (text: p.text, lines: (0..<p.kept.geometry.partCount).map { p.kept.geometry.part($0).map { Point(Double($0.x), Double($0.y)) } }) }
    let lines = pending
    pending = []
    for m in SymbolLineMerge.merge(items) {
      guard let shaped = shape(lines[m.item].kept.feature) else { continue }
      _ = emit(lines[m.item].kept, shaped, order: lines[m.item].order, lines: m.lines)
    }
  }

  /// The symbols of one feature at its anchors (along `lines` when given,
  /// else along its own geometry); true when it has an anchor.
  private mutating func emit(_ kept: StyleLayerPainter.KeptFeature, _ shaped: ShapedSymbol, order: Int, lines: [[Point]]?) -> Bool {
    let f = kept.feature
    let anchors = self.anchors(kept, shaped, lines: lines)
    guard !anchors.isEmpty else { return false }
    let key = Self.key(f, promoteId: promoteId, anchor: kept.transform.apply(anchors[0].point.x, anchors[0].point.y), camera: camera)
    var square = Rect.empty
    for p in kept.square { square.include(p) }
    for (i, a) in anchors.enumerated() {
      let at = kept.transform.apply(a.point.x, a.point.y)
      let path = a.angle == nil ? nil : SymbolLinePath(points: a.line.map { kept.transform.apply($0.x, $0.y) }, segment: a.segment, anchor: at)
      var symbol = self.symbol(shaped, at: at, path: path)
      symbol.key = i == 0 ? key : "\(key)@\(i)"
      symbol.order = order
      symbol.tileSquare = square
      if !watched.isEmpty, let id = StyleAnnotatedFeature.id(of: f, promoteId: promoteId), watched.contains(id) {
        found[id, default: []].append(symbols.count)
      }
      symbols.append(symbol)
    }
    return true
  }

  /// The anchors of a feature in its tile (tile units).
  private mutating func anchors(_ kept: StyleLayerPainter.KeptFeature, _ shaped: ShapedSymbol, lines merged: [[Point]]?) -> [LineAnchor] {
    let f = kept.feature
    let placement = properties.placement.string(f) ?? "point"
    let extent = Double(kept.extent)
    let g = kept.geometry
    func inTile(_ p: Point) -> Bool { p.x >= 0 && p.y >= 0 && p.x < extent && p.y < extent }
    let parts = merged ?? (0..<g.partCount).map { g.part($0).map { Point(Double($0.x), Double($0.y)) } }
    if placement != "point" {
      // Along lines, a point has no line to follow: MapLibre makes no anchor.
      guard g.kind != .point else { return [] }
      // Tile units per CSS pixel of a tile 512 pixels across.
      let tileRatio = extent / 512
      let em = shaped.textSize * tileRatio
      let rings = g.kind == .polygon ? parts.map { $0 + ($0.first.map { [$0] } ?? []) } : parts
      let center = placement == "line-center"
      // Along lines, each line is cut to the tile first; a line's centre is its whole line's.
      let lines = center ? rings.filter { $0.count > 1 } : SymbolLineClip.clip(rings, minX: 0, minY: 0, maxX: extent, maxY: extent)
      let spacing = properties.spacing.number(f) * tileRatio
      var out: [LineAnchor] = []
      for line in lines {
        let anchors = SymbolLineAnchors.anchors(
          line, spacing: spacing, labelLength: shaped.length * tileRatio, em: em, hasText: shaped.text != nil,
          maxAngle: properties.textMaxAngle.number(f) * .pi / 180, center: center, extent: extent)
        for a in anchors {
          guard !center, let text = shaped.text?.string else {
            out.append(a)
            continue
          }
          // The same text is not repeated within half a spacing in a tile (MapLibre's `anchorIsTooClose`).
          if repeats.tooClose(text, a.point, distance: spacing / 2, tile: kept.transform) { continue }
          out.append(a)
        }
      }
      return out
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

  /// The symbol's stable key (`StyleSymbol.key`) without its anchor index:
  /// the source's `promoteId` property, else the feature's id, else the
  /// digest of its properties and its first anchor's place on the map.
  static func key(_ f: EvaluationFeature, promoteId: String?, anchor: Point, camera: StyleCamera) -> String {
    if let p = promoteId, let id = f.properties[p], id != .null { return "id:" + id.compactJSON }
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
