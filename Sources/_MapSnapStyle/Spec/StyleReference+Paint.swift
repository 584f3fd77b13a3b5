internal import _MapSnapJSON

extension StyleReference {
  /// The paint properties of each layer type (`paint_<type>` in the reference).
  static let paintTables: [String: SpecTable<PropertySpec>] = [
    "fill": SpecTable([
      "fill-antialias": .boolean(true, .zoomStep),
      "fill-opacity": opacity(.paintData),
      "fill-layer-opacity": opacity(.layerOpacity),
      "fill-color": .color("#000000", .paintData, transition: true),
      "fill-outline-color": .color(nil, .paintData, transition: true),
      "fill-translate": .pair(.zoomInterpolated, transition: true),
      "fill-translate-anchor": .anchor("map"),
      "fill-pattern": pattern(.crossFadedData),
    ]),
    "fill-extrusion": SpecTable([
      "fill-extrusion-opacity": opacity(.zoomInterpolated),
      "fill-extrusion-color": .color("#000000", .paintData, transition: true),
      "fill-extrusion-translate": .pair(.zoomInterpolated, transition: true),
      "fill-extrusion-translate-anchor": .anchor("map"),
      "fill-extrusion-pattern": pattern(.crossFadedData),
      "fill-extrusion-height": .number(0, min: 0, .paintData, transition: true),
      "fill-extrusion-base": .number(0, min: 0, .paintData, transition: true),
      "fill-extrusion-vertical-gradient": .boolean(true, .zoomStep),
    ]),
    "line": SpecTable([
      "line-opacity": opacity(.paintData),
      "line-layer-opacity": opacity(.layerOpacity),
      "line-color": .color("#000000", .paintData, transition: true),
      "line-translate": .pair(.zoomInterpolated, transition: true),
      "line-translate-anchor": .anchor("map"),
      "line-width": .number(1, min: 0, .paintData, transition: true),
      "line-gap-width": .number(0, min: 0, .paintData, transition: true),
      "line-offset": .number(0, .paintData, transition: true),
      "line-blur": .number(0, min: 0, .paintData, transition: true),
      "line-dasharray": .array(of: "number", nil, .crossFadedData, transition: true, min: 0),
      "line-pattern": pattern(.crossFadedData),
      "line-gradient": .color(nil, .colorRamp("line-progress")),
    ]),
    "circle": SpecTable([
      "circle-radius": .number(5, min: 0, .paintData, transition: true),
      "circle-color": .color("#000000", .paintData, transition: true),
      "circle-blur": .number(0, .paintData, transition: true),
      "circle-opacity": opacity(.paintData),
      "circle-translate": .pair(.zoomInterpolated, transition: true),
      "circle-translate-anchor": .anchor("map"),
      "circle-pitch-scale": .anchor("map"),
      "circle-pitch-alignment": .anchor("viewport"),
      "circle-stroke-width": .number(0, min: 0, .paintData, transition: true),
      "circle-stroke-color": .color("#000000", .paintData, transition: true),
      "circle-stroke-opacity": opacity(.paintData),
    ]),
    "heatmap": SpecTable([
      "heatmap-radius": .number(30, min: 1, .paintData, transition: true),
      "heatmap-weight": .number(1, min: 0, .paintData),
      "heatmap-intensity": .number(1, min: 0, .zoomInterpolated, transition: true),
      "heatmap-color": PropertySpec("color", heatmapRamp, .colorRamp("heatmap-density")),
      "heatmap-opacity": opacity(.zoomInterpolated),
    ]),
    "symbol": SpecTable([
      "icon-opacity": opacity(.paintData),
      "icon-color": .color("#000000", .paintData, transition: true),
      "icon-halo-color": .color("rgba(0, 0, 0, 0)", .paintData, transition: true),
      "icon-halo-width": .number(0, min: 0, .paintData, transition: true),
      "icon-halo-blur": .number(0, min: 0, .paintData, transition: true),
      "icon-translate": .pair(.zoomInterpolated, transition: true),
      "icon-translate-anchor": .anchor("map"),
      "text-opacity": opacity(.paintData),
      "text-color": .color("#000000", .paintData, transition: true),
      "text-halo-color": .color("rgba(0, 0, 0, 0)", .paintData, transition: true),
      "text-halo-width": .number(0, min: 0, .paintData, transition: true),
      "text-halo-blur": .number(0, min: 0, .paintData, transition: true),
      "text-translate": .pair(.zoomInterpolated, transition: true),
      "text-translate-anchor": .anchor("map"),
    ]),
    "raster": SpecTable([
      "raster-opacity": opacity(.zoomInterpolated),
      "raster-hue-rotate": .number(0, .zoomInterpolated, transition: true),
      "raster-brightness-min": .number(0, min: 0, max: 1, .zoomInterpolated, transition: true),
      "raster-brightness-max": .number(1, min: 0, max: 1, .zoomInterpolated, transition: true),
      "raster-saturation": .number(0, min: -1, max: 1, .zoomInterpolated, transition: true),
      "raster-contrast": .number(0, min: -1, max: 1, .zoomInterpolated, transition: true),
      "resampling": resampling,
      "raster-resampling": resampling,
      "raster-fade-duration": .number(300, min: 0, .zoomInterpolated),
    ]),
    "hillshade": SpecTable([
      "hillshade-illumination-direction": PropertySpec(
        "numberArray", 335, .zoomInterpolated, minimum: 0, maximum: 359),
      "hillshade-illumination-altitude": PropertySpec("numberArray", 45, .zoomInterpolated, minimum: 0, maximum: 90),
      "hillshade-illumination-anchor": .anchor("viewport"),
      "hillshade-exaggeration": .number(0.5, min: 0, max: 1, .zoomInterpolated, transition: true),
      "hillshade-shadow-color": PropertySpec("colorArray", "#000000", .zoomInterpolated, transition: true),
      "hillshade-highlight-color": PropertySpec("colorArray", "#FFFFFF", .zoomInterpolated, transition: true),
      "hillshade-accent-color": .color("#000000", .zoomInterpolated, transition: true),
      "hillshade-method": .choice(["standard", "basic", "combined", "igor", "multidirectional"], "standard", .zoomStep),
      "resampling": resampling,
    ]),
    "color-relief": SpecTable([
      "color-relief-opacity": opacity(.zoomInterpolated),
      "color-relief-color": .color(nil, .colorRamp("elevation")),
      "resampling": resampling,
    ]),
    "background": SpecTable([
      "background-color": .color("#000000", .zoomInterpolated, transition: true),
      "background-pattern": pattern(.crossFaded),
      "background-opacity": opacity(.zoomInterpolated),
    ]),
  ]

  /// An opacity: 0...1, default 1, with a transition.
  private static func opacity(_ traits: ExpressionTraits) -> PropertySpec {
    .number(1, min: 0, max: 1, traits, transition: true)
  }

  /// An image from the sprite, with a transition.
  private static func pattern(_ traits: ExpressionTraits) -> PropertySpec {
    PropertySpec("resolvedImage", nil, traits, transition: true)
  }

  private static let resampling = PropertySpec.choice(["linear", "nearest"], "linear", .zoomStep)

  /// `heatmap-color`'s default: transparent blue through royal blue, cyan,
  /// lime and yellow to red as the density goes from 0 to 1.
  private static let heatmapRamp: JSONValue = [
    "interpolate", ["linear"], ["heatmap-density"],
    0, "rgba(0, 0, 255, 0)", 0.1, "royalblue", 0.3, "cyan", 0.5, "lime", 0.7, "yellow", 1, "red",
  ]
}
