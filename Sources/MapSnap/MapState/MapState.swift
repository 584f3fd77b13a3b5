/// The resolved map: everything decided about a frame before placement, the
/// viewport and, per layer, its status with the causes and problems behind
/// it, and what it draws. Written by the resolver and never rewritten:
/// placement (`TextPlacement`, `ViewAnnotationPlacement`) and the display
/// list (`DrawRecord`) keep their decisions in records of their own, joined
/// in the frame record (`FramePlan`), which the report and `mapsnap explain`
/// print. A second front end produces this same record.
public struct MapState: Sendable {
  /// The frame resolved: viewport, floor, budget (`FramePlan.make` builds it once).
  public let frame: FrameContext
  public let background: Color
  public let layers: [LayerState]
  /// The pixel size of each marker icon that loaded, by resolved path (its
  /// pixels are in `ResolvedInputs`); a failed one is a layer problem.
  let iconSizes: [String: IconSize]

  init(frame: FrameContext, background: Color, layers: [LayerState], iconSizes: [String: IconSize]) {
    self.frame = frame
    self.background = background
    self.layers = layers
    self.iconSizes = iconSizes
  }

  public var viewport: Viewport { frame.viewport }
  /// The floor the frame shows; nil: every floor.
  public var floor: FloorValue? { frame.floor }

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

  /// The size of the icon a marker draws, when it names one that loaded.
  func icon(of m: MarkerStyle) -> IconSize? {
    m.icon.flatMap { iconSizes[$0] }
  }
}
