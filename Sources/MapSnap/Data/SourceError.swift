/// Why a layer's source could not be loaded. The layer is then drawn as
/// nothing with status `error`; the rest of the map is drawn.
///
/// ``description`` is shaped like every mapsnap error: the file as the scene
/// names it (and where it was looked for, when that differs), then what was
/// expected or what happened, then a hint in parentheses. Every path in it
/// is echoed as input is (`Echo.escaped`: escaped, cut to `Echo.limit`).
public enum SourceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No file at `path` (as the scene names it), looked for at `resolvedPath`.
  case missing(path: String, resolvedPath: String)
  /// The file exists but could not be read; `reason` is the system's.
  case unreadable(path: String, resolvedPath: String, reason: String)
  /// The file is not valid JSON; `line` and `column` are 1-based and
  /// `message` is the parser's.
  case syntax(path: String, line: Int, column: Int, message: String)
  /// The file is JSON but not a GeoJSON document: at `jsonPath` (empty for
  /// the document itself) GeoJSON wants `expected` and the file has `found`.
  case notGeoJSON(path: String, jsonPath: String, expected: String, found: String?, hint: String?)
  /// The source's `crs` cannot be used (PROJ is missing, or does not know it).
  case crs(CRSError)
  /// GDAL cannot be loaded, so no `ogr` source can be read.
  case ogrUnavailable(reason: String)
  /// GDAL could not open or read the dataset; `message` is GDAL's (or the
  /// database's).
  case ogr(path: String, message: String)
  /// A PostGIS database read without GDAL (`PostGISReader`) could not be
  /// reached or refused a query; `message` is the database's (libpq's).
  case database(path: String, message: String)
  /// The dataset has no layer `layer`, or (`layer` nil) several and the
  /// scene names none; `layers` are its layers.
  case ogrLayer(path: String, layer: String?, layers: [String])
  /// The layer has no spatial reference and the scene gives no `crs`.
  case ogrNoReference(path: String, layer: String)
  /// Under `--root`, a `PG:` connection (only files inside the root are).
  case ogrDatabaseUnderRoot(path: String)

  public var description: String {
    switch self {
    case .missing(let name, let resolved):
      return "\(Self.place(name, resolved)): no such file"
    case .unreadable(let name, let resolved, let reason):
      return "\(Self.place(name, resolved)): cannot read: \(reason)"
    case .syntax(let name, let line, let column, let message):
      return "\(Self.shown(name)):\(line):\(column): invalid JSON: \(message)"
    case .notGeoJSON(let name, let jsonPath, let expected, let found, let hint):
      var s = "\(Self.shown(name)): \(jsonPath.isEmpty ? "" : jsonPath + ": ")not GeoJSON: expected \(expected)"
      if let found { s += ", found \(found)" }
      if let hint { s += " (\(hint))" }
      return s
    case .crs(let error):
      return "crs \(error)"
    case .ogrUnavailable(let reason):
      return "ogr: \(reason)"
    case .ogr(let name, let message):
      return "\(Self.shown(name)): GDAL: \(message)"
    case .database(let name, let message):
      return "\(Self.shown(name)): PostgreSQL: \(message)"
    case .ogrLayer(let name, let layer, let layers):
      let list = layers.map { Echo.quoted($0) }.joined(separator: ", ")
      guard let layer else {
        return layers.isEmpty
          ? "\(Self.shown(name)): the dataset has no layer" : "\(Self.shown(name)): the dataset has \(layers.count) layers (\(list)); name one with \"layer\""
      }
      let hint = closestMatch(to: layer, in: layers).map { " (did you mean \(Echo.quoted($0))?)" } ?? ""
      return "\(Self.shown(name)): no layer \(Echo.quoted(layer)) in the dataset; its layers: \(list)\(hint)"
    case .ogrNoReference(let name, let layer):
      return
        "\(Self.shown(name)): layer \(Echo.quoted(layer)) has no spatial reference: give the source a \"crs\" (such as \"EPSG:3067\"), or add one to the dataset (a .prj beside a Shapefile, its SRID in PostGIS)"
    case .ogrDatabaseUnderRoot(let name):
      return "\(Self.shown(name)): a database connection is not allowed under --root (only dataset files inside the root are read)"
    }
  }

  /// The file as the scene names it, and where it was looked for only when
  /// that differs; each echoed (`shown`).
  private static func place(_ path: String, _ resolved: String) -> String {
    path == resolved ? shown(path) : "\(shown(path)) (\(shown(resolved)))"
  }

  /// A path as messages echo it: escaped and cut to `Echo.limit` (a 6 KB
  /// path must not make a 6 KB line).
  private static func shown(_ path: String) -> String { Echo.escaped(path) }
}
