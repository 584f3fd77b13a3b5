/// Why a layer's source could not be loaded. The layer is then drawn as
/// nothing with status `error`; the rest of the map is drawn.
public enum SourceError: Error, Sendable, Equatable, CustomStringConvertible {
  case missing(path: String)
  case unreadable(path: String, reason: String)
  case syntax(path: String, line: Int, column: Int, message: String)
  case notGeoJSON(path: String, jsonPath: String, message: String)

  public var description: String {
    switch self {
    case .missing(let p): return "\(p): no such file"
    case .unreadable(let p, let r): return "\(p): cannot read: \(r)"
    case .syntax(let p, let l, let c, let m): return "\(p):\(l):\(c): invalid JSON: \(m)"
    case .notGeoJSON(let p, let jp, let m): return "\(p): \(jp.isEmpty ? "" : jp + ": ")not GeoJSON: \(m)"
    }
  }
}

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
      // Name the file as the scene wrote it, and where it was looked for.
      let named = shown == resolved ? shown : "\(shown) (\(resolved))"
      return .failure(error.isMissing ? .missing(path: named) : .unreadable(path: named, reason: error.reason))
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
      return .failure(.notGeoJSON(path: shown, jsonPath: error.path.description, message: error.message))
    }
  }
}
