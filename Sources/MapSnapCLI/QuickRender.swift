import ArgumentParser
import MapSnap

/// The start-up path for the command users run most, `mapsnap scene.json
/// [options]` (or `mapsnap render …`): the arguments are read into
/// `RenderSettings` here, without swift-argument-parser, whose parse
/// (reflection over the option groups, and the Swift runtime's first
/// look-ups of each type's protocol conformances and generic metadata
/// behind it) costs about 3 ms of a 5 ms process.
///
/// The rule: this reader accepts only what it is sure ArgumentParser would
/// read the same way, and hands everything else back (nil), so that
/// ArgumentParser parses it, with its errors, help and usage. Handed back:
/// a subcommand other than `render`, help or version requests, an unknown
/// option, a single-value option or flag given twice, a missing value, a
/// value that fails to convert, `-` or a value starting with `-` after an
/// option that does not take those unconditionally, `--`, a second
/// positional argument, and any arguments that fail validation (the
/// `validate()` of the command and its option groups, which ArgumentParser
/// then runs again to print its message). The result is tested to equal
/// ArgumentParser's field by field, and `reader(for:)` against the `@Option`
/// and `@Flag` declarations of `render` and its option groups (names, arity,
/// parsing, defaults: `QuickRenderTests`), so an option added, renamed or
/// changed there fails the tests until this reader follows it.
enum QuickRender {
  /// How an option's value is read into the command.
  enum Reader: Sendable {
    /// Takes the next argument whatever it is (`parsing: .unconditional`).
    case unconditional(@Sendable (inout RenderSettings, String) -> Bool)
    /// Takes the next argument unless it starts with `-`.
    case value(@Sendable (inout RenderSettings, String) -> Bool)
    /// Adds the next argument to a list (repeatable; not starting with `-`).
    case list(@Sendable (inout RenderSettings, String) -> Bool)
    /// Adds the next argument to a list whatever it is (repeatable;
    /// `parsing: .unconditionalSingleValue`).
    case unconditionalList(@Sendable (inout RenderSettings, String) -> Bool)
    /// A flag: no value.
    case flag(@Sendable (inout RenderSettings) -> Void)

    /// How many values it takes and how, as ArgumentParser's help dump
    /// states an argument: its kind, whether it repeats, its parsing.
    var arity: (kind: String, repeating: Bool, parsing: String) {
      switch self {
      case .unconditional: ("option", false, "unconditional")
      case .value: ("option", false, "default")
      case .list: ("option", true, "default")
      case .unconditionalList: ("option", true, "unconditional")
      case .flag: ("flag", false, "default")
      }
    }
  }

  /// Every option of `render` and its option groups, by the names
  /// ArgumentParser gives them (`Render`, `ViewOptions`, `FileOptions`,
  /// `PaletteFlags`), and where each goes.
  static func reader(for name: String) -> Reader? {
    // A switch rather than a dictionary: nothing to build at start-up.
    switch name {
    case "-o", "--output": return .value { r, v in r.output = v; return true }
    case "--scale": return .unconditional { r, v in set(&r.view.scale, Double(v)) }
    case "--zoom": return .unconditional { r, v in set(&r.view.zoom, Double(v)) }
    case "--bearing": return .unconditional { r, v in set(&r.view.bearing, Double(v)) }
    case "--center": return .unconditional { r, v in r.view.center = v; return true }
    case "--view-crs": return .value { r, v in r.view.viewCrs = v; return true }
    case "--size": return .value { r, v in r.view.size = v; return true }
    case "--pixel-ratio": return .unconditional { r, v in set(&r.view.pixelRatio, Double(v)) }
    case "--bounds": return .unconditional { r, v in r.view.bounds = v; return true }
    case "--padding": return .unconditional { r, v in r.view.padding = v; return true }
    case "--fit": return .value { r, v in r.view.fit = v; return true }
    case "--marker": return .unconditionalList { r, v in r.view.marker.append(v); return true }
    case "--highlight": return .list { r, v in r.view.highlight.append(v); return true }
    case "--geojson": return .list { r, v in r.view.geojson.append(v); return true }
    case "--floor": return .value { r, v in r.view.floor = v; return true }
    case "--max-pixels": return .unconditional { r, v in set(&r.view.maxPixels, Int(v)) }
    case "--font-dir": return .list { r, v in r.view.fontDirs.append(v); return true }
    case "--root": return .value { r, v in r.files.root = v; return true }
    case "--max-source-bytes": return .unconditional { r, v in set(&r.files.maxSourceBytes, ByteCount(argument: v)?.value) }
    case "--report": return .value { r, v in r.report = v; return true }
    case "--report-detail": return .value { r, v in set(&r.reportDetail, Render.ReportDetailOption(rawValue: v)) }
    case "--strict": return .flag { r in r.strict = true }
    case "--threads": return .unconditional { r, v in set(&r.threads, Int(v)) }
    case "--tile-rows": return .unconditional { r, v in set(&r.tileRows, Int(v)) }
    case "--compression": return .value { r, v in set(&r.compression, Render.Compression(rawValue: v)) }
    case "--palette": return .unconditional { r, v in set(&r.palette.palette, Int(v)) }
    case "--dither": return .flag { r in r.palette.dither = true }
    default: return nil
    }
  }

  /// What the `render` command `arguments` (without the program's name) ask
  /// for, validated; nil when ArgumentParser must read them.
  static func settings(from arguments: [String]) -> RenderSettings? {
    var args = arguments[...]
    if args.first == "render" { args.removeFirst() }
    var render = RenderSettings(scene: "")
    var scene: String?
    // Options given so far: an array (at most 26 names), not a Set, whose
    // generic metadata the runtime would build at start-up.
    var seen: [String] = []
    func firstTime(_ name: String) -> Bool {
      if seen.contains(name) { return false }
      seen.append(name)
      return true
    }
    while let arg = args.popFirst() {
      guard arg.hasPrefix("-") else {
        guard scene == nil else { return nil }
        scene = arg
        continue
      }
      var name = arg
      var inline: String?
      if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
        name = String(arg[..<eq])
        inline = String(arg[arg.index(after: eq)...])
      }
      guard let reader = reader(for: name) else { return nil }
      if name == "-o" { name = "--output" }  // one option, two spellings: given twice is handed back
      switch reader {
      case .flag(let set):
        guard inline == nil, firstTime(name) else { return nil }
        set(&render)
      case .unconditional(let set):
        guard firstTime(name), let value = inline ?? args.popFirst(), set(&render, value) else { return nil }
      case .value(let set):
        guard firstTime(name), let value = inline ?? args.popFirst(), !value.hasPrefix("-"), set(&render, value)
        else { return nil }
      case .list(let add):
        guard let value = inline ?? args.popFirst(), !value.hasPrefix("-"), add(&render, value) else { return nil }
      case .unconditionalList(let add):
        guard let value = inline ?? args.popFirst(), add(&render, value) else { return nil }
      }
    }
    // A scene named like a subcommand, or read from standard input, is ArgumentParser's to read.
    guard let scene, !["render", "explain", "batch", "diff", "test", "help"].contains(scene) else { return nil }
    render.scene = scene
    do { try render.validateAll() } catch { return nil }
    return render
  }

  /// Stores a converted value; false when the conversion failed.
  private static func set<T>(_ target: inout T, _ value: T?) -> Bool {
    guard let value else { return false }
    target = value
    return true
  }

  private static func set<T>(_ target: inout T?, _ value: T?) -> Bool {
    guard let value else { return false }
    target = value
    return true
  }
}
