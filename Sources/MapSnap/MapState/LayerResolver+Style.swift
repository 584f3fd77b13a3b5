internal import _MapSnapStyle

extension LayerResolver {
  /// Style documents larger than this are refused.
  static let maximumStyleBytes = 64 << 20

  /// Resolves a style layer: reads its style (an error of the layer when it
  /// cannot be read or drawn at all, or when the map is not Web Mercator)
  /// and the frame's style (`StyleFrameResolver`), whose layer and source
  /// findings become the layer's warnings.
  mutating func resolveStyle(_ s: StyleLayerSource) {
    guard shown else { return }
    guard viewport.projection == .webMercator else {
      state.add(.style(
        "a style is drawn only on a Web Mercator map (EPSG:3857); this map is in \(viewport.projection.identifier), "
          + "which its first layer dictates", isError: true))
      return
    }
    let document: StyleDocument
    var findings: [StyleFinding] = []
    do {
      if let kept = s.kept.value.withLock({ $0 }) {
        document = kept.document
        findings = kept.findings
        for f in kept.findings { state.add(.style(f.description, isError: false)) }
      } else {
        let json = try s.document ?? Self.readStyle(s)
        // The validator's errors keep the style from being drawn; its other
        // findings are warnings, as MapLibre draws such styles.
        findings = s.findings ?? StyleValidator(expressions: CompiledExpressionChecks()).validate(json, file: s.path)
        if let e = findings.first(where: { $0.severity == .error }) {
          state.add(.style(e.description, isError: true))
          return
        }
        for f in findings { state.add(.style(f.description, isError: false)) }
        document = try StyleDocument(json: json)
        s.kept.value.withLock { $0 = (document, findings) }
      }
    } catch let e as StyleDocumentError {
      state.add(.style("\(s.path): \(e)", isError: true))
      return
    } catch let e as StyleReadError {
      state.add(.style(e.message, isError: true))
      return
    } catch {
      state.add(.style("\(s.path): \(error)", isError: true))
      return
    }
    let camera = StyleCamera(viewport: viewport, bearing: s.bearing)
    let folder = s.resolved.contains("://") ? "" : FileIO.directory(of: s.resolved)
    var annotated: [String: [FeatureID]] = [:]
    for a in map.scene.viewAnnotations {
      guard case .styleFeature(let l, let styleLayer, let id) = a.target, l == layer.id else { continue }
      if !(annotated[styleLayer]?.contains(id) ?? false) { annotated[styleLayer, default: []].append(id) }
    }
    let frame = StyleFrameResolver(
      document: document, camera: camera, styleFolder: folder, localRoot: s.localRoot, offline: s.offline, tiles: s.kept.tiles,
      sprites: s.kept.sprites, glyphs: s.kept.glyphs, annotated: annotated
    ).resolve()
    for note in frame.notes { state.add(.style(note, isError: false)) }
    // A part the validator already warned of at its path (a property that
    // does not compile) is in the layer's record, not warned of twice.
    let warned = findings.map { $0.path + ": " }
    for l in frame.layers {
      let parts = l.problemParts.filter { part in !warned.contains { part.hasPrefix($0) } }
      guard !parts.isEmpty else { continue }
      state.add(.style("style layer \(Echo.quoted(l.id)): \(parts.joined(separator: "; "))", isError: false))
    }
    state.style = frame
  }

  /// Why a style file gives no document.
  struct StyleReadError: Error {
    let message: String
  }

  /// The JSON of the style at `s`.
  static func readStyle(_ s: StyleLayerSource) throws -> JSONValue {
    if s.resolved.hasPrefix("http://") || s.resolved.hasPrefix("https://") {
      throw StyleReadError(message: "\(s.path): styles by http(s) URL are not fetched yet; give a path")
    }
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(s.resolved, maximumBytes: maximumStyleBytes)
    } catch {
      if case .notFound = error { throw StyleReadError(message: "\(s.path): no such file") }
      throw StyleReadError(message: "\(s.path): cannot read: \(error.reason)")
    }
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw StyleReadError(message: "\(s.path): not JSON: line \(error.line), column \(error.column): \(error.message)")
    }
  }
}
