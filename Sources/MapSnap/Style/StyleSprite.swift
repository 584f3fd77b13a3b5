internal import _MapSnapRaster
internal import _MapSnapStyle

/// A style's sprite images (patterns, and icons for symbol layers): each
/// sprite of the style's `sprite` (a URL, or the specification's array of
/// `{id, url}`) is an index `URL.json` and a sheet `URL.png`, or
/// `URL@2x.json` and `URL@2x.png` when the frame's pixel ratio is 2 or more
/// (the 1x files when the @2x ones cannot be read). An image of the sprite
/// `default` (a plain URL is that sprite) is named as in its index; one of
/// any other sprite is `id:name`.
///
/// Every problem (a file missing, an index that is not JSON or an entry
/// that is not an image of the sheet) is a finding in `problems`, with the
/// URL and JSON path; the images that are fine stay available.
struct StyleSprite: Sendable {
  /// One image of the sprite, cut from its sheet.
  struct Image: Sendable {
    /// Premultiplied pixels (`width` × `height` of the entry).
    let image: RasterImage
    /// Sheet pixels per CSS pixel (`pixelRatio`, default 1).
    let pixelRatio: Double
    /// An SDF icon (tinted by `icon-color`).
    let sdf: Bool
    /// `stretchX`, `stretchY`: the [from, to] pixel ranges that stretch.
    let stretchX: [[Double]]
    let stretchY: [[Double]]
    /// `content`: [left, top, right, bottom], when given.
    let content: [Double]?
  }

  /// The images by name (`id:name` for sprites other than `default`).
  private(set) var images: [String: Image] = [:]
  /// What could not be read, each with its URL and JSON path.
  private(set) var problems: [String] = []

  /// The most bytes a sprite index may have.
  static let maximumIndexBytes = 16 << 20
  /// The most pixels a sprite sheet may have (a 4096² sheet).
  static let maximumSheetPixels = 4096 * 4096
  /// The most bytes a sprite sheet file may have.
  static let maximumSheetBytes = 64 << 20

  /// The most `stretchX` or `stretchY` zones an image may have: it is
  /// drawn in (2 × zones + 1)² pieces at most.
  static let maximumStretchZones = 32

  /// A sprite of no images.
  init() {}

  /// Reads `sprites` (the style's `sprite`, as `StyleDocument.sprites`) for
  /// frames of `pixelRatio`.
  init(_ sprites: [(id: String, url: String)], pixelRatio: Double, styleFolder: String, localRoot: String?, offline: Bool) {
    if sprites.isEmpty { problems.append("sprite: the style names no sprite, so no pattern or icon image is available") }
    for (i, sprite) in sprites.enumerated() {
      let path = sprites.count == 1 ? "sprite" : "sprite[\(i)]"
      let prefix = sprite.id == "default" ? "" : sprite.id + ":"
      let read = { (url: String) throws(StyleSourceError) -> [UInt8] in
        try StyleResource.bytes(url, maximum: url.hasSuffix(".json") || url.contains(".json?") ? Self.maximumIndexBytes : Self.maximumSheetBytes,
                       styleFolder: styleFolder, localRoot: localRoot, offline: offline)
      }
      var loaded = false
      var highProblem: String?
      if Self.readsHighResolution(pixelRatio) {
        do {
          let index = try read(Self.url(sprite.url, suffix: "@2x", ext: "json"))
          let sheet = try read(Self.url(sprite.url, suffix: "@2x", ext: "png"))
          add(index: index, sheet: sheet, base: Self.url(sprite.url, suffix: "@2x", ext: "json"), prefix: prefix, path: path)
          loaded = true
        } catch {
          highProblem = error.description
        }
      }
      guard !loaded else { continue }
      do {
        let index = try read(Self.url(sprite.url, suffix: "", ext: "json"))
        let sheet = try read(Self.url(sprite.url, suffix: "", ext: "png"))
        add(index: index, sheet: sheet, base: Self.url(sprite.url, suffix: "", ext: "json"), prefix: prefix, path: path)
        if let highProblem { problems.append("\(path): the @2x sprite cannot be read (\(highProblem)); the 1x sprite is drawn") }
      } catch {
        problems.append("\(path): \(error.description); its images are missing")
      }
    }
  }

  /// Whether frames of `pixelRatio` read the `@2x` files (2 or more).
  static func readsHighResolution(_ pixelRatio: Double) -> Bool { pixelRatio >= 2 }

  /// True when `layer` reads the sprite (a `*-pattern` paint property, a symbol layer's icons).
  static func isNeeded(by layer: StyleLayer) -> Bool {
    (layer.kind == .symbol && layer.layout["icon-image"] != nil) || ["background-pattern", "fill-pattern", "line-pattern"].contains { layer.paint[$0] != nil }
  }

  /// The image named `name`, if the sprite has it.
  func image(_ name: String) -> Image? { images[name] }

  /// The names of every image (what `image` expressions find available).
  var names: [String] { images.keys.sorted() }

  /// `url` with `suffix` and `.ext` inserted before its query, as MapLibre
  /// forms sprite URLs (`a/sprite?k=v` → `a/sprite@2x.json?k=v`).
  static func url(_ url: String, suffix: String, ext: String) -> String {
    if let q = url.firstIndex(of: "?"), url.hasPrefix("http://") || url.hasPrefix("https://") {
      return String(url[..<q]) + suffix + "." + ext + String(url[q...])
    }
    return url + suffix + "." + ext
  }

  /// Adds the images of one sprite: its index (JSON) and sheet (PNG).
  private mutating func add(index: [UInt8], sheet: [UInt8], base: String, prefix: String, path: String) {
    let json: JSONValue
    do {
      json = try JSONParser.parse(index)
    } catch {
      problems.append("\(path): \(base): not JSON: line \(error.line), column \(error.column): \(error.message); its images are missing")
      return
    }
    guard case .object(let entries) = json else {
      problems.append("\(path): \(base): expected an object of images, found \(json.typeName); its images are missing")
      return
    }
    let decoded: DecodedImage
    do {
      decoded = try PNGDecoder.decode(sheet, maximumPixels: Self.maximumSheetPixels)
    } catch {
      problems.append("\(path): the sheet of \(base): \(error); its images are missing")
      return
    }
    var bad: [String] = []
    for (name, value) in entries.pairs {
      switch Self.entry(value, sheet: decoded) {
      case .success(let image): images[prefix + name] = image
      case .failure(let why): bad.append("\(JSONPath().key(name))\(why.field.isEmpty ? "" : "." + why.field): \(why.message)")
      }
    }
    if !bad.isEmpty {
      let shown = bad.prefix(Self.shownProblems).joined(separator: "; ")
      let more = bad.count > Self.shownProblems ? " (and \(bad.count - Self.shownProblems) more)" : ""
      problems.append("\(path): \(base): \(shown)\(more); \(bad.count == 1 ? "that image is" : "those images are") missing")
    }
  }

  /// At most this many bad entries of one index are named in its finding.
  static let shownProblems = 5

  /// Why an entry of an index is not an image: the member and what is wrong.
  struct EntryProblem: Error {
    let field: String
    let message: String
  }

  /// One entry of an index, cut from `sheet`.
  static func entry(_ value: JSONValue, sheet: DecodedImage) -> Result<Image, EntryProblem> {
    guard case .object(let o) = value else { return .failure(EntryProblem(field: "", message: "expected an object, found \(value.typeName)")) }
    func whole(_ key: String, positive: Bool) -> Result<Int, EntryProblem> {
      guard case .number(let n)? = o[key] else {
        return .failure(EntryProblem(field: key, message: o[key] == nil ? "missing" : "expected a number"))
      }
      guard n.isFinite, n == n.rounded(), n >= (positive ? 1 : 0), n <= Double(Self.maximumSheetPixels) else {
        return .failure(EntryProblem(field: key, message: "expected a whole number \(positive ? "of at least 1" : "of at least 0"), found \(JSONWriter.numberText(n))"))
      }
      return .success(Int(n))
    }
    let x: Int, y: Int, w: Int, h: Int
    switch (whole("x", positive: false), whole("y", positive: false), whole("width", positive: true), whole("height", positive: true)) {
    case (.success(let a), .success(let b), .success(let c), .success(let d)): (x, y, w, h) = (a, b, c, d)
    case (.failure(let e), _, _, _), (_, .failure(let e), _, _), (_, _, .failure(let e), _), (_, _, _, .failure(let e)): return .failure(e)
    }
    guard x + w <= sheet.width, y + h <= sheet.height else {
      return .failure(EntryProblem(field: "", message: "\(w)×\(h) at \(x), \(y) lies outside the \(sheet.width)×\(sheet.height) sheet"))
    }
    var ratio = 1.0
    if let r = o["pixelRatio"] {
      guard case .number(let n) = r, n.isFinite, n > 0 else { return .failure(EntryProblem(field: "pixelRatio", message: "expected a number above 0")) }
      ratio = n
    }
    var sdf = false
    if let s = o["sdf"] {
      guard case .bool(let b) = s else { return .failure(EntryProblem(field: "sdf", message: "expected true or false")) }
      sdf = b
    }
    // Stretch zones lie within the image, each from ≤ to, in ascending
    // order without overlap, as MapLibre checks them.
    func ranges(_ key: String, size: Int) -> Result<[[Double]], EntryProblem> {
      guard let v = o[key] else { return .success([]) }
      let expected = "expected an array of [from, to] pairs, ascending and within 0…\(size)"
      guard case .array(let items) = v else { return .failure(EntryProblem(field: key, message: expected)) }
      guard items.count <= Self.maximumStretchZones else {
        return .failure(EntryProblem(field: key, message: "\(items.count) zones, more than the \(Self.maximumStretchZones) an image may have"))
      }
      var out: [[Double]] = []
      for item in items {
        guard case .array(let pair) = item, pair.count == 2, case .number(let a) = pair[0], case .number(let b) = pair[1], a.isFinite, b.isFinite,
          a >= (out.last?[1] ?? 0), a <= b, b <= Double(size)
        else {
          return .failure(EntryProblem(field: key, message: expected))
        }
        out.append([a, b])
      }
      return .success(out)
    }
    let sx: [[Double]], sy: [[Double]]
    switch (ranges("stretchX", size: w), ranges("stretchY", size: h)) {
    case (.success(let a), .success(let b)): (sx, sy) = (a, b)
    case (.failure(let e), _), (_, .failure(let e)): return .failure(e)
    }
    var content: [Double]?
    if let c = o["content"] {
      guard case .array(let items) = c, items.count == 4 else { return .failure(EntryProblem(field: "content", message: "expected [left, top, right, bottom]")) }
      var out: [Double] = []
      for item in items {
        guard case .number(let n) = item, n.isFinite else { return .failure(EntryProblem(field: "content", message: "expected [left, top, right, bottom]")) }
        out.append(n)
      }
      guard out[0] >= 0, out[1] >= 0, out[0] <= out[2], out[1] <= out[3], out[2] <= Double(w), out[3] <= Double(h) else {
        return .failure(EntryProblem(field: "content", message: "expected [left, top, right, bottom] within the \(w)×\(h) image, left ≤ right and top ≤ bottom"))
      }
      content = out
    }
    var bytes = [UInt8](repeating: 0, count: w * h * 4)
    sheet.pixels.withUnsafeBufferPointer { src in
      bytes.withUnsafeMutableBufferPointer { dst in
        for row in 0..<h {
          let from = ((y + row) * sheet.width + x) * 4
          for i in 0..<(w * 4) { dst[row * w * 4 + i] = src[from + i] }
        }
      }
    }
    let image = RasterImage(straightRGBA: bytes, width: w, height: h)
    return .success(Image(image: image, pixelRatio: ratio, sdf: sdf, stretchX: sx, stretchY: sy, content: content))
  }
}
