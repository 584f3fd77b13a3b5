public import _MapSnapJSON

/// One frame of a MapLibre style: the style document, where its relative
/// paths start, the frame's size and the camera overrides.
public struct StyleRenderRequest: Sendable {
  /// The style document (`"version": 8`).
  public var style: JSONValue
  /// The style's own path (or URL); relative source, sprite and glyph paths
  /// start at its folder. Also named in messages.
  public var stylePath: String
  /// Frame size in CSS pixels; the image is `pixelRatio` times larger.
  public var width: Int
  public var height: Int
  public var pixelRatio: Double
  /// Camera overrides; nil takes the style's `center`, `zoom`, `bearing`.
  /// `zoom` is MapLibre's zoom (512-pixel tiles).
  public var center: (lon: Double, lat: Double)?
  public var zoom: Double?
  public var bearing: Double?
  /// The folder `local://PATH` URLs name (the render-test suite's root); nil
  /// refuses them.
  public var localRoot: String?
  /// Refuse every http(s) URL.
  public var offline: Bool

  public init(style: JSONValue, stylePath: String, width: Int = 512, height: Int = 512, pixelRatio: Double = 1,
              center: (lon: Double, lat: Double)? = nil, zoom: Double? = nil, bearing: Double? = nil,
              localRoot: String? = nil, offline: Bool = false) {
    self.style = style
    self.stylePath = stylePath
    self.width = width
    self.height = height
    self.pixelRatio = pixelRatio
    self.center = center
    self.zoom = zoom
    self.bearing = bearing
    self.localRoot = localRoot
    self.offline = offline
  }
}
