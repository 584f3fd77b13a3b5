/// Finds one layer's features by id: the rule `fit` (section 7) and
/// highlight overlays (`Overlay`) share.
enum FeatureLookup {
  /// The features of layer `layerID` whose id is `id` (the layer's
  /// `idField` property, else the GeoJSON `id`; for graphics, the graphic's
  /// `id`) and whose geometry is not empty, in feature order, in
  /// `projection`'s map units (degrees when nil). File sources are looked up
  /// through their id index, not scanned.
  /// - Throws: `SceneError` at `path` when the scene has no features or
  ///   graphics layer `layerID` (with the closest id as a hint), its source
  ///   cannot be read, or no feature with geometry has that id.
  static func features(
    _ layerID: String, _ id: FeatureID, in scene: Scene, projection: MapProjection?, sources: SourceLoader, path: String
  ) throws(SceneError) -> [Feature] {
    func fail(_ expected: String, _ found: String, hint: String? = nil) -> SceneError {
      SceneError(file: scene.file, path: path, kind: .invalidValue, expected: expected, found: found, hint: hint)
    }
    guard let layer = scene.layers.first(where: { $0.id == layerID }) else {
      let ids = scene.layers.map(\.id)
      throw fail(
        "the id of a features or graphics layer (\(ids.isEmpty ? "the scene has no layers" : Echo.list(ids.map { Echo.quoted($0) })))",
        "\(Echo.quoted(layerID))",
        hint: closestMatch(to: layerID, in: ids).map { "did you mean \(Echo.quoted($0))?" })
    }
    var found: [Feature] = []
    // The layer's ids, for the hint when none matches.
    var known: [FeatureID] = []
    switch layer.content {
    case .graphics(let graphics):
      known = graphics.compactMap { $0.id.map(FeatureID.init) }
      for (i, g) in graphics.enumerated() where g.id.map(FeatureID.init) == id && !g.geometry.isEmpty {
        let geometry = projection.map { g.geometry.projected(to: $0) } ?? g.geometry
        found.append(Feature(id: nil, properties: JSONObject(), geometry: geometry, index: i))
      }
    case .features(let source, _):
      let index: SourceIndex
      switch sources.indexed(source, projection: projection) {
      case .success(let i): index = i
      case .failure(let e): throw fail("a layer whose source can be read", "layer \(Echo.quoted(layerID)): \(e)")
      }
      // Positions past `features` are features without geometry.
      let features = index.collection.features
      let positions = index.featureIDs(field: layer.idField).positions
      if positions[id] == nil { known = Array(positions.keys) }
      for p in positions[id] ?? [] where Int(p) < features.count {
        if !features[Int(p)].geometry.isEmpty { found.append(features[Int(p)]) }
      }
    default:
      throw fail("a features or graphics layer", "layer \(Echo.quoted(layerID)) (\(layer.kind.rawValue))")
    }
    guard !found.isEmpty else {
      throw fail(
        "the id of a feature with geometry in layer \(Echo.quoted(layerID))", "\(Echo.quoted(id.text))",
        hint: closestID(to: id.text, in: known).map { "did you mean \(Echo.quoted($0))?" })
    }
    return found
  }

  /// The layer's ids that `closestID` compares at most: past these the
  /// hint is only a case-insensitive match (edit distances over millions of
  /// ids would cost seconds).
  static let hintCandidates = 100_000

  /// The id closest to `text`: the same letters in another case first, then
  /// the nearest by edit distance (at most 2), over the ids' texts.
  static func closestID(to text: String, in ids: [FeatureID]) -> String? {
    let lowered = text.lowercased()
    let texts = ids.map(\.text).sorted()
    if let same = texts.first(where: { $0.lowercased() == lowered }) { return same }
    guard texts.count <= hintCandidates else { return nil }
    return closestMatch(to: text, in: texts)
  }
}
