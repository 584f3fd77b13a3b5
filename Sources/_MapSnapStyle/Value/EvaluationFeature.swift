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

  package init(id: StyleValue? = nil, kind: GeometryKind = .unknown, isMulti: Bool = false, properties: [String: StyleValue] = [:]) {
    self.id = id
    self.kind = kind
    self.isMulti = isMulti
    self.properties = properties
  }
}
