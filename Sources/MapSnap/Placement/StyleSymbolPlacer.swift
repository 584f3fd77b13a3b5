internal import _MapSnapRaster

/// Places a style's symbols as MapLibre's `Placement` does, for a flat map:
/// symbol layers from the top of the style down, so that higher layers
/// claim room first; within a layer by `symbol-sort-key` ascending, then
/// in the order the layout met them. A part (text or icon) fits when
/// `*-allow-overlap` is set or none of its boxes overlaps a box placed
/// before it; every box must reach into the frame grown by
/// `viewportPadding` CSS pixels, and with `symbol-avoid-edges` stay in its
/// tile. Text and icon are shown together unless one is `*-optional` (or
/// absent), when the other may be shown alone. A shown part's boxes block
/// later symbols unless `*-ignore-placement` is set. One collision rule
/// (`CollisionGrid`), shared with nothing else: a style's symbols and the
/// scene's labels do not collide with one another, and view annotations
/// never hide them, as in the Mapbox SDK.
struct StyleSymbolPlacer {
  let state: StyleFrameState
  /// The frame in device pixels.
  let width: Int
  let height: Int
  let pixelRatio: Double

  /// MapLibre's placement margin around the viewport, CSS pixels.
  static let viewportPadding = 100.0
  /// MapLibre's `GridIndex` cell, CSS pixels.
  static let cellSize = 25.0

  func place() -> StyleSymbolPlacement {
    var out = StyleSymbolPlacement()
    out.layers = state.symbolLayers.map { StyleSymbolPlacement.Layer(outcomes: Array(repeating: StyleSymbolOutcome(), count: $0.symbols.count)) }
    let pad = Self.viewportPadding * pixelRatio
    let area = Rect(minX: -pad, minY: -pad, maxX: Double(width) + pad, maxY: Double(height) + pad)
    var grid = CollisionGrid(frame: area, cellSize: Self.cellSize * pixelRatio)
    /// Who each grid id is: style layer id and symbol key.
    var owners: [String] = []
    for li in state.symbolLayers.indices.reversed() {
      let layer = state.symbolLayers[li]
      let order = layer.symbols.indices.sorted {
        let a = layer.symbols[$0], b = layer.symbols[$1]
        return (a.sortKey, a.order, $0) < (b.sortKey, b.order, $1)
      }
      for si in order {
        let s = layer.symbols[si]
        var outcome = StyleSymbolOutcome()
        guard s.text != nil || s.icon != nil, !s.lineTooShort else {
          outcome.reason = s.lineTooShort ? .lineTooShort : .nothingToDraw
          out.layers[li].outcomes[si] = outcome
          continue
        }
        func test(_ boxes: [Rect], allowOverlap: Bool) -> (fits: Bool, reason: StyleSymbolHiddenReason?, blocker: Int?) {
          guard boxes.contains(where: { CollisionGrid.overlaps($0, area) }) else { return (false, .outsideFrame, nil) }
          if layer.avoidEdges, let square = s.tileSquare {
            for b in boxes where b.minX < square.minX || b.minY < square.minY || b.maxX > square.maxX || b.maxY > square.maxY {
              return (false, .tileEdge, nil)
            }
          }
          guard !allowOverlap else { return (true, nil, nil) }
          for b in boxes { if let hit = grid.firstHit(b) { return (false, .collision, hit) } }
          return (true, nil, nil)
        }
        // Variable anchors: the first that fits without overlap; with
        // overlap allowed and none fitting, the first (MapLibre's two passes).
        var t = s.text.map { test($0.boxes, allowOverlap: false) }
        if let first = s.text, t?.fits == false {
          for (k, v) in s.textVariants.enumerated() {
            let r = test(v.boxes, allowOverlap: false)
            if r.fits {
              t = r
              outcome.textVariant = k + 1
              break
            }
          }
          if t?.fits == false && first.allowOverlap {
            let candidates = [first] + s.textVariants
            if let k = candidates.firstIndex(where: { test($0.boxes, allowOverlap: true).fits }) {
              t = (true, nil, nil)
              outcome.textVariant = k
            }
          }
        }
        let i = s.icon.map { test($0.boxes, allowOverlap: $0.allowOverlap) }
        var placeText = t?.fits ?? false, placeIcon = i?.fits ?? false
        let iconWithoutText = s.text == nil || s.text!.optional
        let textWithoutIcon = s.icon == nil || s.icon!.optional
        if s.text != nil && s.icon != nil {
          if !iconWithoutText && !textWithoutIcon {
            placeText = placeText && placeIcon
            placeIcon = placeText
          } else if !textWithoutIcon {
            placeText = placeText && placeIcon
          } else if !iconWithoutText {
            placeIcon = placeIcon && placeText
          }
        }
        outcome.text = placeText
        outcome.icon = placeIcon
        let failed = [t, i].compactMap { $0 }.first { !$0.fits }
        if placeText || placeIcon {
          if (s.text != nil && !placeText) || (s.icon != nil && !placeIcon) { outcome.reason = .optionalDropped }
        } else {
          outcome.reason = failed?.reason ?? .collision
          if let hit = failed?.blocker { outcome.blockedBy = owners[hit] }
        }
        let owner = "\(layer.id) \(s.key)"
        if placeText, let text = s.text(outcome.textVariant), !text.ignorePlacement {
          for b in text.boxes { grid.insert(b, id: owners.count) }
          owners.append(owner)
        }
        if placeIcon, let icon = s.icon, !icon.ignorePlacement {
          for b in icon.boxes { grid.insert(b, id: owners.count) }
          owners.append(owner)
        }
        out.layers[li].outcomes[si] = outcome
      }
      out.layers[li].drawOrder = drawOrder(layer, out.layers[li].outcomes)
    }
    return out
  }

  /// The order a layer's shown symbols are drawn in (`symbol-z-order`):
  /// `viewport-y` (or `auto` without a sort key, when symbols may overlap)
  /// by the anchor's height on the frame, top first; otherwise by sort key
  /// and the layout's order.
  private func drawOrder(_ layer: StyleSymbolLayerState, _ outcomes: [StyleSymbolOutcome]) -> [Int] {
    let shown = layer.symbols.indices.filter { outcomes[$0].isShown }
    let byY = layer.zOrder == "viewport-y" || (layer.zOrder == "auto" && !layer.hasSortKey && layer.mayOverlap)
    return shown.sorted {
      let a = layer.symbols[$0], b = layer.symbols[$1]
      if byY { return (a.anchor.y, a.order, $0) < (b.anchor.y, b.order, $1) }
      return (a.sortKey, a.order, $0) < (b.sortKey, b.order, $1)
    }
  }
}

extension StyleSymbol {
  /// Its text at the anchor placement chose (`StyleSymbolOutcome.textVariant`).
  func text(_ variant: Int) -> Text? { variant == 0 ? text : (variant <= textVariants.count ? textVariants[variant - 1] : nil) }
}
