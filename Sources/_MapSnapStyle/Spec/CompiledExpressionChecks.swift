package import _MapSnapJSON

/// The validator's expression checks through the expression compiler
/// (`StyleExpression`): compile errors at their element's path, and the
/// rules of where an expression is used (no `feature-state` in layout
/// properties or filters; no `zoom` or `feature-state` in cluster
/// properties; `text-font`'s outputs written as literals). Colours are what `StyleColor(css:)` reads.
package struct CompiledExpressionChecks: ExpressionChecking {
  package init() {}

  package func isExpression(_ json: JSONValue) -> Bool {
    guard case .array(let items) = json, case .string(let op)? = items.first else { return false }
    return ExpressionRegistry.isOperator(op)
  }

  package func check(_ json: JSONValue, spec: PropertySpec, context: ExpressionContext, path: JSONPath) -> [StyleIssue] {
    let compiled: Result<StyleExpression, ExpressionErrors>
    switch context {
    case .filter: compiled = StyleFilter.compile(json)
    case .clusterMap, .clusterReduce: compiled = StyleExpression.compile(json, spec: nil)
    default: compiled = StyleExpression.compile(json, spec: spec)
    }
    switch compiled {
    case .failure(let errors):
      return errors.errors.map { StyleIssue(.expression($0.message), at: path.appending(expressionKey: $0.key)) }
    case .success(let e):
      switch context {
      case .property(_, let isLayout) where isLayout && e.isStateDependent:
        return [StyleIssue(.expression("\"feature-state\" data expressions are not supported with layout properties."), at: path)]
      case .property(let name, _) where name == "text-font" && !ExpressionAnalysis.isOutputDefined(e.root):
        return [StyleIssue(.expression("Invalid data expression for \"text-font\". Output values must be contained as literals within the expression."), at: path)]
      case .filter where e.isStateDependent:
        return [StyleIssue(.expression("\"feature-state\" data expressions are not supported with filters."), at: path)]
      case .clusterMap, .clusterReduce:
        if !e.isZoomConstant || e.isStateDependent {
          return [StyleIssue(.expression("\"zoom\" and \"feature-state\" expressions are not supported with cluster properties."), at: path)]
        }
        return []
      default:
        return []
      }
    }
  }

  package func isColor(_ text: String) -> Bool { StyleColor(css: text) != nil }
}
