import MapSnap
import _MapSnapRaster

/// One image of a golden case (`Golden/<case>/`), as `CaseLoader` reads it
/// for `mapsnap test` (`GoldenHarness`): the scene and the view of the
/// image, for tests that render a golden's frame themselves and look into
/// it.
public struct GoldenCase: Sendable, CustomStringConvertible {
  /// The image as `mapsnap test` runs it.
  public let image: ImageCase

  public init(_ image: ImageCase) { self.image = image }

  /// The case folder's name.
  public var name: String { image.caseName }
  /// The scale the image is drawn at (nil when the case's image is a variant that gives none).
  public var scale: Double? { image.line.overrides.scale }
  /// The pixel ratio the image is drawn at, or nil for the scene's own.
  public var pixelRatio: Double? { image.line.overrides.pixelRatio }
  /// The floor shown (as `--floor` gives it), or nil for the scene's own.
  public var floor: String? { image.line.overrides.floor?.text }
  /// The palette size the frame is written with (PNG8); nil writes true colour.
  public var palette: Int? { image.palette?.colors }
  /// The PNG encoding the golden is written and checked with.
  public var encoding: PNGEncodingOptions { PNGEncodingOptions(palette: image.palette) }
  public var scenePath: String { image.line.scene }
  public var expectedPath: String { image.expectedImage }
  public var description: String { image.id + ".png" }

  /// Every image of every golden case (`GoldenHarness.images`).
  public static func all() -> [GoldenCase] { GoldenHarness.images.map(GoldenCase.init) }

  /// Renders the image's frame with the library.
  public func render(options: RenderOptions = RenderOptions()) throws -> Snapshot {
    let scene = try SceneLoader.load(path: scenePath)
    return try Snapshot.render(scene, overrides: image.line.overrides, options: options)
  }
}
