extension LayerResolver {
  // MARK: - Features and graphics

  /// Styles each feature with the first rule that takes it, leaves out other
  /// floors, and keeps the features whose symbols or label can reach the frame.
  ///
  /// Only the features the source's index returns are looked at: those whose
  /// bounds, grown by the farthest any feature's symbols and label can reach
  /// at this scale, meet the frame. Every other feature would fail the exact
  /// test in `add` (its own reach is no farther), so the drawables are the
  /// same as a scan's, in feature order. Features on other floors are
  /// counted over the whole source, once per floor (`otherFloorCount`).
  mutating func resolveFeatures(_ index: SourceIndex, styling: Styling) {
    guard draws else { return }
    let rules = rulesInScale(styling)
    // Per rule: its icon and how far its symbols reach (logical pixels).
    var reaches: [Double] = []
    for r in rules { reaches.append(SymbolReach.style(r.style, icon: icon(of: r.style.marker))) }
    // The farthest any feature can reach: each rule's symbols, and its label
    // at the source's largest text of the label's field.
    var farthest = 0.0
    for (r, rule) in rules.enumerated() {
      var reach = reaches[r]
      if let ls = rule.style.label {
        if ls.placement == .point {
          reach = Self.farther(reach, labelReach(ls, index: index))
        }
      }
      farthest = Self.farther(farthest, reach)
    }
    if let floor = map.floor, let field = layer.floorField {
      state.features.otherFloor = index.otherFloorCount(field: field, floor: floor)
    }
    let features = index.collection.features
    let candidates = index.features(near: viewport.extent, reach: farthest * viewport.unitsPerPixel)
    inputs.examinedFeatures += candidates.count
    state.drawables.reserveCapacity(candidates.count)
    for position in candidates {
      let feature = features[Int(position)]
      if isOnOtherFloor(feature) { continue }
      guard let r = rules.firstIndex(where: { $0.filter.matches(feature.properties) }) else { continue }
      let style = rules[r].style
      var reach = reaches[r]
      var label: LabelRequest? = nil
      if let ls = style.label {
        let (request, labelReach) = LabelRequest.of(ls, properties: feature.properties, pixelRatio: viewport.pixelRatio, advance: map.maxAdvance)
        if let labelReach { reach = max(reach, labelReach) }
        label = request
      }
      // Only labels and `collides` markers name their feature in a report,
      // and only a feature that reaches the frame is keyed.
      guard meetsFrame(feature.geometry, reach) else { continue }
      let k = key(feature, at: Int(position), in: index, digest: label != nil || style.marker?.collides == true)
      if case .drawable = add(Drawable(geometry: feature.geometry, style: style, feature: k, label: label), reach: reach) {
        drawnPositions.append(position)
      }
    }
  }

  /// The rules that can match at this scale (one for a single style).
  func rulesInScale(_ styling: Styling) -> [Rule] {
    switch styling {
    case .single(let s): return [Rule(style: s)]
    case .rules(let all): return all.filter { $0.scaleRange.contains(viewport.scale) }
    }
  }

  /// True when the map has a floor and `feature` is on another (by the
  /// layer's `floorField`).
  func isOnOtherFloor(_ feature: Feature) -> Bool {
    guard let floor = map.floor, let field = layer.floorField else { return false }
    return SourceIndex.isOnOtherFloor(feature, field: field, floor: floor)
  }

  /// The larger reach; NaN when either is (a query then returns everything).
  static func farther(_ a: Double, _ b: Double) -> Double {
    a.isNaN || b.isNaN ? .nan : max(a, b)
  }

  /// Records, for the ids this layer's view annotations name, what became
  /// of their features (see `AnnotatedFeature`), and every id of the source for
  /// hints. Only the named ids' features are looked at, through the
  /// source's id index: the first drawn wins, then any off the frame, then
  /// any not drawn (on another floor, taken by no rule, without geometry).
  mutating func recordAnnotatedFeatures(of index: SourceIndex, styling: Styling) {
    guard let named = annotatedIDs else { return }
    let ids = index.featureIDs(field: layer.idField)
    state.featureIDs = ids.sortedTexts
    let features = index.collection.features
    let rules = draws ? rulesInScale(styling) : []
    for id in named {
      guard let positions = ids.positions[id] else { continue }
      var fate = AnnotatedFeature.notDrawn
      for p in positions where draws && Int(p) < features.count {
        let f = features[Int(p)]
        if f.geometry.isEmpty || isOnOtherFloor(f) || !rules.contains(where: { $0.filter.matches(f.properties) }) { continue }
        if let k = drawableIndex(ofPosition: p) {
          fate = .drawable(k)
          break
        }
        fate = .offFrame
      }
      state.annotatedFeatures[id] = fate
    }
  }

  /// View annotations cannot name an annotation layer (the scene decoder
  /// refuses it); for a scene built otherwise, the features of such a layer
  /// without geometry are not drawn and its other features are not tied.
  mutating func recordAnnotatedFeatures(ofAnnotations index: SourceIndex) {
    guard let named = annotatedIDs else { return }
    var fates: [FeatureID: AnnotatedFeature] = [:]
    for f in index.collection.withoutGeometry {
      if let id = FeatureIDIndex.id(of: f, idField: layer.idField) { fates[id] = .notDrawn }
    }
    state.featureIDs = fates.keys.map(\.text).sorted()
    for id in named { state.annotatedFeatures[id] = fates[id] }
  }

  /// The index in `drawables` of the feature at `position` in the source's
  /// `features`, when it is drawn.
  func drawableIndex(ofPosition position: Int32) -> Int? {
    var low = 0
    var high = drawnPositions.count
    while low < high {
      let mid = (low + high) / 2
      if drawnPositions[mid] < position { low = mid + 1 } else { high = mid }
    }
    return low < drawnPositions.count && drawnPositions[low] == position ? low : nil
  }

  /// Graphics: each with its own style, left out on other floors.
  mutating func resolveGraphics(_ graphics: [Graphic]) {
    defer { keepAnnotatedIDs() }
    state.features.total = graphics.count
    for (i, g) in graphics.enumerated() {
      let key = FeatureKey(id: g.id.map(FeatureID.init), index: i)
      guard draws else {
        noteAnnotated(key, .notDrawn)
        continue
      }
      if let floor = map.floor, let f = g.floor, f != floor {
        state.features.otherFloor += 1
        noteAnnotated(key, .notDrawn)
        continue
      }
      let reach = SymbolReach.style(g.style, icon: icon(of: g.style.marker))
      let drawable = Drawable(geometry: g.geometry.projected(to: viewport.projection), style: g.style, feature: key, label: nil)
      noteAnnotated(key, add(drawable, reach: reach))
    }
  }

  /// The feature's key (`FeatureKey`'s rule): its id, else its digest
  /// (when `digest`: the key is named by the report), numbered among the
  /// layer's features keyed in this frame in read order (features of one
  /// digest share geometry, style and used properties, so they reach the
  /// frame together and in no order that matters).
  mutating func key(_ f: Feature, at position: Int, in index: SourceIndex, digest wanted: Bool = true) -> FeatureKey {
    let own = idsAreFIDs ? nil : f.id
    if let id = (layer.idField.flatMap { f.properties[$0] } ?? own).flatMap(FeatureID.init(json:)) {
      return FeatureKey(id: id, index: f.index)
    }
    guard wanted else { return FeatureKey(id: nil, index: f.index) }
    let digest = index.digestKey(position, fields: keyFields, projection: viewport.projection)
    let n = (digestsSeen[digest] ?? 0) + 1
    digestsSeen[digest] = n
    return FeatureKey(id: nil, index: f.index, digest: n == 1 ? digest : "\(digest)-\(n)")
  }

  /// True when `g`, grown by `reach` logical pixels, meets the frame: the
  /// exact test `add` makes.
  func meetsFrame(_ g: Geometry, _ reach: Double) -> Bool {
    !g.isEmpty && g.bounds.insetBy(-reach * viewport.unitsPerPixel).intersects(viewport.extent)
  }

  /// Keeps `d` when its geometry, grown by `reach` logical pixels, meets the
  /// frame (the exact test); returns what became of it.
  @discardableResult
  mutating func add(_ d: Drawable, reach: Double) -> AnnotatedFeature {
    guard !d.geometry.isEmpty else { return .notDrawn }
    guard meetsFrame(d.geometry, reach) else { return .offFrame }
    state.drawables.append(d)
    return .drawable(state.drawables.count - 1)
  }

  /// Records what became of a graphic for view annotations tied to it. With
  /// several graphics of one id, the first drawn one wins, then any off the
  /// frame, then any not drawn.
  mutating func noteAnnotated(_ key: FeatureKey, _ fate: AnnotatedFeature) {
    guard annotatedIDs != nil, let id = key.id else { return }
    func rank(_ f: AnnotatedFeature) -> Int {
      switch f {
      case .drawable: return 2
      case .offFrame: return 1
      case .notDrawn: return 0
      }
    }
    if let old = state.annotatedFeatures[id], rank(old) >= rank(fate) { return }
    state.annotatedFeatures[id] = fate
  }

  /// Keeps, of a graphics layer's annotated graphics, those of the named ids,
  /// and lists every id for hints.
  mutating func keepAnnotatedIDs() {
    guard let named = annotatedIDs else { return }
    state.featureIDs = state.annotatedFeatures.keys.map(\.text).sorted()
    state.annotatedFeatures = state.annotatedFeatures.filter { named.contains($0.key) }
  }
}
