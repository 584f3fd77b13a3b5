internal import _MapSnapJSON

extension StyleReference {
  /// The layout properties of each layer type (`layout_<type>` in the
  /// reference). Layout properties take no transitions.
  static let layoutTables: [String: SpecTable<PropertySpec>] = [
    "background": SpecTable(["visibility": .visibility]),
    "fill": SpecTable([
      "fill-sort-key": .number(nil, .dataStep),
      "visibility": .visibility,
    ]),
    "circle": SpecTable([
      "circle-sort-key": .number(nil, .dataStep),
      "visibility": .visibility,
    ]),
    "heatmap": SpecTable(["visibility": .visibility]),
    "fill-extrusion": SpecTable([
      "visibility": .visibility,
      "fill-extrusion-rounded-corner-distance": .number(0, min: 0),
    ]),
    "line": SpecTable([
      "line-cap": .choice(["butt", "round", "square"], "butt", .dataStep),
      "line-join": .choice(["bevel", "round", "miter"], "miter", .dataStep),
      "line-miter-limit": .number(2, .layoutData),
      "line-round-limit": .number(1.05, .layoutData),
      "line-sort-key": .number(nil, .dataStep),
      "visibility": .visibility,
    ]),
    "symbol": symbolLayout,
    "raster": SpecTable(["visibility": .visibility]),
    "hillshade": SpecTable(["visibility": .visibility]),
    "color-relief": SpecTable(["visibility": .visibility]),
  ]

  private static let overlap = PropertySpec.choice(["never", "always", "cooperative"], nil, .zoomStep)
  private static let alignment = PropertySpec.choice(["map", "viewport", "auto"], "auto", .zoomStep)

  private static let symbolLayout = SpecTable<PropertySpec>([
    "symbol-placement": .choice(["point", "line", "line-center"], "point", .zoomStep),
    "symbol-spacing": .number(250, min: 1, .zoomInterpolated),
    "symbol-avoid-edges": .boolean(false, .zoomStep),
    "symbol-sort-key": .number(nil, .dataStep),
    "symbol-z-order": .choice(["auto", "viewport-y", "source"], "auto", .zoomStep),
    "icon-allow-overlap": .boolean(false, .zoomStep),
    "icon-overlap": overlap,
    "icon-ignore-placement": .boolean(false, .zoomStep),
    "icon-optional": .boolean(false, .zoomStep),
    "icon-rotation-alignment": alignment,
    "icon-size": .number(1, min: 0, .layoutData),
    "icon-text-fit": .choice(["none", "width", "height", "both"], "none", .zoomStep),
    "icon-text-fit-padding": .array(of: "number", length: 4, [0, 0, 0, 0], .zoomInterpolated),
    "icon-image": PropertySpec("resolvedImage", nil, .dataStep),
    "icon-rotate": .number(0, .layoutData),
    "icon-padding": PropertySpec("padding", [2], .layoutData),
    "icon-keep-upright": .boolean(false, .zoomStep),
    "icon-offset": .pair(.layoutData),
    "icon-anchor": .choice(anchors, "center", .dataStep),
    "icon-pitch-alignment": alignment,
    "text-pitch-alignment": alignment,
    "text-rotation-alignment": .choice(["map", "viewport", "viewport-glyph", "auto"], "auto", .zoomStep),
    "text-field": PropertySpec("formatted", "", .dataStep),
    "text-font": .array(of: "string", ["Open Sans Regular", "Arial Unicode MS Regular"], .dataStep),
    "text-size": .number(16, min: 0, .layoutData),
    "text-max-width": .number(10, min: 0, .layoutData),
    "text-line-height": .number(1.2, .zoomInterpolated),
    "text-letter-spacing": .number(0, .layoutData),
    "text-justify": .choice(["auto", "left", "center", "right"], "center", .dataStep),
    "text-radial-offset": .number(0, .layoutData),
    "text-variable-anchor": .array(of: "enum", nil, .zoomStep, values: anchors),
    "text-variable-anchor-offset": PropertySpec("variableAnchorOffsetCollection", nil, .layoutData),
    "text-anchor": .choice(anchors, "center", .dataStep),
    "text-max-angle": .number(45, .zoomInterpolated),
    "text-writing-mode": .array(of: "enum", nil, .zoomStep, values: ["horizontal", "vertical"]),
    "text-rotate": .number(0, .layoutData),
    "text-padding": .number(2, min: 0, .zoomInterpolated),
    "text-keep-upright": .boolean(true, .zoomStep),
    "text-transform": .choice(["none", "uppercase", "lowercase"], "none", .dataStep),
    "text-offset": .pair(.layoutData),
    "text-allow-overlap": .boolean(false, .zoomStep),
    "text-overlap": overlap,
    "text-ignore-placement": .boolean(false, .zoomStep),
    "text-optional": .boolean(false, .zoomStep),
    "visibility": .visibility,
  ])
}
