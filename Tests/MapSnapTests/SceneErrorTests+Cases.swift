import Foundation
import MapSnap
import Testing

// The scene errors checked case by case: each case a scene text and the
// path, kind, message parts and hint of its error.

enum HintCheck: Sendable {
  /// The error has no hint.
  case none
  /// The hint is exactly this text.
  case exactly(String)
}

struct ErrorCase: Sendable, CustomTestStringConvertible {
  var name: String
  var json: String
  var path: String
  var kind: SceneError.Kind
  /// Substrings the message must contain: what was expected and what was found.
  var message: [String]
  var hint: HintCheck = .none

  var testDescription: String { name }

  init(_ name: String, _ json: String, path: String, _ kind: SceneError.Kind = .invalidValue, message: [String], hint: HintCheck = .none) {
    self.name = name
    self.json = json
    self.path = path
    self.kind = kind
    self.message = message
    self.hint = hint
  }
}

func check(_ c: ErrorCase, sourceLocation: SourceLocation = #_sourceLocation) throws {
  let error = try #require(decodeError(c.json), "\(c.name): the scene decoded without error", sourceLocation: sourceLocation)
  #expect(error.file == errorSceneFile, sourceLocation: sourceLocation)
  #expect(error.path == c.path, "\(c.name): \(error)", sourceLocation: sourceLocation)
  #expect(error.kind == c.kind, "\(c.name): \(error)", sourceLocation: sourceLocation)
  for part in c.message {
    #expect(error.message.contains(part), "\(c.name): message \"\(error.message)\" lacks \"\(part)\"", sourceLocation: sourceLocation)
  }
  switch c.hint {
  case .none: #expect(error.hint == nil, "\(c.name): unexpected hint", sourceLocation: sourceLocation)
  case .exactly(let h): #expect(error.hint == h, "\(c.name)", sourceLocation: sourceLocation)
  }
  // The description names the file, the path and the message (and the hint).
  #expect(error.description.hasPrefix(errorSceneFile + (c.path.isEmpty ? "" : ": \(c.path)")), sourceLocation: sourceLocation)
  #expect(error.description.contains(error.message), sourceLocation: sourceLocation)
  if let h = error.hint { #expect(error.description.hasSuffix("(\(h))"), sourceLocation: sourceLocation) }
}

private let unknownKeyCases: [ErrorCase] = [
  ErrorCase(
    "top level, close", sceneDoc(okMapBlock + #", "layer": []"#), path: "layer", .unknownKey,
    message: [#"unknown key "layer" in a scene"#], hint: .exactly(#"did you mean "layers"?"#)),
  ErrorCase(
    "top level, nothing close", sceneDoc(okMapBlock + #", "foo": 1"#), path: "foo", .unknownKey,
    message: [#"unknown key "foo" in a scene"#], hint: .exactly("allowed: version, map, layers, viewAnnotations")),
  ErrorCase(
    "map", sceneWithMap(#""centre": [24.94, 60.17], "scale": 2000, "size": [800, 600]"#), path: "map.centre", .unknownKey,
    message: [#"unknown key "centre" in the map block"#], hint: .exactly(#"did you mean "center"?"#)),
  ErrorCase(
    "map zoom typo", sceneWithMap(#""center": [24.94, 60.17], "zom": 17, "size": [800, 600]"#), path: "map.zom", .unknownKey,
    message: [#"unknown key "zom""#], hint: .exactly(#"did you mean "zoom"?"#)),
  ErrorCase(
    "layer, close", sceneWithLayers(featuresLayer("a"), featuresLayer("b", #""style": {}, "opactiy": 0.5"#)),
    path: "layers[1].opactiy", .unknownKey,
    message: [#"unknown key "opactiy" in a features layer"#], hint: .exactly(#"did you mean "opacity"?"#)),
  ErrorCase(
    "layer, nothing close", sceneWithLayers(featuresLayer("a", #""style": {}, "visibility": false"#)),
    path: "layers[0].visibility", .unknownKey, message: [#"unknown key "visibility" in a features layer"#],
    hint: .exactly("allowed: id, type, visible, opacity, minScale, maxScale, floorField, idField, attribution, source, style, rules")),
  ErrorCase(
    "key of another layer type", sceneWithLayers(featuresLayer("a", #""style": {}, "sublayers": []"#)),
    path: "layers[0].sublayers", .unknownKey, message: [#"unknown key "sublayers" in a features layer"#],
    hint: .exactly("allowed: id, type, visible, opacity, minScale, maxScale, floorField, idField, attribution, source, style, rules")),
  ErrorCase(
    "key of a features layer in a graphics layer",
    sceneWithLayers(#"{"id": "g", "type": "graphics", "graphics": [], "source": \#(okInlineSource)}"#),
    path: "layers[0].source", .unknownKey, message: [#"unknown key "source" in a graphics layer"#],
    hint: .exactly("allowed: id, type, visible, opacity, minScale, maxScale, floorField, idField, attribution, graphics")),
  ErrorCase(
    "annotation layer",
    sceneWithLayers(#"{"id": "t", "type": "annotation", "source": \#(okInlineSource), "textFeild": "text"}"#),
    path: "layers[0].textFeild", .unknownKey, message: [#"unknown key "textFeild" in an annotation layer"#],
    hint: .exactly(#"did you mean "textField"?"#)),
  ErrorCase(
    "style", sceneWithStyle(#""fil": "red""#), path: "layers[2].style.fil", .unknownKey,
    message: [#"unknown key "fil" in a style"#], hint: .exactly(#"did you mean "fill"?"#)),
  ErrorCase(
    "marker", sceneWithStyle(#""marker": {"shap": "circle"}"#), path: "layers[2].style.marker.shap", .unknownKey,
    message: [#"unknown key "shap" in a marker"#], hint: .exactly(#"did you mean "shape"?"#)),
  ErrorCase(
    "label", sceneWithStyle(#""label": {"field": "name", "colour": "red"}"#), path: "layers[2].style.label.colour",
    .unknownKey, message: [#"unknown key "colour" in a label"#], hint: .exactly(#"did you mean "color"?"#)),
  ErrorCase(
    "rule",
    sceneWithLayers(featuresLayer("a", #""rules": [{"style": {}}, {"wher": {"k": 1}, "style": {}}]"#)),
    path: "layers[0].rules[1].wher", .unknownKey,
    message: [#"unknown key "wher" in a rule"#], hint: .exactly(#"did you mean "where"?"#)),
  ErrorCase(
    "source", sceneWithLayers(#"{"id": "a", "type": "features", "source": {"geojsn": "x.geojson"}, "style": {}}"#),
    path: "layers[0].source.geojsn", .unknownKey,
    message: [#"unknown key "geojsn" in a source"#], hint: .exactly(#"did you mean "geojson"?"#)),
  ErrorCase(
    "source, nothing close", sceneWithLayers(#"{"id": "a", "type": "features", "source": {"database": "x"}, "style": {}}"#),
    path: "layers[0].source.database", .unknownKey, message: [#"unknown key "database" in a source"#],
    hint: .exactly("allowed: geojson, data, crs, ogr, layer")),
  ErrorCase(
    "graphic",
    sceneWithGraphics(
      okGraphic, #"{"geometry": {"type": "Point", "coordinates": [24.94, 60.17]}, "styles": {}}"#),
    path: "layers[0].graphics[1].styles", .unknownKey,
    message: [#"unknown key "styles" in a graphic"#], hint: .exactly(#"did you mean "style"?"#)),
]

private let missingKeyCases: [ErrorCase] = [
  ErrorCase("map", sceneDoc(#""layers": []"#), path: "map", .missingKey, message: ["missing required key: expected"]),
  ErrorCase(
    "center", sceneWithMap(#""scale": 2000, "size": [800, 600]"#), path: "map.center", .missingKey,
    message: ["missing required key: expected", "[lon, lat]"]),
  ErrorCase(
    "size", sceneWithMap(#""center": [24.94, 60.17], "scale": 2000"#), path: "map.size", .missingKey,
    message: ["missing required key: expected", "[width, height]"]),
  ErrorCase(
    "layer id", sceneWithLayers(#"{"type": "features", "source": \#(okInlineSource), "style": {}}"#),
    path: "layers[0].id", .missingKey, message: ["missing required key: expected"]),
  ErrorCase(
    "layer type", sceneWithLayers(featuresLayer("a"), #"{"id": "b", "source": \#(okInlineSource), "style": {}}"#),
    path: "layers[1].type", .missingKey,
    message: ["missing required key: expected", #""features", "graphics", "annotation""#]),
  ErrorCase(
    "source", sceneWithLayers(#"{"id": "a", "type": "features", "style": {}}"#), path: "layers[0].source", .missingKey,
    message: ["missing required key: expected"]),
  ErrorCase(
    "source with neither geojson nor data",
    sceneWithLayers(#"{"id": "a", "type": "features", "source": {}, "style": {}}"#), path: "layers[0].source",
    .missingKey, message: [#"expected "geojson" (a file path), "data" (an inline FeatureCollection) or "ogr""#]),
  ErrorCase(
    "style or rules", sceneWithLayers(featuresLayer("a"), #"{"id": "b", "type": "features", "source": \#(okInlineSource)}"#),
    path: "layers[1]", .missingKey, message: [#"expected "style" (one style for all) or "rules""#]),
  ErrorCase(
    "rule style", sceneWithLayers(featuresLayer("a", #""rules": [{"where": {"k": 1}}]"#)),
    path: "layers[0].rules[0].style", .missingKey, message: ["missing required key: expected"]),
  ErrorCase(
    "graphics list", sceneWithLayers(#"{"id": "g", "type": "graphics"}"#), path: "layers[0].graphics", .missingKey,
    message: ["missing required key: expected"]),
  ErrorCase(
    "graphic geometry", sceneWithGraphics(okGraphic, #"{"style": {}}"#), path: "layers[0].graphics[1].geometry",
    .missingKey, message: ["missing required key: expected"]),
  ErrorCase(
    "graphic style", sceneWithGraphics(#"{"geometry": {"type": "Point", "coordinates": [0, 0]}}"#),
    path: "layers[0].graphics[0].style", .missingKey, message: ["missing required key: expected"]),
]

private let conflictCases: [ErrorCase] = [
  ErrorCase(
    "style and rules", sceneWithLayers(featuresLayer("a", #""style": {}, "rules": []"#)), path: "layers[0].rules",
    .conflictingKeys, message: [#"expected either "style" or "rules", found both"#]),
  ErrorCase(
    "geojson and data",
    sceneWithLayers(
      #"{"id": "a", "type": "features", "source": {"geojson": "x.geojson", "data": {"type": "FeatureCollection", "features": []}}, "style": {}}"#
    ),
    path: "layers[0].source.data", .conflictingKeys, message: [#"expected either "geojson" or "data", found both"#]),
  ErrorCase(
    "scale and zoom", sceneWithMap(#""center": [0, 0], "scale": 2000, "zoom": 18, "size": [10, 10]"#), path: "map.zoom",
    .conflictingKeys, message: [#"expected either "scale" or "zoom", found both"#]),
  ErrorCase(
    "marker shape and icon", sceneWithStyle(#""marker": {"shape": "circle", "icon": "v.png"}"#),
    path: "layers[2].style.marker.icon", .conflictingKeys, message: [#"expected either "shape" or "icon", found both"#]),
]

private let styleCases: [ErrorCase] = [
  ErrorCase(
    "strokeWidth 6px", sceneWithStyle(#""stroke": "red", "strokeWidth": "6px""#), path: "layers[2].style.strokeWidth",
    message: ["expected a width from 0 to 1000 logical pixels", #"found string "6px""#]),
  ErrorCase(
    "strokeWidth in a rule (the spec's example path)",
    sceneWithLayers(
      featuresLayer("a"), featuresLayer("b"),
      featuresLayer("c", ##""rules": [{"style": {"stroke": "#f4a", "strokeWidth": "6px"}}]"##)),
    path: "layers[2].rules[0].style.strokeWidth", message: ["expected a width from 0 to 1000", #"found string "6px""#]),
  ErrorCase(
    "strokeWidth negative", sceneWithStyle(#""strokeWidth": -1"#), path: "layers[2].style.strokeWidth",
    message: ["expected a width from 0 to 1000", "found number -1"]),
  ErrorCase(
    "fill number", sceneWithStyle(#""fill": 12"#), path: "layers[2].style.fill",
    message: ["expected a colour: #rgb, #rrggbb", "found number 12"]),
  ErrorCase(
    "fillRule even-odd", sceneWithStyle(#""fillRule": "even-odd""#), path: "layers[2].style.fillRule",
    message: [#"expected one of "nonzero", "evenodd""#, #"found string "even-odd""#],
    hint: .exactly(#"did you mean "evenodd"?"#)),
  ErrorCase(
    "fillRule number", sceneWithStyle(#""fillRule": 1"#), path: "layers[2].style.fillRule",
    message: [#"expected one of "nonzero", "evenodd""#, "found number 1"]),
  ErrorCase(
    "lineJoin rounded", sceneWithStyle(#""lineJoin": "rounded""#), path: "layers[2].style.lineJoin",
    message: [#"expected one of "miter", "round", "bevel""#, #"found string "rounded""#],
    hint: .exactly(#"did you mean "round"?"#)),
  ErrorCase(
    "lineJoin bool", sceneWithStyle(#""lineJoin": true"#), path: "layers[2].style.lineJoin",
    message: [#"expected one of "miter", "round", "bevel""#, "found boolean true"]),
  ErrorCase(
    "lineCap flat", sceneWithStyle(#""lineCap": "flat""#), path: "layers[2].style.lineCap",
    message: [#"expected one of "butt", "round", "square""#, #"found string "flat""#]),
  ErrorCase(
    "lineCap squared", sceneWithStyle(#""lineCap": "squar""#), path: "layers[2].style.lineCap",
    message: [#"found string "squar""#], hint: .exactly(#"did you mean "square"?"#)),
  ErrorCase(
    "miterLimit below 1", sceneWithStyle(#""miterLimit": 0.5"#), path: "layers[2].style.miterLimit",
    message: ["expected a miter limit from 1 to 100", "found number 0.5"]),
  ErrorCase(
    "strokeDash empty", sceneWithStyle(#""strokeDash": []"#), path: "layers[2].style.strokeDash",
    message: ["expected a non-empty array of lengths [on, off, …]", "found an empty array"]),
  ErrorCase(
    "strokeDash string", sceneWithStyle(#""strokeDash": "4 2""#), path: "layers[2].style.strokeDash",
    message: ["expected a non-empty array of lengths", #"found string "4 2""#]),
  ErrorCase(
    "strokeDash negative", sceneWithStyle(#""strokeDash": [4, -2]"#), path: "layers[2].style.strokeDash[1]",
    message: ["expected a dash length >= 0", "found number -2"]),
  ErrorCase(
    "strokeDash all zero", sceneWithStyle(#""strokeDash": [0, 0]"#), path: "layers[2].style.strokeDash",
    message: ["expected a dash pattern with at least one length > 0", "found only zero lengths"]),
  ErrorCase(
    "colour #12345", sceneWithStyle(##""stroke": "#12345""##), path: "layers[2].style.stroke",
    message: ["expected a colour", ##"found string "#12345""##]),
  ErrorCase(
    "colour redd", sceneWithStyle(#""fill": "redd""#), path: "layers[2].style.fill",
    message: ["expected a colour", #"found string "redd""#], hint: .exactly(#"did you mean "red"?"#)),
  ErrorCase(
    "background colour", sceneWithMap(#""center": [0, 0], "scale": 2000, "size": [10, 10], "background": "whte""#),
    path: "map.background", message: ["expected a colour", #"found string "whte""#],
    hint: .exactly(#"did you mean "white"?"#)),
  ErrorCase(
    "marker shape", sceneWithStyle(#""marker": {"shape": "circel"}"#), path: "layers[2].style.marker.shape",
    message: [#"expected one of "circle", "square", "triangle", "cross", "pin""#, #"found string "circel""#],
    hint: .exactly(#"did you mean "circle"?"#)),
  ErrorCase(
    "marker size 0", sceneWithStyle(#""marker": {"size": 0}"#), path: "layers[2].style.marker.size",
    message: ["expected a size > 0", "found number 0"]),
  ErrorCase(
    "marker opacity", sceneWithStyle(#""marker": {"opacity": 2}"#), path: "layers[2].style.marker.opacity",
    message: ["expected an opacity from 0 to 1", "found number 2"]),
  ErrorCase(
    "marker offset element", sceneWithStyle(#""marker": {"offset": [1, "2"]}"#),
    path: "layers[2].style.marker.offset[1]", message: ["expected [dx, dy]", #"found string "2""#]),
  ErrorCase(
    "marker collides string", sceneWithStyle(#""marker": {"collides": "yes"}"#), path: "layers[2].style.marker.collides",
    message: ["expected true or false", #"found string "yes""#]),
  ErrorCase(
    "marker not an object", sceneWithStyle(#""marker": "circle""#), path: "layers[2].style.marker",
    message: ["expected a marker (a JSON object)", #"found string "circle""#]),
  ErrorCase(
    "label not an object", sceneWithStyle(#""label": "name""#), path: "layers[2].style.label",
    message: ["expected a label (a JSON object)", #"found string "name""#]),
  ErrorCase(
    "style not an object", sceneWithLayers(featuresLayer("a", #""style": "red""#)), path: "layers[0].style",
    message: ["expected a style (a JSON object)", #"found string "red""#]),
]

private let mapCases: [ErrorCase] = [
  ErrorCase(
    "version 2", #"{"version": 2, \#(okMapBlock)}"#, path: "version",
    message: ["expected the format version 1", "found number 2"]),
  ErrorCase(
    "version string", #"{"version": "1", \#(okMapBlock)}"#, path: "version",
    message: ["expected the format version 1", #"found string "1""#]),
  ErrorCase(
    "latitude 91", sceneWithMap(#""center": [24.94, 91], "scale": 2000, "size": [800, 600]"#), path: "map.center[1]",
    message: ["expected a latitude within -90…90", "found number 91"]),
  ErrorCase(
    "center too short", sceneWithMap(#""center": [24.94], "scale": 2000, "size": [800, 600]"#), path: "map.center",
    message: ["expected [lon, lat] in degrees", "found an array"]),
  ErrorCase(
    "center string", sceneWithMap(#""center": ["24.94", 60], "scale": 2000, "size": [800, 600]"#),
    path: "map.center[0]", message: ["expected [lon, lat] in degrees", #"found string "24.94""#]),
  ErrorCase(
    "scale 0", sceneWithMap(#""center": [0, 0], "scale": 0, "size": [800, 600]"#), path: "map.scale",
    message: ["expected a scale denominator from 0.000001 to 1e12", "found number 0"]),
  ErrorCase(
    "scale negative", sceneWithMap(#""center": [0, 0], "scale": -2000, "size": [800, 600]"#), path: "map.scale",
    message: ["expected a scale denominator from 0.000001 to 1e12", "found number -2000"]),
  ErrorCase(
    "scale string", sceneWithMap(#""center": [0, 0], "scale": "1:2000", "size": [800, 600]"#), path: "map.scale",
    message: ["expected a scale denominator from 0.000001 to 1e12", #"found string "1:2000""#]),
  ErrorCase(
    "zoom out of range", sceneWithMap(#""center": [0, 0], "zoom": 31, "size": [800, 600]"#), path: "map.zoom",
    message: ["expected a zoom level between 0 and 30", "found number 31"]),
  ErrorCase(
    "size 0", sceneWithMap(#""center": [0, 0], "scale": 2000, "size": [0, 600]"#), path: "map.size[0]",
    message: ["whole numbers from 1 to 32768", "found number 0"]),
  ErrorCase(
    "size fractional", sceneWithMap(#""center": [0, 0], "scale": 2000, "size": [800, 600.5]"#), path: "map.size[1]",
    message: ["whole numbers from 1 to 32768", "found number 600.5"]),
  ErrorCase(
    "size too large", sceneWithMap(#""center": [0, 0], "scale": 2000, "size": [800, 32769]"#), path: "map.size[1]",
    message: ["whole numbers from 1 to 32768", "found number 32769"]),
  ErrorCase(
    "size one number", sceneWithMap(#""center": [0, 0], "scale": 2000, "size": [800]"#), path: "map.size",
    message: ["[width, height] in logical pixels", "found an array"]),
  ErrorCase(
    "pixelRatio 0", sceneWithMap(#""center": [0, 0], "scale": 2000, "size": [8, 6], "pixelRatio": 0"#),
    path: "map.pixelRatio", message: ["expected a pixel ratio > 0", "found number 0"]),
  ErrorCase(
    "dpi 0", sceneWithMap(#""center": [0, 0], "scale": 2000, "size": [8, 6], "dpi": 0"#), path: "map.dpi",
    message: ["expected dots per inch > 0", "found number 0"]),
  ErrorCase(
    "floor bool", sceneWithMap(#""center": [0, 0], "scale": 2000, "size": [8, 6], "floor": true"#), path: "map.floor",
    message: ["expected a floor as a string or number", "found boolean true"]),
  ErrorCase(
    "map not an object", sceneDoc(#""map": [24.94, 60.17]"#), path: "map",
    message: ["expected the map block (a JSON object)", "found an array"]),
  ErrorCase("document not an object", "[1]", path: "", message: ["expected a scene (a JSON object)", "found an array"]),
]


extension SceneErrorTests {
  @Test(arguments: unknownKeyCases) fileprivate func unknownKey(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: missingKeyCases) fileprivate func missingKey(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: conflictCases) fileprivate func conflictingKeys(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: styleCases) fileprivate func styleValue(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: mapCases) fileprivate func mapValue(_ c: ErrorCase) throws { try check(c) }
}
