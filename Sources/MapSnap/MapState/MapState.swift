/// The resolved map: everything decided about a frame before placement, the
/// viewport and, per layer, its status with the causes and problems behind
/// it, and what it draws. Written by the resolver and never rewritten:
/// placement (`TextPlacement`, `ViewAnnotationPlacement`) and the display
/// list (`DrawRecord`) keep their decisions in records of their own, joined
/// in the frame record (`FramePlan`), which the report and `mapsnap explain`
/// print. A second front end produces this same record.
public struct MapState: Sendable {
  public let viewport: Viewport
  public let background: Color
  public let floor: FloorValue?
  public internal(set) var layers: [LayerState]
  /// Marker icons that loaded, by resolved path; a failed one is a layer problem.
  public internal(set) var icons: [String: RasterImage] = [:]
  /// The SHA-256 of each marker icon file looked up, by path (`missing` or
  /// the error when it could not be decoded): part of the `InputDigest`.
  public internal(set) var iconDigests: [String: String] = [:]

  init(viewport: Viewport, background: Color, floor: FloorValue?, layers: [LayerState]) {
    self.viewport = viewport
    self.background = background
    self.floor = floor
    self.layers = layers
  }

  /// One line per layer problem, for standard error, in layer order:
  /// `layer "roads": data/roads.geojson: no such file; the layer is not drawn`.
  public var warnings: [String] { Self.warnings(layers.map { ($0.id, $0.problems) }) }

  /// The warning lines of `layers`' problems, in order.
  static func warnings(_ layers: [(id: String, problems: [LayerProblem])]) -> [String] {
    var out: [String] = []
    for l in layers {
      for p in l.problems {
        out.append("layer \(Echo.quoted(l.id)): \(p.message)\(p.isError ? "; the layer is not drawn" : "")")
      }
    }
    return out
  }

  /// The icon a marker draws, when it names one that loaded.
  func icon(of m: MarkerStyle) -> RasterImage? {
    m.icon.flatMap { icons[$0] }
  }
}
