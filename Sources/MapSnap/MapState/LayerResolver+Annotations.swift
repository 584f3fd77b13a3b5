extension LayerResolver {
  // MARK: - Annotation

  /// Each sublayer's status: shown only when it and its layer are visible at
  /// the scale.
  mutating func startSublayers(_ anno: AnnotationLayer) {
    let inScale = layer.scaleRange.contains(viewport.scale)
    state.sublayers = anno.sublayers.map { sub in
      var s = SublayerState(id: sub.id, scaleRange: sub.scaleRange, style: sub.style)
      if !sub.visible { s.hiddenBy.append(.notVisible) }
      if !layer.visible { s.hiddenBy.append(.layerNotVisible) }
      if !sub.scaleRange.contains(viewport.scale) { s.hiddenBy.append(.outOfScale(sub.scaleRange)) }
      if !inScale { s.hiddenBy.append(.layerOutOfScale(layer.scaleRange)) }
      if !sub.visible || !layer.visible { s.status.insert(.notVisible) }
      if !inScale || !sub.scaleRange.contains(viewport.scale) { s.status.insert(.outOfScale) }
      return s
    }
  }

  mutating func finishSublayers() {
    for i in state.sublayers.indices where state.sublayers[i].status.isEmpty && !state.status.contains(.error) {
      state.sublayers[i].status.insert(.active)
    }
  }

  /// Sorts annotation features into sublayers (first `where` that matches) and
  /// lists every text whose anchor, grown by the text's reach, meets the
  /// frame, drawn or with the reason it is not (in this order: not visible,
  /// out of scale, the layer's opacity is 0, other floor, no text, too
  /// small, too large).
  ///
  /// Only the anchors the source's point index returns are looked at: those
  /// within the farthest any text can reach at this scale (each sublayer's
  /// size at the source's largest text, capped as each text is). A
  /// sublayer's `total` counts its features that can reach the frame: a
  /// text listed whose anchor lies within `boundedReach` of the frame, what
  /// an `ogr` read holds, so that a file (which holds the whole source)
  /// and a dataset count alike; `otherFloor` those of them on another
  /// floor, where the layer draws.
  mutating func resolveAnnotations(_ index: SourceIndex, _ anno: AnnotationLayer) {
    let frame = viewport.extent
    let factor = anno.referenceScale / viewport.scale
    // An `ogr` read holds part of the dataset (and a kept read may hold more
    // than this frame asked for): its labels reach as far as the read was
    // made for, never as far as the texts it happens to hold, so the same
    // frame examines the same features whichever read serves it.
    let farthest = isOGR(anno.source) ? boundedReach(anno) : annotationReach(anno, extent: index.textExtent(anno.text))
    let anchors = index.annotationPoints(near: frame.insetBy(-(farthest * viewport.unitsPerPixel)))
    let bound = boundedReach(anno)
    let counted = bound.isNaN ? nil : frame.insetBy(-(bound * viewport.unitsPerPixel))
    let features = index.collection.features
    var next = 0
    while next < anchors.count {
      let position = anchors[next].feature
      // This feature's anchors: anchors[next..<end], in part order.
      var end = next + 1
      while end < anchors.count && anchors[end].feature == position { end += 1 }
      defer { next = end }
      inputs.examinedFeatures += 1
      let feature = features[position]
      guard let s = anno.sublayers.firstIndex(where: { $0.filter.matches(feature.properties) }) else { continue }
      let style = anno.sublayers[s].style
      var hidden: AnnotationHiddenReason? = nil
      let sublayer = state.sublayers[s].status
      if sublayer.contains(.notVisible) {
        hidden = .notVisible
      } else if sublayer.contains(.outOfScale) {
        hidden = .outOfScale
      } else if !draws {
        hidden = .transparent
      }
      if isOnOtherFloor(feature) { hidden = hidden ?? .floor }
      let look = AnnotationLook(feature, in: anno, style: style, factor: factor, pixelRatio: viewport.pixelRatio, advance: map.maxAdvance)
      hidden = hidden ?? look.hidden
      // Listed when the anchor can be within the text's reach of the frame.
      let reach = look.reach * viewport.unitsPerPixel
      let grown = frame.insetBy(-reach)
      var key: FeatureKey? = nil
      var isCounted = false
      for a in anchors[next..<end] {
        let p = feature.geometry.points[a.part]
        let box = Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
        guard grown.intersects(box) else { continue }
        if key == nil { key = self.key(feature, at: Int(position), in: index) }
        if !isCounted && counted?.intersects(box) ?? true {
          isCounted = true
          state.sublayers[s].features.total += 1
          // Counted, as for features layers, only where the layer draws.
          if draws && isOnOtherFloor(feature) {
            state.sublayers[s].features.otherFloor += 1
            state.features.otherFloor += 1
          }
        }
        state.annotations.append(
          AnnotationText(
            feature: key!, part: a.part, sublayer: s, point: p, text: look.text ?? "", angle: look.angle, size: look.size,
            haloWidth: look.haloWidth, hidden: hidden))
      }
    }
  }

  /// Texts farther than this many logical pixels from the frame are not
  /// listed, whatever their size: larger than any image side.
  static let maxListedReach = 65536.0
}
