internal import _MapSnapRaster
internal import _MapSnapStyle

/// A feature of a style layer that a view annotation names
/// (`ViewAnnotation.Target.styleFeature`), as the frame's style drew it:
/// written by the style's resolution, read by view annotation placement.
struct StyleAnnotatedFeature: Sendable {
  var styleLayer: String
  var id: FeatureID
  /// The style has a layer of that id.
  var layerExists: Bool
  /// Where a fill, line or circle layer drew it (device pixels): a point
  /// feature's first point in its tile, the middle of a line's longest part,
  /// a polygon's pole of inaccessibility; nil when the layer did not draw it.
  var position: Point?
  /// For a symbol layer: its index in `StyleFrameState.symbolLayers` and
  /// the feature's symbols there (placement says which are shown).
  var symbolLayer: Int?
  var symbols: [Int] = []

  /// The id a view annotation finds a tile feature by: its own id, or
  /// with `promoteId` (a vector source's, a property name for all its
  /// layers or one per source layer) that property.
  static func id(of f: EvaluationFeature, promoteId: String?) -> FeatureID? {
    let value = promoteId.flatMap { f.properties[$0] } ?? f.id
    switch value {
    case .number(let n)?: return FeatureID(n)
    case .string(let s)?: return FeatureID(s)
    default: return nil
    }
  }

  /// A source's `promoteId` for source layer `layer`.
  static func promoteId(_ source: StyleSource?, layer: String?) -> String? {
    switch source?.json["promoteId"] {
    case .string(let s)?: return s
    case .object(let o)?:
      if let layer, case .string(let s)? = o[layer] { return s }
      return nil
    default: return nil
    }
  }

  /// Where a kept feature stands on the frame (`position`).
  static func position(_ kept: StyleLayerPainter.KeptFeature) -> Point? {
    let g = kept.geometry
    let t = kept.transform
    let parts = (0..<g.partCount).map { g.part($0).map { Point(Double($0.x), Double($0.y)) } }
    switch g.kind {
    case .point:
      let e = Double(kept.extent)
      guard let p = parts.joined().first(where: { $0.x >= 0 && $0.y >= 0 && $0.x < e && $0.y < e }) ?? parts.first?.first else { return nil }
      return t.apply(p.x, p.y)
    case .lineString:
      guard let line = parts.max(by: { SymbolLineAnchors.length($0) < SymbolLineAnchors.length($1) }), line.count > 1 else { return nil }
      let path = SymbolLinePath(points: line.map { t.apply($0.x, $0.y) }, segment: 0, anchor: t.apply(line[0].x, line[0].y))
      return path.point(at: SymbolLineAnchors.length(path.points) / 2)?.point
    case .polygon:
      let end = Int(g.polygonEnds.first ?? Int32(parts.count))
      return PoleOfInaccessibility.of(Array(parts.prefix(end))).map { t.apply($0.x, $0.y) }
    case .unknown: return nil
    }
  }
}
