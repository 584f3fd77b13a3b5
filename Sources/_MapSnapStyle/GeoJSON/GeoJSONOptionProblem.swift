package import _MapSnapJSON

/// One finding about a geojson source's options: where (the member's JSON
/// path), what was expected, what was found, and what is used instead.
package struct GeoJSONOptionProblem: Sendable, Equatable, CustomStringConvertible {
  package var path: String
  package var expected: String
  package var found: String
  /// What the source uses instead ("the default 18", "the filter is ignored").
  package var fallback: String

  package init(path: JSONPath, expected: String, found: String, fallback: String) {
    self.path = path.description
    self.expected = expected
    self.found = found
    self.fallback = fallback
  }

  /// `sources.points.tolerance: expected a number ≥ 0, found string; the default 0.375 is used`.
  package var description: String { "\(path): expected \(expected), found \(found); \(fallback)" }
}
