/// Loads the sources of a scene's layers, reading each file once even when
/// several layers share it.
public final class SourceLoader {
  private var cache: [String: Result<FeatureCollection, SourceError>] = [:]

  public init() {}

  /// The features of `source`; files are read and decoded on first use.
  public func load(_ source: Source) -> Result<FeatureCollection, SourceError> {
    switch source {
    case .inline(let collection):
      return .success(collection)
    case .file(let shown, let resolved):
      let key = FileIO.canonicalPath(resolved) ?? resolved
      if let hit = cache[key] { return hit }
      let result = Self.read(shown: shown, resolved: resolved)
      cache[key] = result
      return result
    }
  }

  private static func read(shown: String, resolved: String) -> Result<FeatureCollection, SourceError> {
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(resolved)
    } catch {
      switch error {
      case .notFound: return .failure(.missing(path: shown, resolvedPath: resolved))
      case .isDirectory, .failed: return .failure(.unreadable(path: shown, resolvedPath: resolved, reason: error.reason))
      }
    }
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      return .failure(.syntax(path: shown, line: error.line, column: error.column, message: error.message))
    }
    do {
      return .success(try GeoJSONDecoder.decodeDocument(json))
    } catch {
      return .failure(
        .notGeoJSON(path: shown, jsonPath: error.path.description, expected: error.expected, found: error.found, hint: error.hint))
    }
  }
}
