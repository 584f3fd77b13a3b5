import MapSnap
import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

/// One rendering checked against `Golden/<case>/`: a scene, a scale, a pixel
/// ratio and a floor, with the expected image `<scale>.png` (or
/// `<scale>@<ratio>x.png`; with a floor, `<scale>-floor<F>.png` or
/// `<scale>@<ratio>x-floor<F>.png`).
public struct GoldenCase: Sendable, CustomStringConvertible {
  public let name: String
  public let scale: Double
  public let pixelRatio: Double?
  /// The floor shown (as `--floor` gives it), or nil for the scene's own.
  public let floor: String?
  /// Largest channel difference that does not count as a differing pixel;
  /// 0 (exact) unless `golden.json` gives one with a `toleranceReason`.
  public let channelTolerance: Int
  /// Differing pixels allowed before the case fails; 0 unless `golden.json`
  /// gives a number with a `toleranceReason`.
  public let allowedPixels: Int
  /// Why this case is compared with a tolerance (`golden.json`'s
  /// `toleranceReason`); nil for exact cases.
  public let toleranceReason: String?
  /// What is wrong with the case's `golden.json` (a tolerance without a
  /// reason); `checkGolden` fails such a case.
  public let problem: String?
  /// The palette size the frame is written with (PNG8), from `golden.json`'s
  /// `palette`; nil writes true colour.
  public var palette: Int? = nil
  /// `golden.json`'s `dither`, with a `palette`.
  public var dither = false

  /// The PNG encoding the golden is written and checked with.
  public var encoding: PNGEncodingOptions {
    PNGEncodingOptions(palette: palette.map { PaletteOptions(colors: $0, dither: dither) })
  }

  public var directory: String { Repository.root + "/Golden/" + name }
  public var scenePath: String { directory + "/scene.json" }
  public var imageName: String {
    var s = format(scale)
    if let r = pixelRatio, r != 1 { s += "@\(format(r))x" }
    if let floor { s += "-floor\(floor)" }
    return s + ".png"
  }
  public var expectedPath: String { directory + "/" + imageName }
  public var description: String { "\(name)/\(imageName)" }

  /// Every case listed by the `golden.json` files under `Golden/`.
  ///
  /// `golden.json` holds `{"scales": [...], "pixelRatios": [...]?,
  /// "floors": [...]?, "channelTolerance": n?, "allowedPixels": n?,
  /// "toleranceReason": "…"?, "palette": n?, "dither": bool?}`; defaults: pixel ratio and floor from the
  /// scene, and an exact comparison (tolerance 0, no differing pixels
  /// allowed): the renderer is deterministic. A tolerance is taken only with
  /// a non-empty `toleranceReason` saying why; without one the case is
  /// compared exactly and reports the `problem`. Floors are strings or
  /// numbers (`2` and `"2"` are one floor).
  public static func all() -> [GoldenCase] {
    var cases: [GoldenCase] = []
    for name in Repository.listDirectory(Repository.root + "/Golden").sorted() {
      let metaPath = Repository.root + "/Golden/\(name)/golden.json"
      guard let bytes = try? FileIO.read(metaPath), case .object(let meta)? = try? JSONParser.parse(bytes) else { continue }
      cases += Self.cases(named: name, meta: meta)
    }
    return cases
  }

  /// The cases of the golden folder `name` whose `golden.json` holds `meta`
  /// (see ``all()`` for the keys).
  public static func cases(named name: String, meta: JSONObject) -> [GoldenCase] {
    var cases: [GoldenCase] = []
    var scales: [Double] = []
    if case .array(let a)? = meta["scales"] {
      for v in a { if case .number(let n) = v { scales.append(n) } }
    }
    var ratios: [Double?] = [nil]
    if case .array(let a)? = meta["pixelRatios"] {
      ratios = a.compactMap { if case .number(let n) = $0 { return n } else { return nil } }
    }
    var floors: [String?] = [nil]
    if case .array(let a)? = meta["floors"] {
      floors = a.compactMap { FloorValue(json: $0)?.text }
    }
    var tolerance = 0
    if case .number(let n)? = meta["channelTolerance"] { tolerance = Int(n) }
    var allowed = 0
    if case .number(let n)? = meta["allowedPixels"] { allowed = Int(n) }
    var reason: String? = nil
    if case .string(let r)? = meta["toleranceReason"], !r.isEmpty { reason = r }
    var problem: String? = nil
    if (tolerance != 0 || allowed != 0) && reason == nil {
      problem = "golden.json gives channelTolerance \(tolerance) and allowedPixels \(allowed) without a \"toleranceReason\"; "
        + "goldens compare exactly unless a reason says why not"
      (tolerance, allowed) = (0, 0)
    }
    var palette: Int? = nil
    if case .number(let n)? = meta["palette"] { palette = Int(n) }
    var dither = false
    if case .bool(let b)? = meta["dither"] { dither = b }
    for s in scales {
      for r in ratios {
        for f in floors {
          var c = GoldenCase(
            name: name, scale: s, pixelRatio: r, floor: f, channelTolerance: tolerance, allowedPixels: allowed,
            toleranceReason: reason, problem: problem)
          c.palette = palette
          c.dither = dither
          cases.append(c)
        }
      }
    }
    return cases
  }

  /// Renders the case with the library.
  public func render(options: RenderOptions = RenderOptions()) throws -> Snapshot {
    let scene = try SceneLoader.load(path: scenePath)
    return try Snapshot.render(
      scene, overrides: ViewOverrides(scale: scale, pixelRatio: pixelRatio, floor: floor.map { FloorValue($0) }), options: options)
  }
}

private func format(_ n: Double) -> String {
  n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
}
