/// Everything that can go wrong while encoding or decoding a PNG.
///
/// Every case carries enough context to say what happened without a debugger;
/// ``description`` turns it into one sentence.
public enum PNGError: Error, CustomStringConvertible, Equatable, Sendable {
  /// Encoding was asked for an image with a side that is zero, negative, or
  /// larger than PNG's limit of 2³¹ − 1.
  case invalidDimensions(width: Int, height: Int)
  /// The pixel buffer handed to the encoder holds fewer than `width * height` pixels.
  case pixelBufferTooSmall(required: Int, actual: Int)
  /// The zlib compression level was outside `0...9`.
  case invalidCompressionLevel(Int)
  /// libpng (or zlib underneath it) failed while writing; the payload is its message.
  case encodingFailed(String)
  /// The bytes do not begin with the 8-byte PNG signature.
  case notAPNG
  /// The data starts like a PNG but libpng could not decode it (corrupt,
  /// truncated, unsupported); the payload is libpng's message.
  case decodingFailed(String)
  /// The PNG declares more pixels than the decoder accepts
  /// (``PNGDecoder/maximumPixelCount``); nothing was allocated.
  case imageTooLarge(width: Int, height: Int)
  /// Memory for the encoded file or the decoded pixels could not be allocated.
  case outOfMemory
  /// `PNGDecoder.decode(contentsOf:)` was given a path that does not exist.
  case fileNotFound(path: String)
  /// The file exists but could not be read (permissions, a directory, I/O error).
  case fileReadFailed(path: String, reason: String)

  public var description: String {
    switch self {
    case .invalidDimensions(let width, let height):
      return "cannot encode a \(width)×\(height) PNG: width and height must be in 1...2147483647"
    case .pixelBufferTooSmall(let required, let actual):
      return "pixel buffer holds \(actual) pixels but the image needs \(required)"
    case .invalidCompressionLevel(let level):
      return "PNG compression level \(level) is outside zlib's range 0...9"
    case .encodingFailed(let message):
      return "PNG encoding failed: \(message)"
    case .notAPNG:
      return "data is not a PNG (it does not start with the PNG signature)"
    case .decodingFailed(let message):
      return "PNG decoding failed: \(message)"
    case .imageTooLarge(let width, let height):
      return
        "PNG is \(width)×\(height) pixels, more than the decoder's limit of \(PNGDecoder.maximumPixelCount) pixels"
    case .outOfMemory:
      return "out of memory while encoding or decoding a PNG"
    case .fileNotFound(let path):
      return "no PNG file at '\(path)'"
    case .fileReadFailed(let path, let reason):
      return "could not read PNG file '\(path)': \(reason)"
    }
  }
}
