internal import _MapSnapJSON

/// The MapLibre Style Specification (version 8) as data: what each member of
/// a style, of its sources and layers, and each paint and layout property
/// may hold. Transcribed from the specification's reference
/// (`src/reference/v8.json` of maplibre-style-spec), without its
/// documentation; the layout tables are in `StyleReference+Layout.swift`,
/// the paint tables in `StyleReference+Paint.swift`.
package enum StyleReference {
  /// The layer types, in the specification's order.
  package static let layerTypes = [
    "fill", "line", "symbol", "circle", "heatmap", "fill-extrusion", "raster", "hillshade", "color-relief", "background",
  ]

  /// The source types a style may declare, in the specification's order.
  package static let sourceTypes = ["vector", "raster", "raster-dem", "geojson", "video", "image"]

  /// The paint property `name` of layers of `layerType`, or nil when that
  /// layer type has no such property (or the type is unknown).
  package static func paint(layerType: String, name: String) -> PropertySpec? {
    paintTables[layerType]?[name]
  }

  /// The layout property `name` of layers of `layerType`, or nil.
  package static func layout(layerType: String, name: String) -> PropertySpec? {
    layoutTables[layerType]?[name]
  }

  /// Every paint property of `layerType`, or nil for an unknown type.
  package static func paintProperties(layerType: String) -> SpecTable<PropertySpec>? { paintTables[layerType] }

  /// Every layout property of `layerType`, or nil for an unknown type.
  package static func layoutProperties(layerType: String) -> SpecTable<PropertySpec>? { layoutTables[layerType] }

  /// The members of a source of `type`, or nil for a type the specification
  /// does not define.
  package static func sourceMembers(type: String) -> SpecTable<MemberSpec>? { sourceTables[type] }

  /// Whether a source of `type` accepts members the specification does not
  /// name (tiled sources: "other keys to configure the data source").
  package static func sourceAcceptsOtherMembers(type: String) -> Bool {
    type == "vector" || type == "raster" || type == "raster-dem"
  }

  /// The members of a raster-dem source that only its `custom` encoding reads.
  package static let customEncodingMembers = ["redFactor", "greenFactor", "blueFactor", "baseShift"]

  /// The properties that accept `{token}` strings (replaced by a feature's
  /// property); on any other data-driven property a whole-string token is
  /// refused.
  package static let tokenProperties: Set<String> = ["text-field", "icon-image"]

  /// A layer's `filter`: a boolean expression of zoom and feature.
  package static let filter = PropertySpec("boolean", nil, .dataStep)

  /// The operators of the legacy filter syntax.
  package static let filterOperators = [
    "==", "!=", ">", ">=", "<", "<=", "in", "!in", "all", "any", "none", "has", "!has",
  ]

  /// The values `$type` compares against in a legacy filter.
  package static let geometryTypes = ["Point", "LineString", "Polygon"]

  // MARK: - Root, layers, sources

  /// The members of a style's root object.
  package static let root = SpecTable<MemberSpec>([
    "version": MemberSpec(PropertySpec("enum", nil, .none, values: ["8"]), required: true),
    "name": MemberSpec(.string()),
    "metadata": MemberSpec(.any),
    "center": MemberSpec(.array(of: "number", length: 2, nil)),
    "centerAltitude": MemberSpec(.number(nil)),
    "zoom": MemberSpec(.number(nil)),
    "bearing": MemberSpec(.number(0)),
    "pitch": MemberSpec(.number(0)),
    "roll": MemberSpec(.number(0)),
    "state": MemberSpec(PropertySpec("state", .object(JSONObject()), .none)),
    "light": MemberSpec(PropertySpec("light", nil, .none)),
    "sky": MemberSpec(PropertySpec("sky", nil, .none)),
    "projection": MemberSpec(PropertySpec("projection", nil, .none)),
    "terrain": MemberSpec(PropertySpec("terrain", nil, .none)),
    "sources": MemberSpec(PropertySpec("sources", nil, .none), required: true),
    "sprite": MemberSpec(PropertySpec("sprite", nil, .none)),
    "glyphs": MemberSpec(.string()),
    "font-faces": MemberSpec(PropertySpec("fontFaces", nil, .none)),
    "transition": MemberSpec(PropertySpec("transition", nil, .none)),
    "layers": MemberSpec(.array(of: "layer", nil), required: true),
  ])

  /// The members of a layer (its paint and layout are checked by type).
  package static let layer = SpecTable<MemberSpec>([
    "id": MemberSpec(.string(), required: true),
    "type": MemberSpec(.choice(layerTypes, nil), required: true),
    "metadata": MemberSpec(.any),
    "source": MemberSpec(.string()),
    "source-layer": MemberSpec(.string()),
    "minzoom": MemberSpec(.number(nil, min: 0, max: 24)),
    "maxzoom": MemberSpec(.number(nil, min: 0, max: 24)),
    "filter": MemberSpec(PropertySpec("filter", nil, .none)),
    "layout": MemberSpec(PropertySpec("layout", nil, .none)),
    "paint": MemberSpec(PropertySpec("paint", nil, .none)),
  ])

  /// Web Mercator's latitude limit: the default `bounds` of tiled sources.
  private static let mercatorBounds: JSONValue = [-180, -85.051129, 180, 85.051129]

  private static let tiledCommon: [(String, MemberSpec)] = [
    ("url", MemberSpec(.string())),
    ("tiles", MemberSpec(.array(of: "string", nil))),
    ("bounds", MemberSpec(.array(of: "number", length: 4, mercatorBounds))),
    ("minzoom", MemberSpec(.number(0))),
    ("maxzoom", MemberSpec(.number(22))),
    ("attribution", MemberSpec(.string())),
    ("volatile", MemberSpec(.boolean(false))),
  ]

  private static func sourceType(_ name: String) -> MemberSpec {
    MemberSpec(.choice([name], nil), required: true)
  }

  /// Four `[longitude, latitude]` corners of an image or video source.
  private static let corners = MemberSpec(
    .array(of: "array", length: 4, nil), required: true, element: .array(of: "number", length: 2, nil))

  private static let scheme = MemberSpec(.choice(["xyz", "tms"], "xyz"))

  private static let sourceTables: [String: SpecTable<MemberSpec>] = [
    "vector": SpecTable([
      "type": sourceType("vector"), "url": tiledCommon[0].1, "tiles": tiledCommon[1].1, "bounds": tiledCommon[2].1,
      "scheme": scheme, "minzoom": tiledCommon[3].1, "maxzoom": tiledCommon[4].1, "attribution": tiledCommon[5].1,
      "promoteId": MemberSpec(PropertySpec("promoteId", nil, .none)), "volatile": tiledCommon[6].1,
      "encoding": MemberSpec(.choice(["mvt", "mlt"], "mvt")),
    ]),
    "raster": SpecTable([
      "type": sourceType("raster"), "url": tiledCommon[0].1, "tiles": tiledCommon[1].1, "bounds": tiledCommon[2].1,
      "minzoom": tiledCommon[3].1, "maxzoom": tiledCommon[4].1, "tileSize": MemberSpec(.number(512)),
      "scheme": scheme, "attribution": tiledCommon[5].1, "volatile": tiledCommon[6].1,
    ]),
    "raster-dem": SpecTable([
      "type": sourceType("raster-dem"), "url": tiledCommon[0].1, "tiles": tiledCommon[1].1,
      "bounds": tiledCommon[2].1, "minzoom": tiledCommon[3].1, "maxzoom": tiledCommon[4].1,
      "tileSize": MemberSpec(.number(512)), "attribution": tiledCommon[5].1,
      "encoding": MemberSpec(.choice(["terrarium", "mapbox", "custom"], "mapbox")),
      "redFactor": MemberSpec(.number(1)), "blueFactor": MemberSpec(.number(1)), "greenFactor": MemberSpec(.number(1)),
      "baseShift": MemberSpec(.number(0)), "volatile": tiledCommon[6].1,
    ]),
    "geojson": SpecTable([
      "type": sourceType("geojson"),
      "data": MemberSpec(.any, required: true),
      "maxzoom": MemberSpec(.number(18)),
      "attribution": MemberSpec(.string()),
      "buffer": MemberSpec(.number(128, min: 0, max: 512)),
      "filter": MemberSpec(PropertySpec("filter", nil, .none)),
      "tolerance": MemberSpec(.number(0.375)),
      "cluster": MemberSpec(.boolean(false)),
      "clusterRadius": MemberSpec(.number(50, min: 0)),
      "clusterMaxZoom": MemberSpec(.number(nil)),
      "clusterMinPoints": MemberSpec(.number(nil)),
      "clusterProperties": MemberSpec(.any),
      "lineMetrics": MemberSpec(.boolean(false)),
      "generateId": MemberSpec(.boolean(false)),
      "promoteId": MemberSpec(PropertySpec("promoteId", nil, .none)),
    ]),
    "video": SpecTable([
      "type": sourceType("video"),
      "urls": MemberSpec(.array(of: "string", nil), required: true),
      "coordinates": corners,
    ]),
    "image": SpecTable([
      "type": sourceType("image"),
      "url": MemberSpec(.string(), required: true),
      "coordinates": corners,
    ]),
  ]

  // MARK: - Root objects

  /// The global light (`light`).
  package static let light = SpecTable<PropertySpec>([
    "anchor": .choice(["map", "viewport"], "viewport", .zoomStep),
    "position": .array(of: "number", length: 3, [1.15, 210, 30], .zoomInterpolated, transition: true),
    "color": .color("#ffffff", .zoomInterpolated, transition: true),
    "intensity": .number(0.5, min: 0, max: 1, .zoomInterpolated, transition: true),
  ])

  /// The sky (`sky`).
  package static let sky = SpecTable<PropertySpec>([
    "sky-color": .color("#88C6FC", .zoomInterpolated, transition: true),
    "horizon-color": .color("#ffffff", .zoomInterpolated, transition: true),
    "fog-color": .color("#ffffff", .zoomInterpolated, transition: true),
    "fog-ground-blend": .number(0.5, min: 0, max: 1, .zoomInterpolated, transition: true),
    "horizon-fog-blend": .number(0.8, min: 0, max: 1, .zoomInterpolated, transition: true),
    "sky-horizon-blend": .number(0.8, min: 0, max: 1, .zoomInterpolated, transition: true),
    "atmosphere-blend": .number(0.8, min: 0, max: 1, .zoomInterpolated, transition: true),
  ])

  /// The terrain (`terrain`).
  package static let terrain = SpecTable<MemberSpec>([
    "source": MemberSpec(.string(), required: true),
    "exaggeration": MemberSpec(.number(1, min: 0)),
  ])

  /// The projection (`projection`).
  package static let projection = SpecTable<PropertySpec>([
    "type": PropertySpec("projectionDefinition", "mercator", .zoomInterpolated)
  ])

  /// A transition (`transition`, `*-transition`), in milliseconds.
  package static let transition = SpecTable<PropertySpec>([
    "duration": .number(300, min: 0),
    "delay": .number(0, min: 0),
  ])

  /// The members of a legacy function (`{"stops": ..., "base": ...}`).
  package static let function = SpecTable<PropertySpec>([
    "expression": PropertySpec("expression", nil, .none),
    "stops": .array(of: "function_stop", nil),
    "base": .number(1, min: 0),
    "property": .string("$zoom"),
    "type": .choice(["identity", "exponential", "interval", "categorical"], "exponential"),
    "colorSpace": .choice(["rgb", "lab", "hcl"], "rgb"),
    "default": .any,
  ])

  /// The anchors of `text-anchor` and `text-variable-anchor(-offset)`.
  static let anchors = [
    "center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right",
  ]

  /// The operators of the expression language, so that an array whose first
  /// element names one is read as an expression.
  package static let expressionOperators: Set<String> = [
    "let", "var", "literal", "array", "at", "in", "index-of", "slice", "case", "match", "coalesce", "step",
    "interpolate", "interpolate-hcl", "interpolate-lab", "ln2", "pi", "e", "typeof", "string", "number", "boolean",
    "object", "collator", "format", "image", "number-format", "to-string", "to-number", "to-boolean", "to-rgba",
    "to-color", "rgb", "rgba", "get", "has", "length", "properties", "feature-state", "geometry-type", "id", "zoom",
    "heatmap-density", "line-progress", "elevation", "accumulated", "+", "*", "-", "/", "%", "^", "sqrt", "log10",
    "ln", "log2", "sin", "cos", "tan", "asin", "acos", "atan", "min", "max", "round", "abs", "ceil", "floor",
    "distance", "==", "!=", ">", "<", ">=", "<=", "all", "any", "!", "within", "is-supported-script", "upcase",
    "downcase", "concat", "resolved-locale", "global-state",
  ]
}
