package import _MapSnapJSON

/// One problem the validator found in a style, as data: where (the file and
/// the JSON path), how bad, what, and a "did you mean" when a close name
/// exists.
///
/// Severity rule: a style that cannot be drawn is an `error` (no
/// `"version": 8`, no `sources` object or `layers` array, a layer that is not
/// an object or has no `id` or `type`, an unknown layer type, a duplicate
/// layer id, a `ref` layer, a layer whose source is missing, unknown or of a
/// kind the layer cannot draw from); every other finding is a `warning`,
/// since MapLibre still renders such styles.
package struct StyleFinding: Sendable, Equatable, CustomStringConvertible {
  package enum Severity: String, Sendable {
    case error
    case warning
  }

  package let severity: Severity
  /// The style's file name (or URL) as the caller gave it.
  package let file: String
  /// The JSON path of the value, as `JSONPath` writes it:
  /// `layers[2].paint["fill-color"]`; empty for the root.
  package let path: String
  package let message: String
  /// A close name for a misspelt one, without quotes.
  package let hint: String?

  package init(_ issue: StyleIssue, file: String) {
    severity = issue.problem.severity
    self.file = file
    path = issue.path.description
    message = issue.problem.message
    hint = issue.problem.hint
  }

  /// `file: path: message (did you mean "hint"?)`.
  package var description: String {
    var text = Echo.escaped(file) + ": "
    if !path.isEmpty { text += path + ": " }
    text += message
    if let hint { text += " (did you mean " + Echo.quoted(hint) + "?)" }
    return text
  }
}

/// A problem at a JSON path, before it is given its file: what the
/// validator and the expression checker produce.
package struct StyleIssue: Sendable {
  package var problem: StyleProblem
  package var path: JSONPath

  package init(_ problem: StyleProblem, at path: JSONPath) {
    self.problem = problem
    self.path = path
  }
}

/// Every problem the validator reports. `message`, `severity` and `hint` are
/// the one place their text and weight are decided.
package enum StyleProblem: Sendable {
  // The style cannot be drawn.
  case styleNotAnObject(found: String)
  case versionMissing
  case versionNot8(found: JSONValue)
  case rootMemberMissing(String)
  case rootMemberType(expected: String, found: String)
  case layerNotAnObject(found: String)
  case layerIdMissing
  case layerTypeMissing
  case layerTypeUnknown(found: JSONValue)
  case layerIdDuplicate(id: JSONValue, firstIndex: Int)
  case refMemberProhibited(String)
  case refNotFound(JSONValue)
  case refToRef
  case layerSourceMissing
  case layerSourceNotFound(JSONValue, candidates: [String])
  /// A layer of `layerType` over a source that is not of `required`.
  case layerSourceKind(layerType: String, required: String)
  case demSourceMisuse(layerType: String)
  case sourceLayerMissing

  // The style draws, with this part ignored or defaulted.
  case lineGradientWithoutLineMetrics
  case redundantResampling
  case constantsDeprecated
  case unknownMember(String, candidates: [String])
  case memberMissing(String)
  case typeMismatch(expected: String, found: String)
  case notOneOf([String], found: JSONValue)
  case belowMinimum(Double, minimum: Double)
  case aboveMaximum(Double, maximum: Double)
  case arrayLength(expected: Int, found: Int)
  case arrayTooShort(minimum: Int, found: Int)
  case paddingLength(found: Int)
  case anchorOffsetCollection
  case notAColor(String)
  case glyphsTokenMissing(String)
  case interpolationSyntax(property: String, token: String)
  case identityFontFunction
  case spriteDuplicate(member: String, value: JSONValue)
  case customEncodingOnly(member: String, encoding: JSONValue?)
  case sourceTypeMissing
  case canvasSource
  case projectionInvalid(found: JSONValue)
  case functionStopsEmpty
  case functionPropertyMissing
  case identityFunctionStops
  case functionKindUnsupported(String)
  case stopKeyMissing(String)
  case stopZoomOrder
  case stopDomainOrder
  case stopDomainDuplicate
  case stopDomainTypeChange(String, previous: String)
  case stopDomainKind
  case stopDomainNotNumber(found: String, suggestCategorical: Bool)
  case stopDomainNotInteger(Double)
  case expressionInStop
  case filterEmpty
  case filterOperandCount(operator: String, expected: Int)
  case filterTypeComparison(operator: String)
  case filterOperandType(found: String)
  /// A legacy filter inside an expression filter, and the expression that
  /// replaces it when there is one.
  case mixedFilter(JSONValue, replacement: JSONValue?)
  /// A message of the expression compiler, as it gives it.
  case expression(String)

  package var severity: StyleFinding.Severity {
    switch self {
    case .styleNotAnObject, .versionMissing, .versionNot8, .rootMemberMissing, .rootMemberType, .layerNotAnObject,
      .layerIdMissing, .layerTypeMissing, .layerTypeUnknown, .layerIdDuplicate, .refMemberProhibited, .refNotFound,
      .refToRef, .layerSourceMissing, .layerSourceNotFound, .layerSourceKind, .demSourceMisuse, .sourceLayerMissing:
      return .error
    default:
      return .warning
    }
  }

  package var message: String {
    switch self {
    case .styleNotAnObject(let found): return "a style is a JSON object, \(found) found"
    case .versionMissing: return "missing required property \"version\" (a MapLibre style has \"version\": 8)"
    case .versionNot8(let found): return "version 8 expected, \(Self.echo(found)) found"
    case .rootMemberMissing(let name): return "missing required property \(Echo.quoted(name))"
    case .rootMemberType(let expected, let found): return "\(expected) expected, \(found) found"
    case .layerNotAnObject(let found): return "a layer is an object, \(found) found"
    case .layerIdMissing: return "missing required property \"id\""
    case .layerTypeMissing: return "either \"type\" or \"ref\" is required"
    case .layerTypeUnknown(let found):
      return "layer type expected (one of \(StyleReference.layerTypes.joined(separator: ", "))), \(Self.echo(found)) found"
    case .layerIdDuplicate(let id, let first): return "duplicate layer id \(Self.echo(id)), first used by layers[\(first)]"
    case .refMemberProhibited(let name): return "\(Echo.quoted(name)) is prohibited for ref layers (and ref layers are not supported)"
    case .refNotFound(let ref): return "ref layer \(Self.echo(ref)) not found"
    case .refToRef: return "ref cannot reference another ref layer"
    case .layerSourceMissing: return "missing required property \"source\""
    case .layerSourceNotFound(let name, _): return "source \(Self.echo(name)) not found"
    case .layerSourceKind(let layerType, let required): return "a \(layerType) layer requires a \(required) source"
    case .demSourceMisuse(let layerType):
      return "a raster-dem source can only be used by hillshade and color-relief layers, not \(layerType)"
    case .sourceLayerMissing: return "a layer over a vector source must give a \"source-layer\""
    case .lineGradientWithoutLineMetrics:
      return "line-gradient requires a GeoJSON source with \"lineMetrics\": true; the gradient is ignored"
    case .redundantResampling:
      return "both \"resampling\" and \"raster-resampling\" are given, only one is allowed (\"resampling\" is advised)"
    case .constantsDeprecated: return "constants have been deprecated as of v8"
    case .unknownMember(let name, _): return "unknown property \(Echo.quoted(name))"
    case .memberMissing(let name): return "missing required property \(Echo.quoted(name))"
    case .typeMismatch(let expected, let found): return "\(expected) expected, \(found) found"
    case .notOneOf(let values, let found):
      return "expected one of [\(Echo.list(values))], \(Self.echo(found)) found"
    case .belowMinimum(let x, let minimum):
      return "\(JSONWriter.numberText(x)) is less than the minimum value \(JSONWriter.numberText(minimum))"
    case .aboveMaximum(let x, let maximum):
      return "\(JSONWriter.numberText(x)) is greater than the maximum value \(JSONWriter.numberText(maximum))"
    case .arrayLength(let expected, let found): return "array length \(expected) expected, length \(found) found"
    case .arrayTooShort(let minimum, let found): return "array length at least \(minimum) expected, length \(found) found"
    case .paddingLength(let found): return "padding requires 1 to 4 values; \(found) values found"
    case .anchorOffsetCollection:
      return "variableAnchorOffsetCollection requires a non-empty array of even length (anchor, offset pairs)"
    case .notAColor(let text): return "color expected, \(Echo.quoted(text)) found"
    case .glyphsTokenMissing(let token): return "\"glyphs\" url must include a \(Echo.quoted(token)) token"
    case .interpolationSyntax(let property, let token):
      return "\(Echo.quoted(property)) does not support {token} syntax; use an identity function: "
        + "{\"type\": \"identity\", \"property\": \(Echo.quoted(token))}"
    case .identityFontFunction: return "\"text-font\" does not support identity functions"
    case .spriteDuplicate(let member, let value):
      return "all the sprites' \(member)s must be unique, but \(Self.echo(value)) is duplicated"
    case .customEncodingOnly(let member, let encoding):
      let given = encoding.map { "\(Self.echo($0)) encoding found" } ?? "the default encoding applies"
      return "\(Echo.quoted(member)) is only valid when \"encoding\" is \"custom\"; \(given)"
    case .sourceTypeMissing: return "\"type\" is required"
    case .canvasSource: return "canvas sources cannot be given in a style (they are added at run time)"
    case .projectionInvalid(let found): return "projection expected, \(Self.echo(found)) found"
    case .functionStopsEmpty: return "array must have at least one stop"
    case .functionPropertyMissing: return "\"property\" property is required"
    case .identityFunctionStops: return "identity function may not have a \"stops\" property"
    case .functionKindUnsupported(let kind): return "\(kind) functions not supported"
    case .stopKeyMissing(let key): return "object stop key must have \(key)"
    case .stopZoomOrder: return "stop zoom values must appear in ascending order"
    case .stopDomainOrder: return "stop domain values must appear in ascending order"
    case .stopDomainDuplicate: return "stop domain values must be unique"
    case .stopDomainTypeChange(let type, let previous):
      return "\(type) stop domain type must match previous stop domain type \(previous)"
    case .stopDomainKind: return "stop domain value must be a number, string, or boolean"
    case .stopDomainNotNumber(let found, let suggest):
      return "number expected, \(found) found" + (suggest ? " (for a categorical function give \"type\": \"categorical\")" : "")
    case .stopDomainNotInteger(let x): return "integer expected, found \(JSONWriter.numberText(x))"
    case .expressionInStop: return "expressions are not allowed in function stops."
    case .filterEmpty: return "filter array must have at least 1 element"
    case .filterOperandCount(let op, let expected):
      return "filter array for operator \(Echo.quoted(op)) must have \(expected) elements"
    case .filterTypeComparison(let op): return "\"$type\" cannot be used with operator \(Echo.quoted(op))"
    case .filterOperandType(let found): return "string, number, or boolean expected, \(found) found"
    case .mixedFilter(let legacy, let replacement):
      let advice = replacement.map { "replace \(Self.echo(legacy)) with \(Self.echo($0))" }
        ?? "convert \(Self.echo(legacy)) to expression syntax"
      return "legacy filter syntax mixed into an expression filter is not supported: \(advice)"
    case .expression(let text): return Echo.escaped(text, limit: Self.expressionMessageLimit)
    }
  }

  /// The closest valid name for a misspelt one, when one is close enough
  /// (`closestMatch`), or the advice a message carries.
  package var hint: String? {
    switch self {
    case .unknownMember(let name, let candidates): return closestMatch(to: name, in: candidates)
    case .layerTypeUnknown(.string(let found)): return closestMatch(to: found, in: StyleReference.layerTypes)
    case .layerSourceNotFound(.string(let name), let candidates): return closestMatch(to: name, in: candidates)
    case .notOneOf(let values, .string(let found)): return closestMatch(to: found, in: values)
    default: return nil
    }
  }

  /// Characters of an expression compiler's message shown at most.
  static let expressionMessageLimit = 400

  /// Characters of a JSON value (other than a string) shown in a message.
  static let valueEchoLimit = 80

  /// A value of the input as a message shows it: a string quoted and cut as
  /// `Echo` writes input, anything else as compact JSON, cut.
  static func echo(_ value: JSONValue) -> String {
    if case .string(let s) = value { return Echo.quoted(s) }
    return Echo.escaped(JSONWriter(compact: true).write(value), limit: valueEchoLimit)
  }
}
