/// One run of rich text.
package struct StyleFormattedSection: Sendable, Equatable {
  package var text: String
  package var image: StyleResolvedImage?
  package var scale: Double?
  package var fontStack: String?
  package var textColor: StyleColor?
  package var verticalAlign: String?
}

/// Rich text: what a `format` expression builds.
package struct StyleFormatted: Sendable, Equatable {
  package var sections: [StyleFormattedSection]
}
