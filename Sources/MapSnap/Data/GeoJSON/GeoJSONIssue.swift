/// A problem with one GeoJSON value: where it is (relative JSON path), what
/// GeoJSON expects there and what the document has. It becomes a
/// `SceneError` (inline data, graphics), a `SourceError.notGeoJSON` (a
/// source file that is not GeoJSON) or a skipped feature's sample.
struct GeoJSONIssue: Error, Sendable, CustomStringConvertible {
  var path: JSONPath
  /// What GeoJSON wants there, such as `a position [lon, lat] of finite numbers`.
  var expected: String
  /// What the document has there, such as `an array of 1 value`; nil when absent.
  var found: String?
  /// A suggestion such as `did you mean "LineString"?`.
  var hint: String? = nil

  /// `expected E, found F`: the one place the message is built.
  var message: String {
    found.map { "expected \(expected), found \($0)" } ?? "expected \(expected)"
  }

  /// `path: message (hint)`, as a skipped feature's sample; a bare
  /// geometry document's path reads `geometry`.
  /// `path: expected E`: the sample without what the file has there, nor a
  /// hint drawn from it (under `--root`).
  var descriptionWithoutContent: String {
    let place = path.description.isEmpty ? "geometry" : path.description
    return "\(place): expected \(expected)"
  }

  var description: String {
    let place = path.description.isEmpty ? "geometry" : path.description
    return "\(place): \(message)\(hint.map { " (\($0))" } ?? "")"
  }
}
