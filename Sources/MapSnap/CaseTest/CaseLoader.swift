/// Reads a folder of `mapsnap test` cases. The layout, shared with the
/// project's own `Golden/`:
///
/// ```
/// CASES/<case>/scene.json
/// CASES/<case>/golden.json    {"scales": [2000, 8000], "pixelRatios": [1, 2], "floors": ["1"],
///                              "variants": {"marker": {"scale": 4000, "overlays": [...]}},
///                              "threshold": 0.05, "maxDiffPixels": 10, "includeAA": false,
///                              "toleranceReason": "why", "palette": 16, "dither": false}
/// CASES/<case>/<scale>[@<ratio>x][-floor<F>].png    one expected image per combination
/// CASES/<case>/<variant>.png                         one per variant
/// CASES/<case>/<image>.report.json                   optional expected report
/// ```
///
/// - Every combination of `scales` × `pixelRatios` × `floors` is one image
///   (pixel ratio and floor default to the scene's). A ratio of 1 adds no
///   `@1x` to the name.
/// - A variant is one more image with any option a batch line takes
///   (`scale`, `zoom`, `center`, `size`, `pixelRatio`, `floor`, `bounds`,
///   `padding`, `fit`, `overlays`), in the batch line's JSON forms; it does
///   not combine with `scales`. Its name is the image's name (letters,
///   digits, `-`, `_`).
/// - Comparison: exact by default (every channel of every pixel equal);
///   `threshold`, `includeAA` and `maxDiffPixels` in `mapsnap diff`'s
///   terms, each only with a `toleranceReason`.
/// - `palette` (2…256) renders every image of the case as a palette PNG
///   (PNG8) of that many colours, `dither` with dithering (only with a
///   `palette`); the expected images are compared as decoded pixels, as always.
/// - A folder without `golden.json` is not a case.
public struct CaseLoader {
  public let root: String

  public init(root: String) { self.root = root }

  /// A case folder that cannot be read as one: the case cannot run.
  public struct Problem: Sendable, CustomStringConvertible {
    public var caseName: String
    public var error: SceneError
    public var description: String { "\(caseName): \(error)" }
  }

  /// Every image of every case, in name order, and the cases that cannot run.
  public func load() -> (cases: [ImageCase], problems: [Problem]) {
    var cases: [ImageCase] = []
    var problems: [Problem] = []
    for name in FileIO.listDirectory(root).sorted() {
      let dir = FileIO.resolve(name, against: root)
      let meta = dir + "/golden.json"
      guard FileIO.isRegularFile(meta) else { continue }
      do throws(SceneError) {
        cases += try load(name, directory: dir)
      } catch {
        problems.append(Problem(caseName: name, error: error))
      }
    }
    return (cases, problems)
  }

  private func load(_ name: String, directory dir: String) throws(SceneError) -> [ImageCase] {
    let metaPath = dir + "/golden.json"
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(metaPath, maximumBytes: 16 << 20)
    } catch {
      throw SceneError(file: metaPath, kind: .unreadable(reason: error.reason))
    }
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw SceneError(file: metaPath, kind: .syntax(line: error.line, column: error.column), expected: "valid JSON", found: error.message)
    }
    let r = try ObjectReader(
      json, at: JSONPath(), file: metaPath, what: "a case's golden.json",
      allowed: [
        "scales", "pixelRatios", "floors", "variants", "threshold", "includeAA", "maxDiffPixels", "toleranceReason", "palette", "dither",
      ])
    var comparison = ImageCase.Comparison()
    comparison.threshold = try r.number("threshold", "a colour distance from 0 to 1") { $0 >= 0 && $0 <= 1 } ?? 0
    comparison.includeAA = try r.bool("includeAA") ?? true
    comparison.maxDiffPixels = Int(try r.number("maxDiffPixels", "a whole number of pixels >= 0") { $0 >= 0 && $0 == $0.rounded() && $0 < 1e12 } ?? 0)
    comparison.reason = try r.string("toleranceReason", nonEmpty: true)
    if !comparison.isExact && comparison.reason == nil {
      throw r.missing("toleranceReason", "a reason for comparing with a tolerance (cases compare exactly unless one says why)")
    }
    var palette: PaletteOptions? = nil
    if let n = try r.number("palette", "a palette size, a whole number from 2 to 256", where: { $0 >= 2 && $0 <= 256 && $0 == $0.rounded() }) {
      palette = PaletteOptions(colors: Int(n), dither: try r.bool("dither") ?? false)
    } else if r.object["dither"] != nil {
      throw r.missing("palette", "a palette size for \"dither\" (dithering applies to palette output only)")
    }
    let reader = ManifestReader(path: metaPath)
    func line(_ stem: String, _ object: JSONObject, at path: JSONPath) throws(SceneError) -> ManifestLine {
      var o = object
      // Relative to golden.json's folder, as the line's other paths are.
      o["scene"] = .string("scene.json")
      o["output"] = .string(stem + ".png")
      return try reader.decode(json: .object(o), number: 1, at: path)
    }
    var images: [ImageCase] = []
    let scales = try r.numbers("scales", "scale denominators, each from 0.000001 to 1e12") { Viewport.scaleRange.contains($0) } ?? []
    let ratios: [Double?] = try r.numbers("pixelRatios", "pixel ratios, each > 0 and <= 16") { $0 > 0 && $0 <= 16 } ?? [nil]
    var floors: [String?] = [nil]
    if let f = r.object["floors"] {
      guard case .array(let a) = f else { throw r.invalid("floors", expected: "an array of floors (strings or numbers)", found: f) }
      floors = []
      for (i, v) in a.enumerated() {
        guard let floor = FloorValue(json: v) else {
          throw SceneError(file: metaPath, at: JSONPath().key("floors").index(i), kind: .invalidValue, expected: "a floor (a string or a number)", found: describe(v))
        }
        guard Self.isSafeName(floor.text) else {
          throw SceneError(
            file: metaPath, at: JSONPath().key("floors").index(i), kind: .invalidValue,
            expected: "a floor that can be part of a file name (letters, digits, '.', '-', '_')", found: describe(v))
        }
        floors.append(floor.text)
      }
    }
    for s in scales {
      for ratio in ratios {
        for floor in floors {
          var stem = format(s)
          var o: JSONObject = ["scale": .number(s)]
          if let ratio {
            o["pixelRatio"] = .number(ratio)
            if ratio != 1 { stem += "@\(format(ratio))x" }
          }
          if let floor {
            o["floor"] = .string(floor)
            stem += "-floor\(floor)"
          }
          images.append(
            ImageCase(caseName: name, directory: dir, stem: stem, line: try line(stem, o, at: JSONPath()), comparison: comparison, palette: palette))
        }
      }
    }
    if let v = r.object["variants"] {
      guard case .object(let variants) = v else { throw r.invalid("variants", expected: "an object of variants by name", found: v) }
      for (variant, value) in variants.pairs {
        let path = JSONPath().key("variants").key(variant)
        guard Self.isSafeName(variant), !variant.contains(".") else {
          throw SceneError(file: metaPath, at: path, kind: .invalidValue, expected: "a variant name of letters, digits, '-' and '_'", found: "\(Echo.quoted(variant))")
        }
        guard case .object(let o) = value else {
          throw SceneError(file: metaPath, at: path, kind: .invalidValue, expected: "a variant: the options of a batch line", found: describe(value))
        }
        for key in ["scene", "output", "report"] where o[key] != nil {
          throw SceneError(file: metaPath, at: path.key(key), kind: .unknownKey, expected: "a variant (the scene is the case's, the image is named after the variant)", found: Echo.quoted(key))
        }
        images.append(
          ImageCase(caseName: name, directory: dir, stem: variant, line: try line(variant, o, at: path), comparison: comparison, palette: palette))
      }
    }
    if images.isEmpty { throw r.missing("scales", "at least one scale or variant") }
    // One expected file per image: two images of one name would share it.
    var seen = Set<String>()
    for image in images where !seen.insert(image.stem).inserted {
      throw SceneError(
        file: metaPath, kind: .invalidValue, expected: "images with different names (scales, pixel ratios, floors and variants)",
        found: "two images named \(Echo.quoted(image.stem))")
    }
    return images
  }

  /// Letters, digits, `.`, `-` and `_`, not starting with `.`: safe as part
  /// of a file name (no folder separators, no `..`).
  static func isSafeName(_ s: String) -> Bool {
    !s.isEmpty && !s.hasPrefix(".")
      && s.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_" || $0 == "." }
  }
}
