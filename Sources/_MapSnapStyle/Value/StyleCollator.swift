/// How `==`, `<`, ... compare strings under a `collator`.
package struct StyleCollator: Sendable, Equatable {
  package var caseSensitive: Bool
  package var diacriticSensitive: Bool
  /// The requested locale (a BCP 47 tag), nil for the default.
  package var locale: String?
}
