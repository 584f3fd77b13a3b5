import Synchronization

/// Loads the sources of a scene's layers, reading each file once even when
/// several layers share it, and projecting it once per spatial reference.
/// Thread-safe: batch workers share one loader; loads are serialised.
public final class SourceLoader: Sendable {
  private struct Key: Hashable {
    var path: String
    var projection: MapProjection?
  }

  private let cache = Mutex<[Key: Result<FeatureCollection, SourceError>]>([:])

  public init() {}

  /// The features of `source` in WGS84 degrees (`projection` nil) or in
  /// `projection`'s map units; files are read and decoded on first use.
  public func load(_ source: Source, projection: MapProjection? = nil) -> Result<FeatureCollection, SourceError> {
    cache.withLock { cache in Self.load(source, projection: projection, cache: &cache) }
  }

  private static func load(
    _ source: Source, projection: MapProjection?, cache: inout [Key: Result<FeatureCollection, SourceError>]
  ) -> Result<FeatureCollection, SourceError> {
    switch source {
    case .reprojected(let inner, let crs):
      let key = inner.cacheKey.map { Key(path: $0 + "\u{0}" + crs, projection: projection) }
      if let key, let hit = cache[key] { return hit }
      let result: Result<FeatureCollection, SourceError>
      switch (load(inner, projection: nil, cache: &cache), CRSTransform.to84(from: crs)) {
      case (.failure(let e), _): result = .failure(e)
      case (_, .failure(let e)): result = .failure(.crs(e))
      case (.success(let raw), .success(let t)):
        let degrees = raw.toWGS84(t)
        result = .success(projection.map { degrees.projected(to: $0) } ?? degrees)
      }
      if let key { cache[key] = result }
      return result
    case .inline(let collection):
      return .success(projection.map { collection.projected(to: $0) } ?? collection)
    case .file(let shown, let resolved):
      let path = source.cacheKey!
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

extension Source {
  /// The canonical path of a file source, or nil for inline data.
  var cacheKey: String? {
    switch self {
    case .file(_, let resolved): return FileIO.canonicalPath(resolved) ?? resolved
    case .inline: return nil
    case .reprojected(let inner, let crs): return inner.cacheKey.map { $0 + "\u{0}" + crs }
    }
  }
}
