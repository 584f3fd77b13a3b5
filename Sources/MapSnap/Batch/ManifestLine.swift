/// One frame of a batch manifest (scene format section 8): a scene, the
/// output PNG, the view overrides of the command line, and overlays.
public struct ManifestLine: Sendable {
  /// 1-based line number in the manifest file (blank lines count).
  public var number: Int
  /// The line's index for sharding: `number - 1`.
  public var index: Int { number - 1 }
  /// The scene file, resolved against the manifest's folder.
  public var scene: String
  /// The PNG to write, resolved against the manifest's folder.
  public var output: String
  /// The JSON report to write, if any.
  public var report: String?
  public var overrides: ViewOverrides
  /// Drawn above the scene's layers (`Overlay`).
  public var overlays: [Overlay]
}
