/// What one request may ask for. Over a limit, the answer is 413 (414 for
/// the URL) naming the limit; `mapsnap serve`'s options change them.
public struct ServeLimits: Sendable, Equatable {
  /// The widest and tallest image in logical pixels, as the Mapbox API
  /// allows (1280); `@2x` doubles the device pixels.
  public var maxSide = 1280
  /// The most overlays in one request (a GeoJSON overlay counts one per feature).
  public var maxOverlays = 200
  /// The longest request target (path and query) in bytes. 8 KiB is what
  /// the Mapbox API and most proxies take; longer overlays go in a POST body.
  public var maxURLBytes = 8192
  /// The largest POST body in bytes.
  public var maxBodyBytes = 1 << 20
  public init() {}
}
