#if canImport(Glibc)
  import Glibc
#endif

/// Reads a batch manifest (scene format section 8): JSON Lines, one frame
/// per line, streamed from the file so that memory does not grow with its
/// length (a manifest of millions of lines is read twice, never held).
///
/// `validate()` checks every line before anything is drawn: a line that is
/// not a JSON object, has an unknown key or a bad value, or writes an output
/// (or report) to a file that another line writes too (compared as
/// `WrittenPaths` resolves them: links followed), makes the manifest invalid.
/// Blank lines (only spaces or tabs) are skipped but counted: line N
/// (1-based) has index N − 1 for `--shard`.
public struct ManifestReader: Sendable {
  /// The manifest as the user named it.
  public let file: String
  /// The folder its relative paths resolve against.
  public let directory: String

  /// Lines longer than this (64 MiB) are invalid: a frame needs far less,
  /// and reading stays bounded.
  public static let maximumLineBytes = 64 << 20
  /// Invalid lines listed in the error; the rest are counted.
  public static let maximumListedProblems = 20

  /// The keys a line may have: section 8's, plus `overlays` (`Overlay`).
  public static let keys = [
    "scene", "style", "output", "scale", "zoom", "center", "size", "pixelRatio", "floor", "bounds", "padding", "fit", "report", "overlays", "viewCrs",
    "bearing",
  ]

  public init(path: String) {
    file = path
    directory = FileIO.directory(of: path)
  }

  /// Every line checked; returns the number of frames (non-blank lines),
  /// of those in `shard`, and of lines.
  /// - Throws: `ManifestError` listing the invalid lines.
  public func validate(shard: (index: Int, count: Int) = (0, 1)) throws(ManifestError) -> (frames: Int, inShard: Int, lines: Int) {
    var problems: [ManifestError.Problem] = []
    var unlisted = 0
    var frames = 0
    var inShard = 0
    // Written paths are compared in two steps so that memory stays at 8
    // bytes per path for millions of lines: a 64-bit hash of each resolved
    // path, sorted; only paths whose hash repeats are compared exactly, in a
    // second reading.
    var hashes: [UInt64] = []
    var written = WrittenPaths()
    func problem(_ line: Int, _ error: SceneError) {
      if problems.count < Self.maximumListedProblems { problems.append(.init(line: line, error: error)) } else { unlisted += 1 }
    }
    let lines = try forEachLine { number, bytes in
      frames += 1
      if (number - 1) % shard.count == shard.index { inShard += 1 }
      do throws(SceneError) {
        for w in written.of(try decode(bytes, number: number)) { hashes.append(Self.hash(w.file)) }
      } catch {
        problem(number, error)
      }
    }
    hashes.sort()
    var repeated = Set<UInt64>()
    for i in hashes.indices.dropFirst() where hashes[i] == hashes[i - 1] { repeated.insert(hashes[i]) }
    hashes = []
    if !repeated.isEmpty {
      var first: [String: (line: Int, key: String, path: String)] = [:]
      _ = try forEachLine { number, bytes in
        guard let line = try? decode(bytes, number: number) else { return }
        for w in written.of(line) where repeated.contains(Self.hash(w.file)) {
          guard let earlier = first[w.file] else {
            first[w.file] = (number, w.key, w.path)
            continue
          }
          let whose = earlier.line == number ? "its own \(earlier.key)" : "line \(earlier.line)'s \(earlier.key)"
          problem(
            number,
            SceneError(
              file: file, path: w.key, kind: .invalidValue, expected: "a file no other output or report of the manifest writes",
              found: "\(Echo.quoted(w.path)), which is \(whose) too\(w.path == earlier.path ? "" : " (the same file by another name)")"))
        }
      }
      problems.sort { $0.line < $1.line }
    }
    guard problems.isEmpty else { throw ManifestError(file: file, kind: .invalidLines, problems: problems, unlisted: unlisted) }
    return (frames, inShard, lines)
  }

  /// The lines whose index is `shard.index` modulo `shard.count`, in
  /// order, handed to `body` one by one with their number, decoded. The
  /// manifest has been validated; a line that no longer decodes (the file
  /// changed since) is handed over as its error, to be counted as failed.
  public func forEachFrame(
    shard: (index: Int, count: Int) = (0, 1), _ body: (Int, Result<ManifestLine, SceneError>) -> Void
  ) throws(ManifestError) {
    _ = try forEachLine { number, bytes in
      guard (number - 1) % shard.count == shard.index else { return }
      do throws(SceneError) {
        body(number, .success(try decode(bytes, number: number)))
      } catch {
        body(number, .failure(error))
      }
    }
  }

  /// Calls `body` with each non-blank line's number and bytes (without the
  /// line break); returns the number of lines. One line in memory at a time,
  /// at most `maximumLineBytes` of it (`BoundedLineReader`): a longer line
  /// is an invalid line, found before anything is drawn.
  private func forEachLine(_ body: (Int, [UInt8]) throws(SceneError) -> Void) throws(ManifestError) -> Int {
    // Opened non-blocking and checked to be a regular file before any read
    // (a FIFO would block; a manifest is read twice: once to check it, once
    // to draw).
    let fd: Int32
    do {
      fd = try FileIO.openForReading(file).fd
    } catch {
      let reason = error.reason.hasPrefix("not a regular file") ? error.reason + "; a manifest is read twice: once to check it, once to draw" : error.reason
      throw ManifestError(file: file, kind: .unreadable(reason: reason))
    }
    let flags = fcntl(fd, F_GETFL)
    if flags != -1 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
    defer { close(fd) }
    var reader = BoundedLineReader(fd: fd, maximumLineBytes: Self.maximumLineBytes)
    var number = 0
    while true {
      let next: BoundedLineReader.Line?
      do {
        next = try reader.next()
      } catch {
        throw ManifestError(file: file, kind: .unreadable(reason: error.reason))
      }
      guard let next else { break }
      number += 1
      do throws(SceneError) {
        switch next {
        case .tooLong(let n):
          throw SceneError(
            file: file, kind: .invalidValue, expected: "a line of at most \(Self.maximumLineBytes) bytes", found: "\(n) bytes")
        case .bytes(let bytes):
          if bytes.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
          try body(number, bytes)
        }
      } catch {
        // Only validate() passes a body that throws; it records problems itself.
        throw ManifestError(file: file, kind: .invalidLines, problems: [.init(line: number, error: error)])
      }
    }
    return number
  }

  /// One line decoded, paths resolved against the manifest's folder.
  /// - Throws: `SceneError` naming the key (`file` is the manifest).
  public func decode(_ bytes: [UInt8], number: Int) throws(SceneError) -> ManifestLine {
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw SceneError(file: file, kind: .syntax(line: number, column: error.column), expected: "valid JSON", found: error.message)
    }
    return try decode(json: json, number: number)
  }

  /// One line's JSON decoded (see `decode(_:number:)`); `mapsnap test`
  /// reads its variants through it, so they take the same keys and values.
  func decode(json: JSONValue, number: Int, at path: JSONPath = JSONPath()) throws(SceneError) -> ManifestLine {
    let r = try ObjectReader(json, at: path, file: file, what: "a manifest line (a JSON object)", allowed: Self.keys)
    let scenes = SceneDecoder(file: file, baseDirectory: directory)
    // A line names a scene or a MapLibre style (section 11); the file itself
    // says which it is, so `style` is the same key under the name users expect.
    if r.has("scene") && r.has("style") { throw r.conflict("scene", "style") }
    var named = try r.string("scene", nonEmpty: true)
    if named == nil { named = try r.string("style", nonEmpty: true) }
    guard let scene = named else {
      throw r.missing("scene", "the scene file (a path), or \"style\": a MapLibre style")
    }
    guard let output = try r.string("output", nonEmpty: true) else { throw r.missing("output", "the PNG to write (a path ending in .png)") }
    guard output.lowercased().hasSuffix(".png") else {
      throw r.invalid("output", expected: "a path ending in .png (mapsnap writes PNG only)", found: .string(output))
    }
    let report = try r.string("report", nonEmpty: true)
    // The view's parameters by the rules the scene's map block follows (`ViewParameter`).
    let view = ViewDecoder(r)
    var o = ViewOverrides()
    (o.scale, o.zoom) = try view.scaleAndZoom()
    o.viewCrs = try view.viewCrs()
    o.center = try view.center(viewCrs: o.viewCrs)
    o.size = try view.size()
    o.pixelRatio = try view.pixelRatio()
    o.floor = try view.floor()
    o.bounds = try view.bounds(viewCrs: o.viewCrs)
    o.padding = try view.padding()
    o.bearing = try r.number("bearing", ViewParameter.bearing.expected(.json), where: ViewParameter.isBearing)
    if let fit = r.object["fit"] {
      if r.has("bounds") { throw r.conflict("bounds", "fit") }
      o.fit = try scenes.decodeFeatureReference(fit, at: path.key("fit"), what: "the feature to fit")
    }
    var overlays: [Overlay] = []
    if let list = r.object["overlays"] {
      guard case .array(let items) = list else { throw r.invalid("overlays", expected: "an array of overlays", found: list) }
      let decoder = OverlayDecoder(file: file, baseDirectory: directory, viewCrs: o.viewCrs)
      for (i, item) in items.enumerated() { overlays.append(try decoder.decode(item, at: "overlays[\(i)]")) }
    }
    return ManifestLine(
      number: number, scene: FileIO.resolve(scene, against: directory), output: FileIO.resolve(output, against: directory),
      report: report.map { FileIO.resolve($0, against: directory) }, overrides: o, overlays: overlays)
  }

  /// FNV-1a, 64 bits: a compact key for the duplicate check.
  static func hash(_ s: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in s.utf8 {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01b3
    }
    return h
  }
}
