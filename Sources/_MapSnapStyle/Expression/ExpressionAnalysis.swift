/// The static properties of a compiled expression.
enum ExpressionAnalysis {
  /// Whether the expression reads nothing of the feature.
  static func isFeatureConstant(_ e: ExpressionNode) -> Bool {
    if let c = e as? CompoundNode {
      switch c.op {
      case .get, .has: return false
      case .featureState, .properties, .geometryType, .id, .filterTypeEquals: return false
      default: break
      }
    }
    if e is GeometryNode { return false }
    return e.children.allSatisfy(isFeatureConstant)
  }

  /// Whether every value the expression can give is written in it as a
  /// literal (the rule `text-font` expressions follow, so that the fonts a
  /// layer needs are known before any feature is read): literals, and
  /// type annotations, `case`, `match`, `step`, `interpolate`, `coalesce`,
  /// `let` and `var` whose outputs all are.
  static func isOutputDefined(_ e: ExpressionNode) -> Bool {
    switch e {
    case is LiteralNode: return true
    case let a as AssertionNode: return a.args.allSatisfy(isOutputDefined)
    case let c as CoercionNode: return c.args.allSatisfy(isOutputDefined)
    case let c as CaseNode: return c.branches.allSatisfy { isOutputDefined($0.1) } && isOutputDefined(c.otherwise)
    case let m as MatchNode: return m.outputs.allSatisfy(isOutputDefined) && isOutputDefined(m.otherwise)
    case let s as StepNode: return s.outputs.allSatisfy(isOutputDefined)
    case let i as InterpolateNode: return i.outputs.allSatisfy(isOutputDefined)
    case let c as CoalesceNode: return c.args.allSatisfy(isOutputDefined)
    case let l as LetNode: return isOutputDefined(l.result)
    case let v as VarNode: return isOutputDefined(v.bound)
    default: return false
    }
  }

  /// Whether the expression reads `feature-state`.
  static func isStateConstant(_ e: ExpressionNode) -> Bool {
    if let c = e as? CompoundNode, c.op == .featureState { return false }
    return e.children.allSatisfy(isStateConstant)
  }

  /// Whether the expression reads none of the given evaluation-wide inputs.
  static func isGlobalPropertyConstant(_ e: ExpressionNode, _ ops: Set<CompoundOp>) -> Bool {
    if let c = e as? CompoundNode, ops.contains(c.op) { return false }
    return e.children.allSatisfy { isGlobalPropertyConstant($0, ops) }
  }

  static let evaluationInputs: Set<CompoundOp> = [.zoom, .heatmapDensity, .elevation, .lineProgress, .accumulated, .isSupportedScript]

  /// Whether the expression can be evaluated once, at compile time.
  static func isConstant(_ e: ExpressionNode) -> Bool {
    if let v = e as? VarNode { return isConstant(v.bound) }
    if let c = e as? CompoundNode, c.op == .error { return false }
    if e is CollatorNode || e is GeometryNode || e is GlobalStateNode { return false }
    let isAnnotation = e is CoercionNode || e is AssertionNode
    for child in e.children {
      if isAnnotation ? !isConstant(child) : !(child is LiteralNode) { return false }
    }
    return isFeatureConstant(e) && isGlobalPropertyConstant(e, evaluationInputs)
  }

  enum ZoomCurve {
    case none
    case curve(ExpressionNode)
    case error(String)
  }

  /// The `step` or `interpolate` whose input is `zoom`: at the top, or
  /// inside `let` and `coalesce`; an error when zoom appears elsewhere.
  static func findZoomCurve(_ e: ExpressionNode) -> ZoomCurve {
    var result = ZoomCurve.none
    if let l = e as? LetNode {
      result = findZoomCurve(l.result)
    } else if let c = e as? CoalesceNode {
      for arg in c.args {
        result = findZoomCurve(arg)
        if case .none = result { continue }
        break
      }
    } else if let s = e as? StepNode, let input = s.input as? CompoundNode, input.op == .zoom {
      result = .curve(e)
    } else if let i = e as? InterpolateNode, let input = i.input as? CompoundNode, input.op == .zoom {
      result = .curve(e)
    }
    if case .error = result { return result }
    for child in e.children {
      let childResult = findZoomCurve(child)
      switch (childResult, result) {
      case (.error, _): result = childResult
      case (.curve, .none):
        result = .error("\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression.")
      case (.curve(let a), .curve(let b)) where a !== b:
        result = .error("Only one zoom-based \"step\" or \"interpolate\" subexpression may be used in an expression.")
      default: break
      }
    }
    return result
  }
}
