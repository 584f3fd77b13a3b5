/// What an expression reads besides the feature: the camera's zoom, the
/// per-pixel inputs of heatmap and line-gradient ramps, feature state,
/// the style's images and global state.
package struct EvaluationContext: Sendable {
  package var zoom: Double?
  package var heatmapDensity: Double?
  package var lineProgress: Double?
  package var accumulated: StyleValue?
  package var elevation: Double?
  package var featureState: [String: StyleValue]
  /// The image names `image` expressions find available.
  package var availableImages: [String]
  /// The style's `state` as `global-state` reads it.
  package var globalState: [String: StyleValue]
  /// The tile the feature's geometry is in (`within`, `distance`).
  package var canonical: CanonicalTileID?

  package init(
    zoom: Double? = nil, heatmapDensity: Double? = nil, lineProgress: Double? = nil, accumulated: StyleValue? = nil,
    elevation: Double? = nil, featureState: [String: StyleValue] = [:], availableImages: [String] = [],
    globalState: [String: StyleValue] = [:], canonical: CanonicalTileID? = nil
  ) {
    self.zoom = zoom
    self.heatmapDensity = heatmapDensity
    self.lineProgress = lineProgress
    self.accumulated = accumulated
    self.elevation = elevation
    self.featureState = featureState
    self.availableImages = availableImages
    self.globalState = globalState
    self.canonical = canonical
  }
}

/// A tile's address: zoom, column, row (the XYZ scheme).
package struct CanonicalTileID: Sendable, Equatable {
  package var z: Int
  package var x: Int
  package var y: Int
  package init(z: Int, x: Int, y: Int) {
    self.z = z
    self.x = x
    self.y = y
  }
}

/// A run-time error of an expression: the specification's message and the
/// key path (`[2][1]`) of the sub-expression that raised it.
package struct ExpressionEvaluationError: Error, Sendable, Equatable {
  package var message: String
  package var key: String
  package init(_ message: String, key: String = "") {
    self.message = message
    self.key = key
  }
}

/// One compile error: the key path (`[2][1]`, "" for the whole expression)
/// and the specification's message.
package struct ExpressionError: Sendable, Equatable {
  package var key: String
  package var message: String
  package init(key: String, message: String) {
    self.key = key
    self.message = message
  }
}

/// Every error of one failed compile, in the order found.
package struct ExpressionErrors: Error, Sendable, Equatable {
  package var errors: [ExpressionError]
  package init(_ errors: [ExpressionError]) { self.errors = errors }
}

/// The inputs of one evaluation: the context and the feature, if any.
package struct EvaluationInput {
  package let context: EvaluationContext
  package let feature: EvaluationFeature?

  package init(_ context: EvaluationContext, _ feature: EvaluationFeature?) {
    self.context = context
    self.feature = feature
  }
}

/// A compiled expression: a node of the tree the parser builds, with its
/// static type and the key path of the JSON it came from. Subclasses
/// evaluate themselves; evaluation allocates nothing beyond the values it
/// builds.
class ExpressionNode: @unchecked Sendable {
  let type: ExpressionType
  let key: String

  init(type: ExpressionType, key: String) {
    self.type = type
    self.key = key
  }

  /// The node's value for one evaluation; every node kind overrides it.
  func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    preconditionFailure("\(Self.self) does not evaluate")
  }

  /// The sub-expressions, for the static analyses (feature or zoom dependence, zoom curves).
  var children: [ExpressionNode] { [] }

  /// An error raised by this node.
  final func fail(_ message: String) -> ExpressionEvaluationError {
    ExpressionEvaluationError(message, key: key)
  }

  /// `child`'s number; an error when it is not one.
  final func number(_ child: ExpressionNode, _ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> Double {
    let v = try child.evaluate(input)
    if case .number(let n) = v { return n }
    throw child.fail("Expected value to be of type number, but found \(v.type.name) instead.")
  }

  final func string(_ child: ExpressionNode, _ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> String {
    let v = try child.evaluate(input)
    if case .string(let s) = v { return s }
    throw child.fail("Expected value to be of type string, but found \(v.type.name) instead.")
  }

  final func bool(_ child: ExpressionNode, _ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> Bool {
    let v = try child.evaluate(input)
    if case .bool(let b) = v { return b }
    throw child.fail("Expected value to be of type boolean, but found \(v.type.name) instead.")
  }
}

/// A constant: `literal`, a bare JSON value, or a constant sub-expression folded at compile time.
final class LiteralNode: ExpressionNode, @unchecked Sendable {
  let value: StyleValue
  init(_ value: StyleValue, type: ExpressionType, key: String) {
    self.value = value
    super.init(type: type, key: key)
  }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue { value }
}
