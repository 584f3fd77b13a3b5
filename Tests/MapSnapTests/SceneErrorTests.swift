import Foundation
import MapSnap
import Testing

// Every error the scene decoder can produce (scene format, sections 1–3 and 6):
// each names the file, the exact JSON path, the kind, what was expected and
// what was found, and a hint where there is one.

// MARK: - Scene text builders

let errorSceneFile = "scenes/test.json"

/// A valid map block.
let okMapBlock = #""map": {"center": [24.94, 60.17], "scale": 2000, "size": [800, 600]}"#

/// A valid, empty inline source.
let okInlineSource = #"{"data": {"type": "FeatureCollection", "features": []}}"#

/// `{"version": 1, members}`.
func sceneDoc(_ members: String) -> String { "{\"version\": 1, \(members)}" }

/// A scene with the valid map block and these layers.
func sceneWithLayers(_ layers: String...) -> String {
  sceneDoc(okMapBlock + ", \"layers\": [" + layers.joined(separator: ", ") + "]")
}

/// A scene whose map block holds `mapMembers` (and no layers).
func sceneWithMap(_ mapMembers: String) -> String {
  sceneDoc("\"map\": {\(mapMembers)}")
}

/// A features layer with an empty inline source; `rest` adds members (style or rules).
func featuresLayer(_ id: String, _ rest: String = #""style": {"fill": "red"}"#) -> String {
  #"{"id": "\#(id)", "type": "features", "source": \#(okInlineSource), \#(rest)}"#
}

/// A scene whose third layer (`layers[2]`) has the style `{body}`; the first two are valid.
func sceneWithStyle(_ body: String) -> String {
  sceneWithLayers(featuresLayer("ok0"), featuresLayer("ok1"), featuresLayer("bad", "\"style\": {\(body)}"))
}

/// A scene whose only layer is a graphics layer with these graphics.
func sceneWithGraphics(_ graphics: String...) -> String {
  sceneWithLayers(#"{"id": "g", "type": "graphics", "graphics": [\#(graphics.joined(separator: ", "))]}"#)
}

let okGraphic = #"{"id": "g0", "geometry": {"type": "Point", "coordinates": [24.94, 60.17]}, "style": {"stroke": "blue"}}"#

/// Decodes `json` and returns the error it throws, or nil.
func decodeError(_ json: String, file: String = errorSceneFile) -> SceneError? {
  do {
    _ = try SceneLoader.decode(Array(json.utf8), file: file, baseDirectory: "scenes")
    return nil
  } catch {
    return error
  }
}

func decodeOK(_ json: String) throws -> Scene {
  try SceneLoader.decode(Array(json.utf8), file: errorSceneFile, baseDirectory: "scenes")
}

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
