import Foundation
import MapSnap
import Testing

// The cases of layers, inline data, graphics and view annotations.

private let layerCases: [ErrorCase] = [
  ErrorCase(
    "layers not an array", sceneDoc(okMapBlock + #", "layers": {}"#), path: "layers",
    message: ["expected an array of layers", "found an object"]),
  ErrorCase(
    "layer not an object", sceneWithLayers(featuresLayer("a"), #""b""#), path: "layers[1]",
    message: ["expected a layer (a JSON object)", #"found string "b""#]),
  ErrorCase(
    "layer id empty", sceneWithLayers(featuresLayer("")), path: "layers[0].id",
    message: ["expected a non-empty string", #"found string """#]),
  ErrorCase(
    "layer id number", sceneWithLayers(#"{"id": 7, "type": "features", "source": \#(okInlineSource), "style": {}}"#),
    path: "layers[0].id", message: ["expected a non-empty string", "found number 7"]),
  ErrorCase(
    "opacity 1.5", sceneWithLayers(featuresLayer("a", #""style": {}, "opacity": 1.5"#)), path: "layers[0].opacity",
    message: ["expected an opacity from 0 to 1", "found number 1.5"]),
  ErrorCase(
    "visible string", sceneWithLayers(featuresLayer("a", #""style": {}, "visible": "yes""#)), path: "layers[0].visible",
    message: ["expected true or false", #"found string "yes""#]),
  ErrorCase(
    "minScale < maxScale on a layer",
    sceneWithLayers(featuresLayer("a"), featuresLayer("b", #""style": {}, "minScale": 500, "maxScale": 2000"#)),
    path: "layers[1].minScale", .invertedScaleRange(minScale: 500, maxScale: 2000),
    message: ["minScale 500 is more zoomed in than maxScale 2000", "the larger denominator"],
    hint: .exactly(#"swap them: "minScale": 2000, "maxScale": 500"#)),
  ErrorCase(
    "minScale < maxScale on a rule",
    sceneWithLayers(featuresLayer("a", #""rules": [{"style": {}}, {"minScale": 1000, "maxScale": 4000, "style": {}}]"#)),
    path: "layers[0].rules[1].minScale", .invertedScaleRange(minScale: 1000, maxScale: 4000),
    message: ["minScale 1000 is more zoomed in than maxScale 4000"],
    hint: .exactly(#"swap them: "minScale": 4000, "maxScale": 1000"#)),
  ErrorCase(
    "minScale negative", sceneWithLayers(featuresLayer("a", #""style": {}, "minScale": -1"#)), path: "layers[0].minScale",
    message: ["expected a scale denominator >= 0 (0 = no limit)", "found number -1"]),
  ErrorCase(
    "maxScale string", sceneWithLayers(featuresLayer("a", #""style": {}, "maxScale": "500""#)), path: "layers[0].maxScale",
    message: ["expected a scale denominator >= 0", #"found string "500""#]),
  ErrorCase(
    "duplicate layer id", sceneWithLayers(featuresLayer("roads"), featuresLayer("rail"), featuresLayer("roads")),
    path: "layers[2].id", .duplicateID(firstPath: "layers[0]"),
    message: [#"duplicate id "roads": layers[0] already has it"#, "expected a unique layer id"]),
  ErrorCase(
    "unknown layer type feature",
    sceneWithLayers(#"{"id": "a", "type": "feature", "source": \#(okInlineSource), "style": {}}"#), path: "layers[0].type",
    message: [#"expected one of "features", "graphics", "annotation""#, #"found string "feature""#],
    hint: .exactly(#"did you mean "features"?"#)),
  ErrorCase(
    "tiles layer without a source", sceneWithLayers(#"{"id": "a", "type": "tiles"}"#), path: "layers[0].source", .missingKey,
    message: [#"expected { "mbtiles": "file" }, { "xyz": "tiles/{z}/{x}/{y}.png" } or { "geopackage": "file.gpkg" }"#]),
  ErrorCase(
    "map attribution of the wrong type", #"{"version": 1, "map": {"center": [0, 0], "scale": 1000, "size": [10, 10], "attribution": 3}}"#,
    path: "map.attribution", message: ["expected true, false, or the text to draw", "found number 3"]),
  ErrorCase(
    "layer type number", sceneWithLayers(#"{"id": "a", "type": 1}"#), path: "layers[0].type",
    message: [#"expected one of "features""#, "found number 1"]),
  ErrorCase(
    "floorField empty", sceneWithLayers(featuresLayer("a", #""style": {}, "floorField": """#)),
    path: "layers[0].floorField", message: ["expected a non-empty string", #"found string """#]),
  ErrorCase(
    "geojson path empty", sceneWithLayers(#"{"id": "a", "type": "features", "source": {"geojson": ""}, "style": {}}"#),
    path: "layers[0].source.geojson", message: ["expected a non-empty string", #"found string """#]),
  ErrorCase(
    "source not an object", sceneWithLayers(#"{"id": "a", "type": "features", "source": "x.geojson", "style": {}}"#),
    path: "layers[0].source", message: ["expected a source (a JSON object)", #"found string "x.geojson""#]),
  ErrorCase(
    "rules not an array", sceneWithLayers(featuresLayer("a", #""rules": {"style": {}}"#)), path: "layers[0].rules",
    message: ["expected an array of rules", "found an object"]),
  ErrorCase(
    "rule not an object", sceneWithLayers(featuresLayer("a", #""rules": [{"style": {}}, 3]"#)), path: "layers[0].rules[1]",
    message: ["expected a rule (a JSON object)", "found number 3"]),
  ErrorCase(
    "where with an object value",
    sceneWithLayers(featuresLayer("a", #""rules": [{"where": {"kind": {"eq": "road"}}, "style": {}}]"#)),
    path: "layers[0].rules[0].where.kind",
    message: ["expected a value or an array of values to match", "found an object"]),
  ErrorCase(
    "where with an empty array", sceneWithLayers(featuresLayer("a", #""rules": [{"where": {"kind": []}, "style": {}}]"#)),
    path: "layers[0].rules[0].where.kind", message: ["expected a non-empty array of values to match"]),
  ErrorCase(
    "where array holding an array",
    sceneWithLayers(featuresLayer("a", #""rules": [{"where": {"kind": ["a", ["b"]]}, "style": {}}]"#)),
    path: "layers[0].rules[0].where.kind[1]", message: ["expected a string, number, boolean or null", "found an array"]),
  ErrorCase(
    "where not an object", sceneWithLayers(featuresLayer("a", #""rules": [{"where": "kind = 'road'", "style": {}}]"#)),
    path: "layers[0].rules[0].where", message: ["expected an object of property: value", #"found string "kind = 'road'""#]),
]

private let sourceDataCases: [ErrorCase] = [
  ErrorCase(
    "inline data a number", sceneWithLayers(#"{"id": "a", "type": "features", "source": {"data": 5}, "style": {}}"#),
    path: "layers[0].source.data", message: ["expected a GeoJSON object", "found number 5"]),
  ErrorCase(
    "inline data without type",
    sceneWithLayers(#"{"id": "a", "type": "features", "source": {"data": {"features": []}}, "style": {}}"#),
    path: "layers[0].source.data.type", message: [#"expected a GeoJSON "type" string"#]),
  ErrorCase(
    "inline FeatureCollection without features",
    sceneWithLayers(featuresLayer("a"), #"{"id": "b", "type": "features", "source": {"data": {"type": "FeatureCollection"}}, "style": {}}"#),
    path: "layers[1].source.data.features", message: [#"expected a "features" array in a FeatureCollection"#]),
]

private let graphicCases: [ErrorCase] = [
  ErrorCase(
    "graphics not an array", sceneWithLayers(#"{"id": "g", "type": "graphics", "graphics": {}}"#),
    path: "layers[0].graphics", message: ["expected an array of graphics", "found an object"]),
  ErrorCase(
    "graphic not an object", sceneWithGraphics(okGraphic, "7"), path: "layers[0].graphics[1]",
    message: ["expected a graphic (a JSON object)", "found number 7"]),
  ErrorCase(
    "graphic LineString of one point",
    sceneWithGraphics(okGraphic, #"{"geometry": {"type": "LineString", "coordinates": [[24.94, 60.17]]}, "style": {}}"#),
    path: "layers[0].graphics[1].geometry.coordinates", message: ["expected a line of at least 2 positions, found 1"]),
  ErrorCase(
    "graphic polygon with a string position",
    sceneWithGraphics(
      #"{"geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, "x"], [1, 1], [0, 0]]]}, "style": {}}"#),
    path: "layers[0].graphics[0].geometry.coordinates[0][1]",
    message: ["expected a position [lon, lat] of finite numbers", "found an array"]),
  ErrorCase(
    "graphic unclosed ring",
    sceneWithGraphics(
      #"{"geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}, "style": {}}"#),
    path: "layers[0].graphics[0].geometry.coordinates[0]", message: ["expected a closed ring"]),
  ErrorCase(
    "graphic in a GeometryCollection",
    sceneWithGraphics(
      #"{"geometry": {"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [0, 0]}, {"type": "Point", "coordinates": [0]}]}, "style": {}}"#
    ),
    path: "layers[0].graphics[0].geometry.geometries[1].coordinates",
    message: ["expected a position [lon, lat] of finite numbers", "found an array"]),
  ErrorCase(
    "graphic geometry type misspelt",
    sceneWithGraphics(#"{"geometry": {"type": "Linestring", "coordinates": [[0, 0], [1, 1]]}, "style": {}}"#),
    path: "layers[0].graphics[0].geometry.type", message: [#"expected a geometry type: one of "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection""#, #"found string "Linestring""#],
    hint: .exactly(#"did you mean "LineString"?"#)),
  ErrorCase(
    "graphic geometry not an object", sceneWithGraphics(#"{"geometry": [0, 0], "style": {}}"#),
    path: "layers[0].graphics[0].geometry", message: ["expected a geometry object", "found an array"]),
  ErrorCase(
    "graphic id bool",
    sceneWithGraphics(#"{"id": true, "geometry": {"type": "Point", "coordinates": [0, 0]}, "style": {}}"#),
    path: "layers[0].graphics[0].id", message: ["expected a string or number", "found boolean true"]),
  ErrorCase(
    "graphic floor array",
    sceneWithGraphics(#"{"geometry": {"type": "Point", "coordinates": [0, 0]}, "style": {}, "floor": [2]}"#),
    path: "layers[0].graphics[0].floor", message: ["expected a floor as a string or number", "found an array"]),
  ErrorCase(
    "graphic style value", sceneWithGraphics(#"{"geometry": {"type": "Point", "coordinates": [0, 0]}, "style": {"lineCap": "rond"}}"#),
    path: "layers[0].graphics[0].style.lineCap", message: [#"found string "rond""#], hint: .exactly(#"did you mean "round"?"#)),
]

private let viewAnnotationCases: [ErrorCase] = [
  ErrorCase(
    "viewAnnotations not an array", sceneDoc(okMapBlock + #", "viewAnnotations": {"id": "a"}"#), path: "viewAnnotations",
    message: ["expected an array of view annotations", "found an object"]),
  ErrorCase(
    "view annotation not an object", sceneDoc(okMapBlock + #", "viewAnnotations": [{"id": "a", "coordinate": [0, 0], "text": "A"}, "b"]"#),
    path: "viewAnnotations[1]", message: ["expected a view annotation (a JSON object)", #"found string "b""#]),
]


extension SceneErrorTests {
  @Test(arguments: layerCases) fileprivate func layerValue(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: sourceDataCases) fileprivate func inlineDataNotGeoJSON(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: graphicCases) fileprivate func graphic(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: viewAnnotationCases) fileprivate func viewAnnotations(_ c: ErrorCase) throws { try check(c) }
}
