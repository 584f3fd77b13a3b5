/// Something wrong with a layer, found while resolving the map: the data, and
/// one message builder. A `source` problem makes the layer `error` (it is not
/// drawn); every other problem makes it `warning` (drawn, with the problem).
/// Each is also printed on standard error.
public enum LayerProblem: Sendable, Equatable {
  /// The source could not be loaded.
  case source(SourceError)
  /// Features skipped for invalid geometry: how many, and the first reasons.
  case invalidFeatures(count: Int, samples: [String])
  /// A key of the layer names a property that no feature of the source has:
  /// `key` is where the layer names it (`rules[1].where`, `label.field`,
  /// `textField`, …), `property` the name, `suggestion` the closest existing
  /// property name, if any is close.
  case unknownProperty(key: String, property: String, suggestion: String?)
  /// A marker icon could not be loaded; markers with it are not drawn.
  case icon(name: String, error: PNGError)

  /// True when the problem keeps the whole layer from being drawn.
  public var isError: Bool {
    if case .source = self { return true }
    return false
  }

  /// The problem's kind as the report names it.
  public var kind: String {
    switch self {
    case .source: return "source"
    case .invalidFeatures: return "invalidFeatures"
    case .unknownProperty: return "unknownProperty"
    case .icon: return "icon"
    }
  }

  /// The hint, when there is one: `did you mean "status"?`.
  public var hint: String? {
    if case .unknownProperty(_, _, let s?) = self { return "did you mean \"\(s)\"?" }
    return nil
  }

  /// One sentence saying what is wrong.
  public var message: String {
    switch self {
    case .source(let error):
      return error.description
    case .invalidFeatures(let n, let samples):
      return "skipped \(n) invalid feature\(n == 1 ? "" : "s") (\(samples.joined(separator: "; ")))"
    case .unknownProperty(let key, let property, _):
      return "\(key) names the property \"\(property)\", which no feature of the source has" + (hint.map { " (\($0))" } ?? "")
    case .icon(let name, let error):
      // File errors name the resolved path themselves; others get the name.
      switch error {
      case .fileNotFound, .fileReadFailed: return "marker icon: \(error); markers with it are not drawn"
      default: return "marker icon \(name): \(error); markers with it are not drawn"
      }
    }
  }
}
