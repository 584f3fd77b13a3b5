import _MapSnapRaster

@testable import MapSnap

/// What the resolver decided for one features or annotation layer, in a
/// form that compares whole: the reference below and `MapResolver` must give
/// equal prints for every frame.
struct LayerPrint: Equatable, CustomStringConvertible {
  var id: String
  var problems: [LayerProblem] = []
  var counts = FeatureCounts()
  var sublayers: [FeatureCounts] = []
  var drawables: [DrawablePrint] = []
  var annotations: [AnnotationPrint] = []
  /// The fates of the ids view annotations name.
  var tied: [FeatureID: AnnotatedFeature] = [:]
  /// Every id of the source, sorted.
  var featureIDs: [String] = []

  var description: String {
    "\(id): \(problems.count) problems, \(counts), \(drawables.count) drawables, \(annotations.count) annotations, tied \(tied)"
  }

  /// The print of a layer as `MapResolver` left it.
  init(_ l: LayerState) {
    id = l.id
    problems = l.problems
    counts = l.features
    sublayers = l.sublayers.map(\.features)
    // Keys are compared by id and position: the digest of a feature
    // without id is `FeatureKeyDigest`'s, which the scan does not redo.
    drawables = l.drawables.map(DrawablePrint.init).map { var d = $0; d.feature.digest = nil; return d }
    annotations = l.annotations.map(AnnotationPrint.init).map { var a = $0; a.feature.digest = nil; return a }
    tied = l.annotatedFeatures
    featureIDs = l.featureIDs
  }

  init(id: String) { self.id = id }
}

/// A drawable's key, its style's look (enough to tell the rules of a test
/// scene apart), its label, and its geometry's bounds and size.
struct DrawablePrint: Equatable {
  var feature: FeatureKey
  var fill: Color?
  var stroke: Color?
  var strokeWidth: Double
  var labelText: String?
  var labelSkip: LabelHiddenReason?
  var bounds: Rect
  var points: Int

  init(_ d: Drawable) {
    feature = d.feature
    fill = d.style.fill
    stroke = d.style.stroke
    strokeWidth = d.style.strokeWidth
    labelText = d.label?.text
    labelSkip = d.label?.skip
    bounds = d.geometry.bounds
    points = d.geometry.pointCount
  }
}

/// Every field of an annotation text.
struct AnnotationPrint: Equatable {
  var feature: FeatureKey
  var part: Int
  var sublayer: Int
  var point: Point
  var text: String
  var angle: Double
  var size: Double
  var haloWidth: Double
  var hidden: AnnotationHiddenReason?

  init(_ t: AnnotationText) {
    feature = t.feature
    part = t.part
    sublayer = t.sublayer
    point = t.point
    text = t.text
    angle = t.angle
    size = t.size
    haloWidth = t.haloWidth
    hidden = t.hidden
  }
}

/// The resolution of features and annotation layers as it was before
/// sources were indexed: every feature of the source looked at, every count
/// and name gathered by a scan, every feature tied by a scan. A reference
/// for the index, written out again from the pre-index `MapResolver`.
struct ScanReference {
  let scene: Scene
  let viewport: Viewport
  let floor: FloorValue?
  let maxAdvance: Double

  /// Prints of every features and annotation layer of the scene.
  func resolve(sources: SourceLoader, icons: IconCache) -> [LayerPrint] {
    var tied: [String: Set<FloorValue>] = [:]
    for a in scene.viewAnnotations { if case .feature(let layer, let id) = a.target { tied[layer, default: []].insert(id) } }
    var out: [LayerPrint] = []
    for layer in scene.layers {
      let shown = layer.visible && layer.scaleRange.contains(viewport.scale)
      let draws = shown && DisplayList.groupAlpha(layer.opacity) > 0
      var l = Layer(print: LayerPrint(id: layer.id), reference: self, layer: layer, draws: draws, tied: tied[layer.id])
      switch layer.content {
      case .features(let source, let styling):
        if let c = l.load(source, sources) {
          l.checkProperties(c, styling: styling)
          if case .rules(let rules) = styling { l.checkValues(c, rules.enumerated().map { ("rules[\($0)].where", $1.filter) }) }
          l.resolveFeatures(c, styling: styling, icons: icons)
        }
      case .annotation(let anno):
        l.print.sublayers = Array(repeating: FeatureCounts(), count: anno.sublayers.count)
        if let c = l.load(anno.source, sources) {
          l.checkProperties(c, annotation: anno)
          l.checkValues(c, anno.sublayers.enumerated().map { ("sublayers[\($0)].where", $1.filter) })
          l.resolveAnnotations(c, anno)
        }
      default: continue
      }
      // Every id was tied: keep the named ones' fates, list every id.
      l.print.featureIDs = l.allTied.keys.map(\.text).sorted()
      for id in tied[layer.id] ?? [] { l.print.tied[id] = l.allTied[id] }
      if tied[layer.id] == nil { l.print.featureIDs = [] }
      out.append(l.print)
    }
    return out
  }

  private struct Layer {
    var print: LayerPrint
    let reference: ScanReference
    let layer: MapSnap.Layer
    let draws: Bool
    let tied: Set<FloorValue>?
    var allTied: [FloorValue: AnnotatedFeature] = [:]
    var drawableCount = 0

    init(print: LayerPrint, reference: ScanReference, layer: MapSnap.Layer, draws: Bool, tied: Set<FloorValue>?) {
      self.print = print
      self.reference = reference
      self.layer = layer
      self.draws = draws
      self.tied = tied
    }

    var viewport: Viewport { reference.viewport }

    mutating func load(_ source: Source, _ sources: SourceLoader) -> FeatureCollection? {
      switch sources.load(source, projection: viewport.projection) {
      case .failure(let error):
        print.problems.append(.source(error))
        return nil
      case .success(let c):
        print.counts.total = c.features.count + c.invalidCount + c.unlocatedCount + c.unprojectableCount
        print.counts.invalid = c.invalidCount
        if c.unprojectableCount > 0, case .reprojected(_, let crs) = source {
          print.problems.append(.unprojectable(count: c.unprojectableCount, crs: crs))
        }
        if c.notDegreesCount > 0 { print.problems.append(.notDegrees(count: c.notDegreesCount, total: c.features.count)) }
        for f in c.withoutGeometry { noteAnnotated(f, .notDrawn) }
        if c.invalidCount > 0 { print.problems.append(.invalidFeatures(count: c.invalidCount, samples: c.invalidSamples)) }
        return c
      }
    }

    mutating func checkProperties(_ c: FeatureCollection, styling: Styling) {
      var names: [(key: String, property: String)] = []
      switch styling {
      case .single(let s):
        if let label = s.label { names += label.text.properties.map { ("style.label." + (label.text.isField ? "field" : "text"), $0) } }
      case .rules(let rules):
        for (i, r) in rules.enumerated() {
          for clause in r.filter.clauses { names.append(("rules[\(i)].where", clause.property)) }
          if let label = r.style.label {
            names += label.text.properties.map { ("rules[\(i)].style.label." + (label.text.isField ? "field" : "text"), $0) }
          }
        }
      }
      check(names, c)
    }

    mutating func checkProperties(_ c: FeatureCollection, annotation anno: AnnotationLayer) {
      var names: [(key: String, property: String)] = anno.text.properties.map { (anno.text.isField ? "textField" : "text", $0) }
      if let a = anno.angleField { names.append(("angleField", a)) }
      for (i, s) in anno.sublayers.enumerated() {
        for clause in s.filter.clauses { names.append(("sublayers[\(i)].where", clause.property)) }
      }
      check(names, c)
    }

    private mutating func check(_ given: [(key: String, property: String)], _ c: FeatureCollection) {
      var names = given
      if let f = layer.floorField { names.append(("floorField", f)) }
      if let f = layer.idField { names.append(("idField", f)) }
      let features = c.features + c.withoutGeometry
      guard !features.isEmpty else { return }
      var unknown: [(property: String, keys: [String])] = []
      for (key, property) in names {
        if let k = unknown.firstIndex(where: { $0.property == property }) {
          if !unknown[k].keys.contains(key) { unknown[k].keys.append(key) }
          continue
        }
        if features.contains(where: { $0.properties.index(forKey: property) != nil }) { continue }
        unknown.append((property, [key]))
      }
      guard !unknown.isEmpty else { return }
      var seen = Set<String>()
      var all: [String] = []
      for f in features { for k in f.properties.keys where seen.insert(k).inserted { all.append(k) } }
      for u in unknown {
        print.problems.append(
          .unknownProperty(key: u.keys.joined(separator: ", "), property: u.property, suggestion: closestMatch(to: u.property, in: all, maxDistance: 2)))
      }
    }

    /// `where` values no feature holds, by a scan of every feature.
    mutating func checkValues(_ c: FeatureCollection, _ clauses: [(key: String, filter: Filter)]) {
      let features = c.features + c.withoutGeometry
      guard !features.isEmpty else { return }
      var found: [(property: String, value: JSONValue, keys: [String])] = []
      for (key, filter) in clauses {
        for clause in filter.clauses where features.contains(where: { $0.properties.index(forKey: clause.property) != nil }) {
          for value in clause.values where value != .null {
            if features.contains(where: { $0.properties[clause.property].map { Filter.equal($0, value) } ?? false }) { continue }
            if let k = found.firstIndex(where: { $0.property == clause.property && Filter.equal($0.value, value) }) {
              if !found[k].keys.contains(key) { found[k].keys.append(key) }
            } else {
              found.append((clause.property, value, [key]))
            }
          }
        }
      }
      for f in found {
        var suggestion: JSONValue? = nil
        var strings: [String] = []
        for feature in features {
          if case .string(let s)? = feature.properties[f.property], !strings.contains(s) { strings.append(s) }
        }
        let held = features.compactMap { $0.properties[f.property] }
        switch f.value {
        case .string(let s):
          if let n = Double(s), held.contains(where: { Filter.equal($0, .number(n)) }) {
            suggestion = .number(n)
          } else {
            suggestion = closestMatch(to: s, in: strings, maxDistance: 2).map(JSONValue.string)
          }
        case .number(let n):
          let t = MapResolver.text(.number(n)) ?? ""
          if strings.contains(t) { suggestion = .string(t) }
        case .bool(let b):
          if strings.contains(b ? "true" : "false") { suggestion = .string(b ? "true" : "false") }
        default: break
        }
        print.problems.append(.unmatchedValue(key: f.keys.joined(separator: ", "), property: f.property, value: f.value, suggestion: suggestion))
      }
    }

    mutating func resolveFeatures(_ c: FeatureCollection, styling: Styling, icons: IconCache) {
      guard draws else {
        for f in c.features { noteAnnotated(f, .notDrawn) }
        return
      }
      let rules: [Rule]
      switch styling {
      case .single(let s): rules = [Rule(style: s)]
      case .rules(let all): rules = all.filter { $0.scaleRange.contains(viewport.scale) }
      }
      var reaches: [Double] = []
      for r in rules {
        var icon: IconSize? = nil
        if let path = r.style.marker?.icon, case .success(let image) = icons.image(atPath: path) { icon = IconSize(image) }
        reaches.append(SymbolReach.style(r.style, icon: icon))
      }
      for feature in c.features {
        if let floor = reference.floor, let field = layer.floorField,
          let value = feature.properties[field].flatMap(FloorValue.init(json:)), value != floor
        {
          print.counts.otherFloor += 1
          noteAnnotated(feature, .notDrawn)
          continue
        }
        guard let r = rules.firstIndex(where: { $0.filter.matches(feature.properties) }) else {
          noteAnnotated(feature, .notDrawn)
          continue
        }
        let style = rules[r].style
        var reach = reaches[r]
        var label: LabelRequest? = nil
        if let ls = style.label {
          let (request, labelReach) = LabelRequest.of(ls, properties: feature.properties, pixelRatio: viewport.pixelRatio, advance: reference.maxAdvance)
          if let labelReach { reach = max(reach, labelReach) }
          label = request
        }
        guard !feature.geometry.isEmpty else {
          noteAnnotated(feature, .notDrawn)
          continue
        }
        guard feature.geometry.bounds.insetBy(-reach * viewport.unitsPerPixel).intersects(viewport.extent) else {
          noteAnnotated(feature, .offFrame)
          continue
        }
        noteAnnotated(feature, .drawable(drawableCount))
        drawableCount += 1
        print.drawables.append(DrawablePrint(Drawable(geometry: feature.geometry, style: style, feature: key(feature), label: label)))
      }
    }

    mutating func resolveAnnotations(_ c: FeatureCollection, _ anno: AnnotationLayer) {
      let frame = viewport.extent
      let factor = anno.referenceScale / viewport.scale
      let layerInScale = layer.scaleRange.contains(viewport.scale)
      for feature in c.features {
        guard let s = anno.sublayers.firstIndex(where: { $0.filter.matches(feature.properties) }) else { continue }
        let sub = anno.sublayers[s]
        let style = sub.style
        var hidden: AnnotationHiddenReason? = nil
        var onOtherFloor = false
        if !sub.visible || !layer.visible {
          hidden = .notVisible
        } else if !layerInScale || !sub.scaleRange.contains(viewport.scale) {
          hidden = .outOfScale
        } else if !draws {
          hidden = .transparent
        }
        if let floor = reference.floor, let field = layer.floorField,
          let value = feature.properties[field].flatMap(FloorValue.init(json:)), value != floor
        {
          onOtherFloor = true
          hidden = hidden ?? .floor
        }
        let look = AnnotationLook(
          feature, in: anno, style: style, factor: factor, pixelRatio: viewport.pixelRatio, advance: reference.maxAdvance)
        hidden = hidden ?? look.hidden
        let reach = look.reach * viewport.unitsPerPixel
        let grown = frame.insetBy(-reach)
        // A sublayer counts the features with a text listed within the
        // bounded reach (at most 32 characters on 2 lines, 1 em each).
        var bound = 0.0
        for sl in anno.sublayers {
          let b = SymbolReach.annotation(OGRSource.labelTextBound, style: sl.style, factor: factor, advance: min(reference.maxAdvance, 1))
          bound = bound.isNaN || b.isNaN ? .nan : max(bound, min(b, 65536))
        }
        let counted = bound.isNaN ? nil : frame.insetBy(-(bound * viewport.unitsPerPixel))
        if feature.geometry.points.contains(where: {
          let box = Rect(minX: $0.x, minY: $0.y, maxX: $0.x, maxY: $0.y)
          return grown.intersects(box) && (counted?.intersects(box) ?? true)
        }) {
          print.sublayers[s].total += 1
          if draws && onOtherFloor {
            print.sublayers[s].otherFloor += 1
            print.counts.otherFloor += 1
          }
        }
        for (part, p) in feature.geometry.points.enumerated() where grown.intersects(Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)) {
          let t = AnnotationText(
            feature: key(feature), part: part, sublayer: s, point: p, text: look.text ?? "", angle: look.angle, size: look.size, haloWidth: look.haloWidth,
            hidden: hidden)
          print.annotations.append(AnnotationPrint(t))
        }
      }
    }

    private func key(_ f: Feature) -> FeatureKey {
      FeatureKey(id: (layer.idField.flatMap { f.properties[$0] } ?? f.id).flatMap(FloorValue.init(json:)), index: f.index)
    }

    /// (The key is worked out only for tied layers: the scan is slow enough.)
    private mutating func noteAnnotated(_ f: Feature, _ fate: AnnotatedFeature) {
      guard tied != nil, let id = key(f).id else { return }
      func rank(_ f: AnnotatedFeature) -> Int {
        switch f {
        case .drawable: return 2
        case .offFrame: return 1
        case .notDrawn: return 0
        }
      }
      if let old = allTied[id], rank(old) >= rank(fate) { return }
      allTied[id] = fate
    }
  }
}
