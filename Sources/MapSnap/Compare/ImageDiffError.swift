/// Why two images cannot be compared (`mapsnap diff` exit status 2).
public struct ImageDiffError: Error, Sendable, CustomStringConvertible {
  public enum Kind: Sendable {
    /// The file cannot be read or is not a PNG libpng can decode.
    case unreadable(PNGError)
    /// The two images have different sizes.
    case differentSizes(a: (width: Int, height: Int), b: (width: Int, height: Int))
    /// The diff image could not be encoded.
    case encodingFailed(PNGError)
    /// A diff image was asked for an image larger than `ImageDiff.maximumDiffImagePixels`.
    case diffImageTooLarge(width: Int, height: Int)
  }

  /// The file the problem is about.
  public var file: String
  public var kind: Kind

  public var description: String {
    switch kind {
    case .unreadable(let e):
      let text = "\(e)"
      return text.contains(file) ? "cannot read the image: \(text)" : "\(file): cannot read the image: \(text)"
    case .differentSizes(let a, let b):
      return "the images have different sizes (\(a.width)×\(a.height) and \(b.width)×\(b.height)); only images of one size can be compared"
    case .encodingFailed(let e):
      return "cannot encode the diff image: \(e)"
    case .diffImageTooLarge(let w, let h):
      return "\(file): a diff image of \(w)×\(h) pixels is larger than \(ImageDiff.maximumDiffImagePixels) pixels (drop -o to compare without one)"
    }
  }
}
