/// A layer's view status as a set of flags, as ArcGIS reports it. `active`
/// excludes `notVisible` and `outOfScale`, which can hold together.
public struct LayerStatus: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Drawn at this scale and floor.
  public static let active = LayerStatus(rawValue: 1)
  /// `visible` is false.
  public static let notVisible = LayerStatus(rawValue: 2)
  /// The scale is outside the layer's scale range.
  public static let outOfScale = LayerStatus(rawValue: 4)
  /// Could not be drawn: its source is missing or invalid.
  public static let error = LayerStatus(rawValue: 8)
  /// Drawn, with problems (such as skipped invalid features).
  public static let warning = LayerStatus(rawValue: 16)

  /// The flags' names in report order.
  public var names: [String] {
    var out: [String] = []
    if contains(.active) { out.append("active") }
    if contains(.notVisible) { out.append("notVisible") }
    if contains(.outOfScale) { out.append("outOfScale") }
    if contains(.error) { out.append("error") }
    if contains(.warning) { out.append("warning") }
    return out
  }
}
