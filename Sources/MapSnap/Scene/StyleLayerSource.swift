import Synchronization
internal import _MapSnapStyle

/// A `style` layer's style: a MapLibre style document drawn as one layer of
/// the scene, under the layers above it (section 11 of the scene format).
public struct StyleLayerSource: Sendable, Hashable {
  /// The path or URL as the scene gives it, for messages.
  public var path: String
  /// The path resolved against the scene's folder (URLs unchanged).
  public var resolved: String
  /// The style's bearing (degrees clockwise), when the style itself is the
  /// input: a scene's map has no bearing, so a style layer of a scene is drawn north up.
  public var bearing: Double = 0
  /// The document itself, when the style is the input (already read).
  var document: JSONValue?
  /// The validator's warnings, when the style was validated as it was read.
  var findings: [StyleFinding]?
  /// The folder `local://` URLs name (the render-test suite's root, set by
  /// `mapsnap test` for its style cases); nil refuses them.
  public var localRoot: String?
  /// Refuse every http(s) URL (`--offline`).
  public var offline = false
  /// The parsed document and the validator's warnings once a frame has
  /// read them: the frames of a batch read the style once. Shared by the
  /// copies of this value; a style that cannot be read is read again. With
  /// them, the vector tiles and the sprites the style's frames read
  /// (`StyleTileCache`, `StyleSpriteCache`, `StyleGlyphCache`).
  let kept = KeptStyle()

  final class KeptStyle: Sendable {
    let value = Mutex<(document: StyleDocument, findings: [StyleFinding])?>(nil)
    let tiles = StyleTileCache()
    let sprites = StyleSpriteCache()
    let glyphs = StyleGlyphCache()
  }

  public init(path: String, resolved: String) {
    self.path = path
    self.resolved = resolved
  }

  public static func == (a: StyleLayerSource, b: StyleLayerSource) -> Bool {
    a.path == b.path && a.resolved == b.resolved && a.bearing == b.bearing
  }

  public func hash(into h: inout Hasher) {
    h.combine(resolved)
  }

  /// A path relative to `base`; URLs (`scheme://`) as they are.
  static func resolve(_ path: String, against base: String) -> String {
    path.contains("://") ? path : FileIO.resolve(path, against: base)
  }
}
