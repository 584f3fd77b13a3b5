internal import _MapSnapRaster
internal import _MapSnapStyle

/// Resolves a style for one frame: each layer's status (drawn, hidden by
/// `visibility`, out of its zoom range, filtered to nothing, its source
/// missing or broken, unsupported), the tiles of each source it reads, and
/// what it draws (`StyleFrameState`). The only writer of that record.
struct StyleFrameResolver {
  let document: StyleDocument
  let camera: StyleCamera
  /// The folder relative URLs start from.
  let styleFolder: String
  let localRoot: String?
  let offline: Bool
  /// The vector tiles earlier frames of the style decoded.
  var tiles = StyleTileCache()
  /// The sprites earlier frames of the style read.
  var sprites = StyleSpriteCache()
  /// The glyph ranges earlier frames of the style read.
  var glyphs = StyleGlyphCache()
  /// The feature ids view annotations name, by style layer id.
  var annotated: [String: [FeatureID]] = [:]

  /// The frame's style.
  func resolve() -> StyleFrameState {
    var state = StyleFrameState()
    state.zoom = camera.zoom
    state.bearing = camera.bearing
    if document.pitch != 0 {
      state.notes.append("pitch: \(JSONWriter.numberText(document.pitch))° is not supported; the map is drawn flat (pitch 0)")
    }
    for key in ["sky", "terrain"] where document.json[key] != nil {
      state.notes.append("\(key): ignored (mapsnap draws the map flat, seen from straight above)")
    }
    if document.json["light"] != nil {
      state.notes.append("light: lights fill-extrusion roofs only (mapsnap draws the map flat, seen from straight above)")
    }
    var sources: [String: StyleSourceData] = [:]
    var sourceOrder: [String] = []
    // The sprite is read once, when a layer drawn first needs it.
    var sprite: StyleSprite?
    let fontFaces = StyleFontFaces(document.json["font-faces"])
    state.notes += fontFaces.problems
    var glyphSource = StyleGlyphSource(
      template: document.glyphs, fontFaces: fontFaces, cache: glyphs, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
    for layer in document.layers {
      var record = StyleLayerRecord(layer, status: .drawn)
      guard let kind = layer.kind else {
        record.status = .unsupported
        record.problem = "\(layer.path).type: \(Echo.quoted(layer.typeName)) is not a layer type of the style specification"
        record.problemParts = [record.problem!]
        state.layers.append(record)
        continue
      }
      if layer.isHidden {
        record.status = .hiddenByVisibility
      } else if !layer.shows(atZoom: camera.zoom) {
        record.status = .outOfZoomRange
      } else if let why = Self.unsupported(kind) {
        record.status = .unsupported
        record.problem = "\(layer.path): \(why)"
      } else {
        let start = state.commands.count
        if sprite == nil, StyleSprite.isNeeded(by: layer) {
          let read = sprites.sprite(document.sprites, pixelRatio: camera.pixelRatio, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
          state.notes += read.problems
          sprite = read
        }
        var painter = StyleLayerPainter(
          layer: layer, kind: kind, camera: camera, light: document.json["light"], sprite: sprite ?? StyleSprite())
        let watched = annotated[layer.id] ?? []
        painter.watched = Set(watched)
        painter.promoteId = StyleAnnotatedFeature.promoteId(layer.source.flatMap { document.source($0) }, layer: layer.sourceLayer)
        if kind == .background {
          painter.paintBackground(into: &state.commands)
        } else if let id = layer.source, let source = document.source(id), source.kind == .video {
          // Refused as a warning, as MapLibre draws the rest of the style.
          record.status = .unsupported
          record.problem = "\(source.path): \(StyleSourceError.video)"
        } else if let id = layer.source, let source = document.source(id) {
          if sources[id] == nil {
            sources[id] = StyleSourceData(
              source, camera: camera, styleFolder: styleFolder, localRoot: localRoot, offline: offline, tiles: tiles)
            sourceOrder.append(id)
            state.notes += sources[id]!.notes
          }
          let data = sources[id]!
          if let problem = data.record.problem {
            record.status = .sourceProblem
            record.problem = "\(source.path): \(problem)"
            record.problemIsError = true
          } else if kind == .symbol {
            layOutSymbols(layer, index: state.layers.count, data, painter: &painter, sprite: sprite ?? StyleSprite(), glyphs: &glyphSource, into: &state)
          } else {
            painter.paint(data, into: &state.commands)
            painter.finish(into: &state.commands)
          }
        } else {
          record.status = .sourceProblem
          record.problem = "\(layer.path): a \(layer.typeName) layer needs a \"source\""
          record.problemIsError = true
        }
        for id in watched where kind != .symbol {
          state.annotated.append(StyleAnnotatedFeature(styleLayer: layer.id, id: id, layerExists: true, position: painter.found[id]))
        }
        record.featuresRead = painter.featuresRead
        record.featuresDrawn = painter.featuresDrawn
        if record.status == .drawn && painter.featuresDrawn == 0 {
          record.status = painter.featuresInFrame > 0 ? .filteredOut : .empty
        }
        record.problemParts = (record.problem.map { [$0] } ?? []) + painter.problems
        if !painter.problems.isEmpty {
          let joined = painter.problems.joined(separator: "; ")
          record.problem = record.problem.map { $0 + "; " + joined } ?? joined
        }
        record.commands = start..<state.commands.count
      }
      if record.problemParts.isEmpty, let problem = record.problem { record.problemParts = [problem] }
      state.layers.append(record)
    }
    state.sources = sourceOrder.map { sources[$0]!.record }
    state.notes += glyphSource.summary
    // Names of layers the style does not have, and of layers not drawn.
    for (styleLayer, ids) in annotated.sorted(by: { $0.key < $1.key }) {
      let exists = document.layers.contains { $0.id == styleLayer }
      for id in ids where !state.annotated.contains(where: { $0.styleLayer == styleLayer && $0.id == id }) {
        state.annotated.append(StyleAnnotatedFeature(styleLayer: styleLayer, id: id, layerExists: exists))
      }
    }
    return state
  }

  /// A symbol layer's symbols laid out (`StyleSymbolLayout`), kept for
  /// placement, and the command that draws the placed ones in the layer's
  /// place among the style's layers.
  private func layOutSymbols(
    _ layer: StyleLayer, index: Int, _ data: StyleSourceData, painter: inout StyleLayerPainter, sprite: StyleSprite, glyphs: inout StyleGlyphSource,
    into state: inout StyleFrameState
  ) {
    let start = monotonicSeconds()
    defer { state.symbolLayoutSeconds += monotonicSeconds() - start }
    var problems: [String] = []
    var layout = StyleSymbolLayout(layer: layer, camera: camera, sprite: sprite, glyphs: glyphs, problems: &problems)
    layout.watched = painter.watched
    layout.promoteId = painter.promoteId
    // Features farther outside the frame than the placement margin and a
    // long label cannot mark it: not laid out (unless a view annotation names one).
    let reach = painter.watched.isEmpty ? (StyleSymbolPlacer.viewportPadding + Self.symbolReach) * camera.pixelRatio : nil
    painter.forEachKeptFeature(data, reach: reach) { _, kept in layout.add(kept) }
    layout.finish()
    glyphs = layout.glyphs
    painter.problems += problems
    if !layout.missingImages.isEmpty {
      painter.problems.append(StyleLayerPainter.missingImages(layout.missingImages, layer: layer.path, icons: true))
    }
    let p = layout.properties
    let mayOverlap = [p.textAllowOverlap, p.iconAllowOverlap, p.textIgnorePlacement, p.iconIgnorePlacement].contains { $0.bool(nil) }
    state.symbolLayers.append(
      StyleSymbolLayerState(
        id: layer.id, layerIndex: index, symbols: layout.symbols, avoidEdges: p.avoidEdges.bool(nil), zOrder: p.zOrder.string(nil) ?? "auto",
        hasSortKey: layer.layout["symbol-sort-key"] != nil, mayOverlap: mayOverlap))
    state.commands.append(StyleDrawCommand(shape: .symbols(state.symbolLayers.count - 1), color: Color(r: 0, g: 0, b: 0, a: 0), clip: nil))
    for id in painter.watched.sorted(by: { $0.text < $1.text }) {
      state.annotated.append(
        StyleAnnotatedFeature(styleLayer: layer.id, id: id, layerExists: true, symbolLayer: state.symbolLayers.count - 1, symbols: layout.found[id] ?? []))
    }
  }

  /// How far beyond the placement margin a symbol's anchor may lie and
  /// still be laid out, CSS pixels: a label or icon reaching farther from
  /// its anchor than this is not placed when its anchor is that far out.
  static let symbolReach = 512.0

  /// Why a layer type is not drawn, or nil when it is.
  static func unsupported(_ kind: StyleLayer.Kind) -> String? {
    switch kind {
    case .background, .fill, .line, .circle, .raster, .fillExtrusion, .hillshade, .colorRelief, .heatmap, .symbol: return nil
    default: return "\(kind.rawValue) layers are not drawn yet; the layer is skipped"
    }
  }
}
