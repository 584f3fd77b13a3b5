extension LayerResolver {
  // MARK: - What a layer reads

  /// How far beyond the frame, in logical pixels, an `ogr` source's
  /// features are read for a features layer: the farthest reach of the
  /// symbols of its rules in scale and of their labels, these taken at
  /// `OGRSource.labelTextBound` (the texts themselves are not known before
  /// reading). 0 for other sources. NaN (the whole layer) when view
  /// annotations name features of the layer: a named feature may lie
  /// anywhere, and its fate (drawn, off the frame, not drawn, no such id)
  /// must be the one the same data gives as GeoJSON.
  mutating func ogrReach(_ source: Source, styling: Styling) -> Double {
    guard case .ogr = source else { return 0 }
    if annotatedIDs != nil { return .nan }
    var farthest = 0.0
    for rule in rulesInScale(styling) {
      var reach = SymbolReach.style(rule.style, icon: icon(of: rule.style.marker))
      if let ls = rule.style.label { reach = Self.farther(reach, SymbolReach.label(OGRSource.labelTextBound, style: ls, advance: ogrAdvance)) }
      farthest = Self.farther(farthest, reach)
    }
    return farthest
  }

  /// The same for an annotation layer: its largest text at the bound.
  func ogrReach(_ anno: AnnotationLayer) -> Double {
    guard case .ogr = anno.source else { return 0 }
    return boundedReach(anno)
  }

  /// How far, in logical pixels, an annotation layer's texts of at most
  /// `OGRSource.labelTextBound` reach: the reach of an `ogr` read, and
  /// the one sublayer totals count within for every source kind.
  func boundedReach(_ anno: AnnotationLayer) -> Double {
    annotationReach(anno, extent: OGRSource.labelTextBound, advance: ogrAdvance)
  }

  /// How far a feature's label of `style` can reach (logical pixels): at
  /// the source's largest text of the label's field; for an `ogr` source,
  /// at the bound its read was made for (`ogrReach`), so that the features
  /// examined do not depend on which read, the frame's own or a larger kept
  /// one, serves the frame.
  func labelReach(_ style: LabelStyle, index: SourceIndex) -> Double {
    if case .features(let source, _) = layer.content, isOGR(source) {
      return SymbolReach.label(OGRSource.labelTextBound, style: style, advance: ogrAdvance)
    }
    return SymbolReach.label(index.textExtent(style.text), style: style, advance: map.maxAdvance)
  }

  func isOGR(_ source: Source) -> Bool {
    if case .ogr = source { return true }
    return false
  }

  /// The widest character of a text not yet read: the fonts' widest, but
  /// at most `OGRSource.labelAdvanceBound`.
  var ogrAdvance: Double { min(map.maxAdvance, OGRSource.labelAdvanceBound) }

  /// The farthest reach of `anno`'s sublayers for texts of `extent` whose
  /// characters are at most `advance` ems wide (the fonts' widest unless
  /// told), each capped at `maxListedReach` (`SymbolReach.annotation`).
  func annotationReach(_ anno: AnnotationLayer, extent: TextExtent, advance: Double? = nil) -> Double {
    let factor = anno.referenceScale / viewport.scale
    var farthest = 0.0
    for sub in anno.sublayers {
      let bound = SymbolReach.annotation(extent, style: sub.style, factor: factor, advance: advance ?? map.maxAdvance)
      farthest = Self.farther(farthest, bound.isNaN ? bound : min(bound, Self.maxListedReach))
    }
    return farthest
  }

  /// The property names a features layer uses, each under the key of the
  /// scene that names it: its rules' `where`, its labels' texts, its
  /// `floorField` and `idField`. An `ogr` read makes properties of these
  /// fields alone (`fields`).
  func propertyNames(_ styling: Styling) -> [(key: String, property: String)] {
    var names: [(key: String, property: String)] = []
    switch styling {
    case .single(let s):
      if let label = s.label { names += Self.templateNames("style.label", label.text) }
    case .rules(let rules):
      for (i, r) in rules.enumerated() {
        for c in r.filter.clauses { names.append(("rules[\(i)].where", c.property)) }
        if let label = r.style.label { names += Self.templateNames("rules[\(i)].style.label", label.text) }
      }
    }
    checkCommonProperties(&names)
    return names
  }

  /// The same for an annotation layer: its `textField`, `angleField`,
  /// sublayers' `where`, `floorField` and `idField`.
  func propertyNames(_ anno: AnnotationLayer) -> [(key: String, property: String)] {
    var names = Self.templateNames("", anno.text, field: "textField")
    if let a = anno.angleField { names.append(("angleField", a)) }
    for (i, s) in anno.sublayers.enumerated() {
      for c in s.filter.clauses { names.append(("sublayers[\(i)].where", c.property)) }
    }
    checkCommonProperties(&names)
    return names
  }

  /// The fields an `ogr` read makes properties of for a layer that uses
  /// `names`.
  static func fields(_ names: [(key: String, property: String)]) -> Set<String> { Set(names.map(\.property)) }

  /// The keys a text template's properties are checked under:
  /// `label.field` for a field, `label.text` for a template.
  static func templateNames(_ prefix: String, _ t: TextTemplate, field: String = "field") -> [(key: String, property: String)] {
    let key = (prefix.isEmpty ? "" : prefix + ".") + (t.isField ? field : "text")
    return t.properties.map { (key, $0) }
  }

  func checkCommonProperties(_ names: inout [(key: String, property: String)]) {
    if let f = layer.floorField { names.append(("floorField", f)) }
    if let f = layer.idField { names.append(("idField", f)) }
  }

  /// Warns about each of `names` (`propertyNames`) that no feature of the
  /// layer's source has. Rule: a name is unknown when the source has
  /// features and none of them has a property of that name (of any value,
  /// null included; a fixed schema's fields are every feature's, read into
  /// properties or not). The hint is
  /// the closest existing name (case-insensitive edit distance at most 2).
  /// A name used by several keys is one problem naming every key. The
  /// source's names are an aggregate of its index, gathered once.
  mutating func checkProperties(_ names: [(key: String, property: String)], of index: SourceIndex) {
    let collection = index.collection
    guard !collection.features.isEmpty || !collection.withoutGeometry.isEmpty else { return }
    let known = index.propertyNames()
    var unknown: [(property: String, keys: [String])] = []
    for (key, property) in names {
      if let k = unknown.firstIndex(where: { $0.property == property }) {
        if !unknown[k].keys.contains(key) { unknown[k].keys.append(key) }
        continue
      }
      if known.set.contains(property) { continue }
      unknown.append((property, [key]))
    }
    let all = known.ordered
    for u in unknown {
      let key = u.keys.joined(separator: ", ")
      state.add(.unknownProperty(key: key, property: u.property, suggestion: closestMatch(to: u.property, in: all, maxDistance: 2)))
    }
  }
}
