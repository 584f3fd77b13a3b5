#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HTTPFetcher {
  /// How a fetcher reaches the network and keeps what it fetched.
  package struct Options: Sendable, Equatable {
    /// Serve what the cache holds (fresh or stale, without asking the
    /// server) and refuse every other http(s) URL before any connection.
    package var offline: Bool
    /// The cache folder; nil: `defaultCacheFolder` (none when neither
    /// XDG_CACHE_HOME nor HOME is set).
    package var cacheFolder: String?
    /// The most the cache folder holds; the least recently used entries go
    /// first. 0: no disk cache (every request goes to the network, and
    /// `offline` refuses every URL).
    package var cacheLimitBytes: Int
    /// Seconds to establish a connection.
    package var connectTimeout: Double
    /// Seconds for a whole request, redirects included.
    package var timeout: Double
    /// Redirects followed before giving up.
    package var maxRedirects: Int
    /// The largest body of one response, after content decoding (a gzip
    /// bomb stops here); a larger one is refused without reading the rest.
    package var maxBodyBytes: Int
    package var userAgent: String

    /// 512 MiB of cache: a city's vector tiles at every zoom, with room.
    package static let defaultCacheLimitBytes = 512 << 20
    /// 64 MiB: well over any tile, style, sprite or TileJSON; a GeoJSON file
    /// larger than this is better given as a path.
    package static let defaultMaxBodyBytes = 64 << 20

    package init(
      offline: Bool = false, cacheFolder: String? = nil, cacheLimitBytes: Int = Options.defaultCacheLimitBytes,
      connectTimeout: Double = 10, timeout: Double = 30, maxRedirects: Int = 5,
      maxBodyBytes: Int = Options.defaultMaxBodyBytes, userAgent: String = "mapsnap/" + MapSnapVersion.current
    ) {
      self.offline = offline
      self.cacheFolder = cacheFolder
      self.cacheLimitBytes = cacheLimitBytes
      self.connectTimeout = connectTimeout
      self.timeout = timeout
      self.maxRedirects = maxRedirects
      self.maxBodyBytes = maxBodyBytes
      self.userAgent = userAgent
    }

    /// `$XDG_CACHE_HOME/mapsnap/http`, else `$HOME/.cache/mapsnap/http`
    /// (the XDG base directory rule); nil when neither is set.
    package static func defaultCacheFolder(environment: (String) -> String? = Options.environment) -> String? {
      if let xdg = environment("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/mapsnap/http" }
      if let home = environment("HOME"), !home.isEmpty { return home + "/.cache/mapsnap/http" }
      return nil
    }

    /// The process's environment variable `name`.
    package static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
  }
}
