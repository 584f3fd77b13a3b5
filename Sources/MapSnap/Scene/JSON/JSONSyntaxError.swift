/// A syntax error in a JSON document, with the 1-based position of the
/// offending input.
///
/// `column` counts Unicode scalars from the start of the line (a tab, an
/// "é" or an emoji each count as one; a UTF-8 byte-order mark is not
/// counted). Lines end at "\n", "\r\n" or a lone "\r". An error at the end of
/// the input points just past the last character.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  public let line: Int
  public let column: Int
  public let message: String

  public init(line: Int, column: Int, message: String) {
    self.line = line
    self.column = column
    self.message = message
  }

  /// "line L, column C: message".
  public var description: String { "line \(line), column \(column): \(message)" }
}
