/// A transition between two projections (`projectionDefinition`).
package struct StyleProjectionTransition: Sendable, Equatable {
  package var from: String
  package var to: String
  /// 0 at `from`, 1 at `to`.
  package var transition: Double
}
