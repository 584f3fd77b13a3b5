/// Loads the sources of a scene's layers, reading each file once even when
/// several layers share it, and projecting it once per spatial reference.
public final class SourceLoader {
  private struct Key: Hashable {
    var path: String
    var projection: MapProjection?
  }

  private var cache: [Key: Result<FeatureCollection, SourceError>] = [:]

  public init() {}

  /// The features of `source` in WGS84 degrees (`projection` nil) or in
  /// `projection`'s map units; files are read and decoded on first use.
  public func load(_ source: Source, projection: MapProjection? = nil) -> Result<FeatureCollection, SourceError> {
    switch source {
    case .inline(let collection):
      return .success(projection.map { collection.projected(to: $0) } ?? collection)
    case .file(let shown, let resolved):
      let path = FileIO.canonicalPath(resolved) ?? resolved
      if let hit = cache[Key(path: path, projection: projection)] { return hit }
      let degrees: Result<FeatureCollection, SourceError>
      if let hit = cache[Key(path: path, projection: nil)] {
        degrees = hit
      } else {
        degrees = Self.read(shown: shown, resolved: resolved)
        cache[Key(path: path, projection: nil)] = degrees
      }
      guard let projection else { return degrees }
      let result = degrees.map { $0.projected(to: projection) }
      cache[Key(path: path, projection: projection)] = result
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
