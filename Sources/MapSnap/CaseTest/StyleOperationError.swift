/// Why a style case's operation cannot be applied to its style: the case
/// fails with this message (GL JS reports these as map errors and leaves
/// the style as it was, which no expected image relies on).
public struct StyleOperationError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// The operation is not an array starting with a name.
    case notAnOperation
    /// An argument of the wrong form: what was expected and what was found.
    case invalidArgument(position: Int, expected: String, found: String)
    /// The style has no `layers` array of objects with an `id`.
    case noLayers
    case missingLayer(String)
    case duplicateLayer(String)
    case missingSource(String)
    case duplicateSource(String)
    /// A source removed while a layer draws from it.
    case sourceInUse(source: String, layer: String)
  }

  /// The operation's 0-based place in `metadata.test.operations`.
  public var index: Int
  /// The operation's name (empty when it has none).
  public var operation: String
  public var kind: Kind

  public init(index: Int, operation: String, kind: Kind) {
    self.index = index
    self.operation = operation
    self.kind = kind
  }

  /// `operations[2] (setPaintProperty): no layer "roads" in the style`.
  public var description: String {
    let name = operation.isEmpty ? "" : " (\(operation))"
    let what: String
    switch kind {
    case .notAnOperation: what = "not an operation (expected an array starting with the operation's name)"
    case .invalidArgument(let position, let expected, let found): what = "argument \(position): expected \(expected), found \(found)"
    case .noLayers: what = "the style has no \"layers\" array of layers with an \"id\""
    case .missingLayer(let id): what = "no layer \(Echo.quoted(id)) in the style"
    case .duplicateLayer(let id): what = "the style already has a layer \(Echo.quoted(id))"
    case .missingSource(let id): what = "no source \(Echo.quoted(id)) in the style"
    case .duplicateSource(let id): what = "the style already has a source \(Echo.quoted(id))"
    case .sourceInUse(let source, let layer): what = "source \(Echo.quoted(source)) cannot be removed while layer \(Echo.quoted(layer)) uses it"
    }
    return "metadata.test.operations[\(index)]\(name): \(what)"
  }
}
