/// A syntax error in a JSON document, with the 1-based position of the
/// offending input.
///
/// `column` counts Unicode scalars from the start of the line (a tab, an
/// "é" or an emoji each count as one; a UTF-8 byte-order mark is not
/// counted). Lines end at "\n", "\r\n" or a lone "\r". An error at the end of
/// the input points just past the last character.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The 1-based line of the error.
  public let line: Int
  /// The 1-based column, in Unicode scalars.
  public let column: Int
  /// What was expected and what was found (quoting the input).
  public let message: String
  /// The message without any of the input quoted (`expected a value, found
  /// something else` for `… found 'SECRET'`): what messages about files read
  /// under `--root` say, which quote no content of those files.
  public let messageWithoutContent: String

  /// `withoutContent` is the message with nothing of the input quoted; nil
  /// when `message` quotes nothing.
  public init(line: Int, column: Int, message: String, withoutContent: String? = nil) {
    self.line = line
    self.column = column
    self.message = message
    messageWithoutContent = withoutContent ?? message
  }

  /// The message, or (`quotingContent` false) the one without content.
  public func message(quotingContent: Bool) -> String { quotingContent ? message : messageWithoutContent }

  /// Equal when at the same place with the same message.
  public static func == (a: JSONSyntaxError, b: JSONSyntaxError) -> Bool {
    a.line == b.line && a.column == b.column && a.message == b.message
  }

  /// "line L, column C: message".
  public var description: String { "line \(line), column \(column): \(message)" }
}
