/// The placement stage of a frame: the one place its three placement
/// records are written. Labels and annotation text first (`TextPlacer`,
/// which spends the frame's text budget), then the view annotations with
/// what that budget has left (`ViewAnnotationPlacer`), then the attribution
/// line (`AttributionPlacer`) and the map furniture above it (`FurniturePlacer`). The fonts used and the code points no font
/// covers are those of all three, so they are completed here, after the view
/// annotations, before the records are handed on; nothing after this stage
/// writes them.
package struct FramePlacement {
  package var text: TextPlacement
  package var boxes: ViewAnnotationPlacement
  package var attribution: AttributionPlacement
  package var furniture: FurniturePlacement
  /// Per style layer of the state (by layer index), where its symbols are placed.
  var styleSymbols: [Int: StyleSymbolPlacement] = [:]

  /// Places `state`'s labels and annotation text, `scene`'s view
  /// annotations and its attribution line, with `fonts` (nil: a frame
  /// without text) on up to `threads` threads.
  package static func place(scene: Scene, state: MapState, fonts library: FontLibrary?, threads: Int) -> FramePlacement {
    var text = TextPlacer(state: state, fonts: library, threads: threads).place()
    // A style's symbols collide among themselves only; view annotations
    // tied to a style's features read where they were placed.
    var styleSymbols: [Int: StyleSymbolPlacement] = [:]
    let v = state.viewport
    for (li, layer) in state.layers.enumerated() where layer.status.contains(.active) {
      guard let style = layer.style, !style.symbolLayers.isEmpty else { continue }
      styleSymbols[li] = StyleSymbolPlacer(state: style, width: v.deviceWidth, height: v.deviceHeight, pixelRatio: v.pixelRatio).place()
    }
    var boxes = ViewAnnotationPlacement()
    if let library {
      boxes = ViewAnnotationPlacer(
        state: state, annotations: scene.viewAnnotations, fonts: library, textBudget: text.textBudget, styleSymbols: styleSymbols
      ).place()
      for m in boxes.missingCodePoints where !text.missingCodePoints.contains(m) { text.missingCodePoints.append(m) }
      let used = Set(text.fontsUsed).union(boxes.faces.map { library.faces[$0].fullName })
      text.fontsUsed = library.names.filter { used.contains($0) }
      text.shaping = library.shaping
    }
    let attribution = AttributionPlacer(state: state, setting: scene.map.attribution, fonts: library).place()
    let furniture = FurniturePlacer(
      state: state, settings: (scene.map.scaleBar, scene.map.northArrow), fonts: library,
      attributionHeight: attribution.run.map { $0.box.height / v.pixelRatio + AttributionPlacer.margin } ?? 0
    ).place()
    return FramePlacement(text: text, boxes: boxes, attribution: attribution, furniture: furniture, styleSymbols: styleSymbols)
  }
}
