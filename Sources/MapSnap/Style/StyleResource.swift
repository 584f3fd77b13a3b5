/// Where a URL of a style points, read from the style's folder: a local file
/// or file template, an MBTiles or PMTiles archive, or the network.
///
/// - `mbtiles:///absolute/path` (as MapLibre Native writes it) and
///   `mbtiles://relative/path` (relative to the style); `pmtiles://` the same,
///   or `pmtiles://https://…` for a remote archive;
/// - `file:///absolute/path`, and a plain path, relative to the style;
/// - `local://X`: the file X under the render-test suite's root (`localRoot`),
///   as is `http://localhost:2900/X`, where the suite's harness served it;
/// - `http(s)://…`; `mapbox://…` is refused (it needs Mapbox's servers).
package enum StyleResource: Sendable, Equatable {
  case file(String)
  case mbtiles(String)
  case pmtiles(String)
  case http(String)

  /// Where the render-test suite's harness served the suite's root.
  static let renderSuiteServer = "http://localhost:2900/"

  /// Resolves `url` against the style's folder.
  package static func resolve(_ url: String, styleFolder: String, localRoot: String?) throws(StyleSourceError) -> StyleResource {
    func local(_ rest: Substring) -> String {
      let p = String(rest)
      return p.hasPrefix("/") ? p : FileIO.resolve(p, against: styleFolder)
    }
    if let rest = url.dropPrefix("mbtiles://") { return .mbtiles(local(rest)) }
    if let rest = url.dropPrefix("pmtiles://") {
      if rest.hasPrefix("http://") || rest.hasPrefix("https://") { return .pmtiles(String(rest)) }
      return .pmtiles(local(rest))
    }
    if let rest = url.dropPrefix("file://") { return .file(local(rest)) }
    if let rest = url.dropPrefix("local://") {
      guard let localRoot else { throw .localWithoutRoot(url) }
      return .file(FileIO.resolve(String(rest), against: localRoot))
    }
    // The render-test suite's TileJSON documents name the server its
    // harness ran on the suite's root: with that root, its files.
    if let localRoot, let rest = url.dropPrefix(Self.renderSuiteServer) {
      return .file(FileIO.resolve(String(rest), against: localRoot))
    }
    if url.hasPrefix("http://") || url.hasPrefix("https://") { return .http(url) }
    if url.hasPrefix("mapbox://") { throw .mapboxURL(url) }
    if let colon = url.firstIndex(of: ":"), url[..<colon].allSatisfy({ $0.isLetter }), url[colon...].hasPrefix("://") {
      throw .unsupportedScheme(url)
    }
    return .file(local(url[...]))
  }
}

extension StyleResource {
  /// The bytes at `url` (at most `maximum`), through the style's resource
  /// rules: a file missing is `missing`, a file that cannot be read or is
  /// larger `unreadable`.
  static func bytes(_ url: String, maximum: Int, styleFolder: String, localRoot: String?, offline: Bool) throws(StyleSourceError) -> [UInt8] {
    switch try StyleResource.resolve(url, styleFolder: styleFolder, localRoot: localRoot) {
    case .file(let path):
      do {
        return try FileIO.read(path, maximumBytes: maximum)
      } catch {
        if case .notFound = error { throw .missing(url) }
        throw .unreadable(url, reason: error.reason)
      }
    case .http(let u):
      let body = try StyleTileSet.fetch(u, offline: offline)
      guard body.count <= maximum else { throw .unreadable(url, reason: "it holds \(body.count) bytes, more than the \(maximum) read") }
      return body
    case .mbtiles, .pmtiles:
      throw .unsupportedScheme(url)
    }
  }

}

extension String {
  /// The rest of the string after `prefix`, or nil when it does not start with it.
  func dropPrefix(_ prefix: String) -> Substring? {
    hasPrefix(prefix) ? self[index(startIndex, offsetBy: prefix.count)...] : nil
  }
}
