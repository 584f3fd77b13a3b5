import Foundation
import MapSnap
import Testing

// Every error the scene decoder can produce (scene format, sections 1–3 and 6):
// each names the file, the exact JSON path, the kind, what was expected and
// what was found, and a hint where there is one.

// MARK: - Scene text builders

private let errorSceneFile = "scenes/test.json"

/// A valid map block.
private let okMapBlock = #""map": {"center": [24.94, 60.17], "scale": 2000, "size": [800, 600]}"#

/// A valid, empty inline source.
private let okInlineSource = #"{"data": {"type": "FeatureCollection", "features": []}}"#

/// `{"version": 1, members}`.
private func sceneDoc(_ members: String) -> String { "{\"version\": 1, \(members)}" }

/// A scene with the valid map block and these layers.
private func sceneWithLayers(_ layers: String...) -> String {
  sceneDoc(okMapBlock + ", \"layers\": [" + layers.joined(separator: ", ") + "]")
}

/// A scene whose map block holds `mapMembers` (and no layers).
private func sceneWithMap(_ mapMembers: String) -> String {
  sceneDoc("\"map\": {\(mapMembers)}")
}

/// A features layer with an empty inline source; `rest` adds members (style or rules).
private func featuresLayer(_ id: String, _ rest: String = #""style": {"fill": "red"}"#) -> String {
  #"{"id": "\#(id)", "type": "features", "source": \#(okInlineSource), \#(rest)}"#
}

/// A scene whose third layer (`layers[2]`) has the style `{body}`; the first two are valid.
private func sceneWithStyle(_ body: String) -> String {
  sceneWithLayers(featuresLayer("ok0"), featuresLayer("ok1"), featuresLayer("bad", "\"style\": {\(body)}"))
}

/// A scene whose only layer is a graphics layer with these graphics.
private func sceneWithGraphics(_ graphics: String...) -> String {
  sceneWithLayers(#"{"id": "g", "type": "graphics", "graphics": [\#(graphics.joined(separator: ", "))]}"#)
}

private let okGraphic = #"{"id": "g0", "geometry": {"type": "Point", "coordinates": [24.94, 60.17]}, "style": {"stroke": "blue"}}"#

/// Decodes `json` and returns the error it throws, or nil.
private func decodeError(_ json: String, file: String = errorSceneFile) -> SceneError? {
  do {
    _ = try SceneLoader.decode(Array(json.utf8), file: file, baseDirectory: "scenes")
    return nil
  } catch {
    return error
  }
}

private func decodeOK(_ json: String) throws -> Scene {
  try SceneLoader.decode(Array(json.utf8), file: errorSceneFile, baseDirectory: "scenes")
}

// MARK: - Cases

private enum HintCheck: Sendable {
  /// The error has no hint.
  case none
  /// The hint is exactly this text.
  case exactly(String)
}

private struct ErrorCase: Sendable, CustomTestStringConvertible {
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

private func check(_ c: ErrorCase, sourceLocation: SourceLocation = #_sourceLocation) throws {
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
    message: [#"expected { "mbtiles": "file" } or { "xyz": "tiles/{z}/{x}/{y}.png" }"#]),
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

// MARK: - Tests

@Suite struct SceneErrorTests {
  // MARK: JSON syntax

  @Test func syntaxErrorNamesLineAndColumn() throws {
    let text = "{\n  \"version\": 1\n  \"map\": {}\n}"
    let error = try #require(decodeError(text))
    #expect(error.kind == .syntax(line: 3, column: 3))
    #expect(error.path == "")
    #expect(error.file == errorSceneFile)
    #expect(error.message.hasPrefix("invalid JSON: "))
    #expect(error.message.contains("expected ',' or '}' after object member"))
    #expect(error.description.hasPrefix("\(errorSceneFile):3:3: invalid JSON: "))
  }

  @Test func trailingCommaIsASyntaxErrorAtTheComma() throws {
    let text = "{\n  \"version\": 1,\n}"
    let error = try #require(decodeError(text))
    #expect(error.kind == .syntax(line: 2, column: 15))
    #expect(error.message.contains("trailing comma before '}'"))
    #expect(error.description.hasPrefix("\(errorSceneFile):2:15: "))
  }

  @Test func trailingCommaInAnArray() throws {
    let text = #"{"version": 1, "map": {"center": [24.94, 60.17,], "scale": 2000, "size": [8, 6]}}"#
    let error = try #require(decodeError(text))
    let comma = Array(text).firstIndex(of: "]")! - 1  // the comma just before the first ']'
    #expect(error.kind == .syntax(line: 1, column: comma + 1))
    #expect(error.message.contains("trailing comma before ']'"))
  }

  @Test func emptyFileIsASyntaxError() throws {
    let error = try #require(decodeError(""))
    #expect(error.kind == .syntax(line: 1, column: 1))
    #expect(error.message.contains("unexpected end of input"))
    #expect(error.description == "\(errorSceneFile):1:1: invalid JSON: unexpected end of input")
  }

  @Test func numberOverflowingToInfinityIsASyntaxError() throws {
    let text = "{\"version\": 1,\n\"map\": {\"center\": [1e400, 0], \"scale\": 2000, \"size\": [8, 6]}}"
    let error = try #require(decodeError(text))
    #expect(error.kind == .syntax(line: 2, column: 20))
    #expect(error.message.contains("out of range"))
  }

  @Test func duplicateKeyIsASyntaxError() throws {
    let text = #"{"version": 1, "version": 1}"#
    let error = try #require(decodeError(text))
    #expect(error.kind == .syntax(line: 1, column: 16))
    #expect(error.message.contains(#"duplicate key "version""#))
  }

  // MARK: Cases by area

  @Test(arguments: unknownKeyCases) fileprivate func unknownKey(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: missingKeyCases) fileprivate func missingKey(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: conflictCases) fileprivate func conflictingKeys(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: styleCases) fileprivate func styleValue(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: mapCases) fileprivate func mapValue(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: layerCases) fileprivate func layerValue(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: sourceDataCases) fileprivate func inlineDataNotGeoJSON(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: graphicCases) fileprivate func graphic(_ c: ErrorCase) throws { try check(c) }

  @Test(arguments: viewAnnotationCases) fileprivate func viewAnnotations(_ c: ErrorCase) throws { try check(c) }

  // MARK: Whole messages

  @Test func descriptionOfAnUnknownStyleKey() throws {
    let error = try #require(decodeError(sceneWithStyle(#""fil": "red""#)))
    #expect(error.description == #"scenes/test.json: layers[2].style.fil: unknown key "fil" in a style (did you mean "fill"?)"#)
  }

  @Test func descriptionOfAWrongStrokeWidth() throws {
    let error = try #require(decodeError(sceneWithStyle(#""strokeWidth": "6px""#)))
    #expect(
      error.description
        == #"scenes/test.json: layers[2].style.strokeWidth: expected a width from 0 to 1000 logical pixels, found string "6px""#)
  }

  @Test func theFirstErrorInDocumentOrderWins() throws {
    // Both layers are bad; the error is about the first.
    let error = try #require(decodeError(sceneWithLayers(featuresLayer("a", #""style": {"fil": 1}"#), featuresLayer("b", #""style": {"strok": 1}"#))))
    #expect(error.path == "layers[0].style.fil")
  }

  @Test func missingSceneFileIsUnreadable() throws {
    let path = FileManager.default.temporaryDirectory.path + "/mapsnap-no-such-scene-\(UUID().uuidString).json"
    do {
      _ = try SceneLoader.load(path: path)
      Issue.record("loading a missing scene file succeeded")
    } catch {
      #expect(error.kind == .fileNotFound)
      #expect(error.file == path)
      #expect(error.path == "")
      #expect(error.message == "no such file")
      #expect(error.description == "\(path): no such file")
    }
  }

  @Test func aFolderAsSceneFileIsUnreadable() throws {
    let path = FileManager.default.temporaryDirectory.path
    let error = #expect(throws: SceneError.self) { try SceneLoader.load(path: path) }
    #expect(error?.kind == .unreadable(reason: "is a directory"))
    #expect(error?.description == "\(path): cannot read: is a directory")
  }

  // MARK: The data behind the message

  @Test func errorsCarryWhatWasExpectedAndWhatWasFound() throws {
    let width = try #require(decodeError(sceneWithStyle(#""strokeWidth": -1"#)))
    #expect(width.kind == .invalidValue)
    #expect(width.expected == "a width from 0 to 1000 logical pixels")
    #expect(width.found == "number -1")
    #expect(width.hint == nil)

    let key = try #require(decodeError(sceneWithStyle(#""fil": "red""#)))
    #expect(key.kind == .unknownKey)
    #expect(key.expected == "a style")
    #expect(key.found == #""fil""#)
    #expect(key.hint == #"did you mean "fill"?"#)

    let missing = try #require(decodeError(sceneWithMap(#""center": [24.94, 60.17], "scale": 2000"#)))
    #expect(missing.kind == .missingKey)
    #expect(missing.path == "map.size")
    #expect(missing.expected == "[width, height] in logical pixels")
    #expect(missing.found == nil)

    let syntax = try #require(decodeError("{"))
    #expect(syntax.kind == .syntax(line: 1, column: 2))
    #expect(syntax.found?.hasPrefix("unexpected end of input") == true)
  }

  @Test func everyKindHasOneShape() {
    // file[:line:column]: path: message (hint), whatever the kind.
    let error = SceneError(
      file: "a.json", path: "map.size", kind: .imageTooLarge(width: 40000, height: 10), expected: "at most 32768 per side",
      found: "40000×10", hint: "lower --pixel-ratio")
    #expect(error.description == "a.json: map.size: expected at most 32768 per side, found 40000×10 (lower --pixel-ratio)")
    let noPath = SceneError(file: "a.json", kind: .fontsUnavailable(.noFonts(["/f"])))
    #expect(noPath.description.hasPrefix("a.json: the scene has text but no fonts: /f: "))
  }

  // MARK: Valid scenes around the limits

  @Test func boundaryValuesDecode() throws {
    let scene = try decodeOK(
      sceneDoc(
        #""map": {"center": [-180, -90], "scale": 0.001, "size": [32768, 1], "pixelRatio": 16, "dpi": 1, "floor": "B1"}, "layers": [\#(featuresLayer("a", #""style": {"strokeWidth": 0, "miterLimit": 1, "strokeDash": [0, 1]}, "opacity": 0, "minScale": 2000, "maxScale": 2000"#))], "viewAnnotations": []"#
      ))
    #expect(scene.map.size.width == 32768)
    #expect(scene.map.center.lat == -90)
    #expect(scene.layers[0].opacity == 0)
    #expect(scene.layers[0].scaleRange == ScaleRange(minScale: 2000, maxScale: 2000))
  }

  // MARK: Scale from overrides; image size

  @Test func sceneWithoutScaleDecodesButNeedsOneToDraw() throws {
    let scene = try decodeOK(sceneWithMap(#""center": [24.94, 60.17], "size": [800, 600]"#))
    #expect(scene.map.scale == nil)
    #expect(scene.map.zoom == nil)
    do {
      _ = try ViewOverrides().viewport(for: scene)
      Issue.record("a viewport without any scale was made")
    } catch {
      #expect(error.path == "map.scale")
      #expect(error.kind == .noScale)
      #expect(error.file == errorSceneFile)
      #expect(error.message.contains(#"no scale: expected "scale" or "zoom""#))
      #expect(error.message.contains("--scale"))
    }
    let v = try ViewOverrides(scale: 2000).viewport(for: scene)
    #expect(v.scale == 2000)
    let z = try ViewOverrides(zoom: 18).viewport(for: scene)
    #expect(abs(z.scale - 591_657_527.591555 / 262_144) < 1e-9)
  }

  @Test func overrideScaleReplacesTheScenesZoom() throws {
    let scene = try decodeOK(sceneWithMap(#""center": [24.94, 60.17], "zoom": 10, "size": [800, 600]"#))
    #expect(abs(try ViewOverrides().viewport(for: scene).scale - 591_657_527.591555 / 1024) < 1e-6)
    #expect(try ViewOverrides(scale: 2000).viewport(for: scene).scale == 2000)
  }

  @Test func wideImagesAreFineWithinThePixelLimit() throws {
    // 40000 device pixels wide: over the logical side limit of the format,
    // reached through the pixel ratio, and fine (FrameSizeLimit).
    let scene = try decodeOK(sceneWithMap(#""center": [0, 0], "scale": 2000, "size": [20000, 100], "pixelRatio": 2"#))
    #expect(try ViewOverrides().viewport(for: scene).deviceWidth == 40000)
    let v = try ViewOverrides(size: (16384, 100)).viewport(for: scene)
    #expect(v.deviceWidth == 32768)
  }

  @Test func imageOverTheTotalPixelLimitIsRejected() throws {
    let ok = try decodeOK(sceneWithMap(#""center": [0, 0], "scale": 2000, "size": [32768, 32768]"#))
    #expect(try ViewOverrides().viewport(for: ok).deviceWidth == 32768)
    let big = try decodeOK(sceneWithMap(#""center": [0, 0], "scale": 2000, "size": [32768, 32768], "pixelRatio": 1.001"#))
    do {
      _ = try ViewOverrides().viewport(for: big)
      Issue.record("an image of more than 2^30 pixels was accepted")
    } catch {
      #expect(error.path == "map.size")
      #expect(error.kind == .imageTooLarge(width: 32801, height: 32801))
      #expect(error.message.contains("32801×32801"))
      #expect(error.message.contains("1073741824 pixels in all"))
      #expect(error.hint?.contains("--max-pixels") == true)
    }
    // The limit is the caller's: raised, the same frame is fine; lowered, a small one is not.
    #expect(try ViewOverrides(maxPixels: 1 << 31).viewport(for: big).deviceWidth == 32801)
    #expect(throws: SceneError.self) { try ViewOverrides(maxPixels: 1 << 29).viewport(for: ok) }
    // Never past the absolute bound, whatever is asked.
    #expect(ViewOverrides(maxPixels: .max).maxPixels == FrameSizeLimit.absoluteMaxPixels)
  }
}
