public import MapSnap
import Synchronization

/// The scenes and styles a server serves: the `*.json` files in its folder
/// and the folder's subfolders (one level down, so `Examples/styles/bright.json`
/// is served as `bright`) whose content is a scene (an object with `layers`
/// and `map`) or a MapLibre style (`layers` and `"version": 8`), each under
/// its file name without `.json`. Hidden files and folders are skipped, and
/// so are files over `maximumBytes` (scenes and styles are small; a large
/// JSON file in the folder is data). Where two files have one name, the one
/// in the folder itself, then the first in path order, is served; the other
/// is listed in `shadowed`.
///
/// Nothing outside the folder is read: the session's confinement
/// (`RenderSession.Options.root`) holds the scenes and everything they name.
/// The folder is read again when a name is missing, at most every
/// `rescanSeconds`, so scenes added while the server runs are found.
public final class SceneCatalog: Sendable {
  /// One served file.
  public struct Entry: Sendable, Equatable {
    public var name: String
    /// The file's path (under `root`).
    public var path: String
    public var isStyle: Bool
    /// The view the file gives, for the preview page: a centre in degrees
    /// with a MapLibre zoom (styles, and scenes that give a zoom) or a scale.
    public var view: (lon: Double, lat: Double, zoom: Double?, scale: Double?)?

    public static func == (a: Entry, b: Entry) -> Bool { a.name == b.name && a.path == b.path && a.isStyle == b.isStyle }
  }

  public let root: String
  let maximumBytes: Int
  private let state = Mutex<(byName: [String: Entry], shadowed: [String], scannedAt: ContinuousClock.Instant)>(([:], [], .now))
  /// At most one rescan a second: a client asking for missing names cannot
  /// make the server read its folder on every request.
  static let rescanInterval = Duration.seconds(1)
  /// Scenes and styles larger than 4 MiB are not looked at.
  public static let defaultMaximumBytes = 4 << 20

  /// The catalog of `root`, read now.
  /// - Throws: `ServeError` (status 404) when `root` is not a folder.
  public init(root: String, maximumBytes: Int = SceneCatalog.defaultMaximumBytes) throws(ServeError) {
    guard FileIO.isDirectory(root), let canonical = FileIO.canonicalPath(root) else {
      throw ServeError(status: 404, part: root, message: "\(Echo.quoted(root)) is not a folder", hint: "give the folder of the scenes and styles to serve")
    }
    self.root = canonical
    self.maximumBytes = maximumBytes
    rescan()
  }

  /// Every served entry, by name.
  public var entries: [Entry] { state.withLock { $0.byName.values.sorted { $0.name < $1.name } } }
  /// Files not served because another has their name.
  public var shadowed: [String] { state.withLock { $0.shadowed } }

  /// The entry served as `name`.
  /// - Throws: `ServeError` 404 naming the nearest served name.
  public func entry(_ name: String) throws(ServeError) -> Entry {
    if let e = state.withLock({ $0.byName[name] }) { return e }
    let now = ContinuousClock.now
    if state.withLock({ now - $0.scannedAt >= Self.rescanInterval }) { rescan() }
    if let e = state.withLock({ $0.byName[name] }) { return e }
    let names = entries.map(\.name)
    throw ServeError(
      status: 404, part: name, message: "no scene or style named \(Echo.quoted(name)) is served",
      hint: closestMatch(to: name, in: names).map { "did you mean \(Echo.quoted($0))?" }
        ?? (names.isEmpty ? "the folder has no scene or style" : "served: \(names.prefix(10).joined(separator: ", "))"))
  }

  /// Refuses a name that no file could have: empty, over 128 bytes, with
  /// a character other than letters, digits, `.`, `_` and `-`, or starting
  /// with a dot (400).
  public static func checkName(_ name: String) throws(ServeError) {
    let ok = !name.isEmpty && name.utf8.count <= 128 && name.first != "."
      && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    guard ok else {
      throw .badRequest(name, expected: "a scene name: letters, digits, '.', '_' and '-', not starting with '.'")
    }
  }

  /// Reads the folder and its subfolders again.
  func rescan() {
    var found: [String: Entry] = [:]
    var shadowed: [String] = []
    let top = FileIO.listDirectory(root).filter { !$0.hasPrefix(".") }.sorted()
    var files = top.filter { $0.hasSuffix(".json") }.map { (root + "/" + $0, $0) }
    for d in top where FileIO.isDirectory(root + "/" + d) {
      files += FileIO.listDirectory(root + "/" + d).filter { !$0.hasPrefix(".") && $0.hasSuffix(".json") }.sorted().map { (root + "/" + d + "/" + $0, $0) }
    }
    for (path, file) in files {
      let name = String(file.dropLast(5))
      guard (try? Self.checkName(name)) != nil, let entry = read(path, name: name) else { continue }
      if found[name] != nil {
        shadowed.append(path)
        continue
      }
      found[name] = entry
    }
    let now = ContinuousClock.now
    state.withLock { $0 = (found, shadowed, now) }
  }

  /// The entry of a style or scene file, nil when it is neither.
  func read(_ path: String, name: String) -> Entry? {
    guard FileIO.isRegularFile(path), let bytes = try? FileIO.read(path, maximumBytes: maximumBytes),
      case .object(let o)? = try? JSONParser.parse(bytes), case .array? = o["layers"]
    else { return nil }
    func center(_ v: JSONValue?) -> (Double, Double)? {
      if case .array(let a)? = v, a.count == 2, case .number(let x) = a[0], case .number(let y) = a[1], abs(x) <= 180, abs(y) <= 90 { (x, y) } else { nil }
    }
    func number(_ v: JSONValue?) -> Double? { if case .number(let n)? = v { n } else { nil } }
    if o["version"] == .number(8) {
      let view = center(o["center"]).map { (lon: $0.0, lat: $0.1, zoom: number(o["zoom"]) ?? 0, scale: Double?.none) }
      return Entry(name: name, path: path, isStyle: true, view: view)
    }
    guard case .object(let map)? = o["map"] else { return nil }
    // A scene's zoom is one more than the URL's (MapLibre's) for one ground resolution.
    var view: (lon: Double, lat: Double, zoom: Double?, scale: Double?)? = nil
    if map["viewCrs"] == nil, let c = center(map["center"]) {
      view = (c.0, c.1, number(map["zoom"]).map { max(0, $0 - 1) }, number(map["scale"]))
    }
    return Entry(name: name, path: path, isStyle: false, view: view)
  }
}
