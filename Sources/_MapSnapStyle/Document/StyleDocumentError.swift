public import _MapSnapJSON

/// Why a style cannot be drawn at all: the findings of validation that are
/// errors (issue 39: no `"version": 8`, a layer without an id or type, a
/// layer naming a source the style lacks). Everything else is a warning and
/// the style is still drawn, as MapLibre draws it.
package struct StyleDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Reason: Sendable, Equatable {
    case notAnObject
    case version(found: String)
    case missing(what: String)
    case wrongType(expected: String, found: String)
    case unknownSource(String, hint: String?)
    case duplicateLayerID(String)
  }

  /// The JSON path of the offending value (`layers[3].source`); empty for the root.
  package var path: String
  package var reason: Reason

  package init(path: String, _ reason: Reason) {
    self.path = path
    self.reason = reason
  }

  /// `layers[3].source: no source "roads" in the style's sources; did you mean "road"?`
  package var description: String {
    path.isEmpty ? message : "\(path): \(message)"
  }

  /// The message without the path.
  package var message: String {
    switch reason {
    case .notAnObject:
      return "a style is a JSON object with \"version\": 8, \"sources\" and \"layers\""
    case .version(let found):
      return "expected 8 (the MapLibre / Mapbox GL style specification v8), found \(found)"
    case .missing(let what):
      return "missing \(what)"
    case .wrongType(let expected, let found):
      return "expected \(expected), found \(found)"
    case .unknownSource(let id, let hint):
      return "no source \(Echo.quoted(id)) in the style's sources" + (hint.map { "; did you mean \(Echo.quoted($0))?" } ?? "")
    case .duplicateLayerID(let id):
      return "a layer with id \(Echo.quoted(id)) is already defined"
    }
  }
}
