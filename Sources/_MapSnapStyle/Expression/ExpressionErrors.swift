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
