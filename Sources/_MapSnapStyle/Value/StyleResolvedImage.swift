/// An image named by an `image` expression.
package struct StyleResolvedImage: Sendable, Equatable {
  package var name: String
  /// Whether the image was among the available images when evaluated.
  package var available: Bool
}
