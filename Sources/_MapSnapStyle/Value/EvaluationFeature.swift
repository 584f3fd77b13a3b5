/// The geometry type of a feature as the specification's `geometry-type`
/// and legacy `$type` filters see it.
package enum GeometryKind: UInt8, Sendable {
  case unknown = 0
  case point = 1
  case lineString = 2
  case polygon = 3
}

/// What an expression may read of one feature: its id, its geometry type and
/// its properties.
package struct EvaluationFeature: Sendable {
  /// The feature's id (a number or a string), or nil when it has none.
  package var id: StyleValue?
  package var kind: GeometryKind
  /// True when the geometry has several parts (`MultiPoint`, ...).
  package var isMulti: Bool
  package var properties: [String: StyleValue]
  /// The geometry in tile coordinates (`EvaluationPoint.extent` units across the
  /// tile), for `within` and `distance`: points, lines, or polygon rings
  /// (outer rings and holes by winding). Empty when not loaded.
  package var geometry: [[EvaluationPoint]]

  package init(
    id: StyleValue? = nil, kind: GeometryKind = .unknown, isMulti: Bool = false, properties: [String: StyleValue] = [:],
    geometry: [[EvaluationPoint]] = []
  ) {
    self.id = id
    self.kind = kind
    self.isMulti = isMulti
    self.properties = properties
    self.geometry = geometry
  }
}

/// A point of a feature's geometry as `within` and `distance` read it: tile
/// coordinates scaled to `extent` units across the tile (a vector tile's own
/// extent, often 4096, is scaled to this one).
package struct EvaluationPoint: Sendable, Equatable {
  /// The tile's width in these units, as the specification's implementations measure it.
  package static let extent = 8192.0
  package var x: Double
  package var y: Double
  package init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}
