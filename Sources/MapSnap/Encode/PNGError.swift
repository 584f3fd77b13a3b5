internal import _PNGShims

/// Everything that can go wrong while encoding or decoding a PNG.
///
/// One type for both directions: the encoder and the decoder go through the
/// same libpng shims (`_PNGShims`), whose failures reach Swift through
/// ``withShimErrorMessage(_:)`` below. Every case carries enough context to
/// say what happened without a debugger; ``description`` turns it into one
/// line shaped like every mapsnap error: where, then what was expected or
/// what happened (`PNG decoder: expected at most 268435456 pixels, found 70000×70000`).
public enum PNGError: Error, CustomStringConvertible, Equatable, Sendable {
  /// Encoding was asked for an image with a side that is zero, negative, or
  /// larger than PNG's limit of 2³¹ − 1.
  case invalidDimensions(width: Int, height: Int)
  /// The pixel buffer handed to the encoder holds fewer than `width * height`
  /// pixels, or the one handed to ``PNGRowReader/read(rows:into:)`` fewer
  /// than `count * width` (4 bytes each).
  case pixelBufferTooSmall(required: Int, actual: Int)
  /// The compression level was outside the deflater's levels
  /// (``PNGDeflater/levels``: zlib `0...9`, igzip `0...3`).
  case invalidCompressionLevel(Int)
  /// A palette (``PaletteOptions/colors``) was asked for with a size
  /// outside ``PaletteOptions/allowedColors`` (`2...256`).
  case invalidPaletteColors(Int)
  /// libpng (or zlib underneath it) failed while writing; the payload is its message.
  case encodingFailed(String)
  /// The bytes do not begin with the 8-byte PNG signature.
  case notAPNG
  /// The data starts like a PNG but libpng could not decode it (corrupt,
  /// truncated, unsupported); the payload is libpng's message.
  case decodingFailed(String)
  /// The PNG declares more pixels than the decoder accepts
  /// (``PNGDecoder/maximumPixelCount``); nothing was allocated.
  case imageTooLarge(width: Int, height: Int, limit: Int)
  /// A palette PNG was asked for a frame larger than
  /// ``PaletteOptions/maximumPixels``; nothing was drawn.
  case paletteFrameTooLarge(width: Int, height: Int, limit: Int)
  /// Memory for the encoded file or the decoded pixels could not be allocated.
  case outOfMemory
  /// ``PNGRowReader/read(rows:into:)`` was asked for more rows than are left
  /// in the image (`remaining`); nothing was read.
  case rowsExhausted(requested: Int, remaining: Int)
  /// `PNGDecoder.decode(contentsOf:)` or ``PNGRowReader`` was given a path
  /// that does not exist.
  case fileNotFound(path: String)
  /// The file exists but could not be read (permissions, a directory, a FIFO
  /// or device, I/O error); `reason` is the system's.
  case fileReadFailed(path: String, reason: String)

  public var description: String {
    let (place, what): (String, String)
    switch self {
    case .invalidDimensions(let width, let height):
      (place, what) = ("PNG encoder", "expected a width and height in 1...2147483647, found \(width)×\(height)")
    case .pixelBufferTooSmall(let required, let actual):
      (place, what) = ("PNG", "expected a pixel buffer of \(required) pixels (width × rows), found \(actual)")
    case .invalidCompressionLevel(let level):
      (place, what) = ("PNG encoder", "expected a compression level in zlib's range 0...9 (igzip's: 0...3), found \(level)")
    case .invalidPaletteColors(let colors):
      (place, what) = ("PNG encoder", "expected a palette of 2...256 colours, found \(colors)")
    case .encodingFailed(let message):
      (place, what) = ("PNG encoder", "libpng failed: \(message)")
    case .notAPNG:
      (place, what) = ("PNG decoder", "not a PNG: expected the 8-byte PNG signature at the start")
    case .decodingFailed(let message):
      (place, what) = ("PNG decoder", "libpng failed: \(message)")
    case .imageTooLarge(let width, let height, let limit):
      (place, what) = ("PNG decoder", "expected at most \(limit) pixels (width × height), found \(width)×\(height)")
    case .paletteFrameTooLarge(let width, let height, let limit):
      (place, what) = ("PNG encoder", "expected a frame of at most \(limit) pixels for a palette (it is quantised whole), found \(width)×\(height); write true colour for larger frames")
    case .rowsExhausted(let requested, let remaining):
      (place, what) = ("PNG row reader", "expected a request of at most \(remaining) rows (the rest of the image), found \(requested)")
    case .outOfMemory:
      (place, what) = ("PNG", "out of memory")
    case .fileNotFound(let path):
      (place, what) = (path, "no such file")
    case .fileReadFailed(let path, let reason):
      (place, what) = (path, "cannot read: \(reason)")
    }
    return "\(place): \(what)"
  }
}

/// Runs a shim call with a 256-byte error buffer; returns its status and the
/// message the shim left there (the payload of ``PNGError/encodingFailed(_:)``
/// and ``PNGError/decodingFailed(_:)``).
func withShimErrorMessage(
  _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32
) -> (PNGShimStatus, String) {
  withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
    let base = buffer.baseAddress!
    base.initialize(to: 0)
    let status = body(base, buffer.count)
    let message = String(cString: base)
    return (PNGShimStatus(rawValue: UInt32(bitPattern: status)), message)
  }
}

/// The file an encoding shim wrote into `output` (freed here), or the
/// ``PNGError`` its `status` names, with `message` for a libpng failure.
func encodedFile(_ status: PNGShimStatus, _ output: PNGShimBuffer, message: String) throws(PNGError) -> [UInt8] {
  switch status {
  case PNG_SHIM_OK:
    defer { png_shim_free(output.data) }
    guard let data = output.data else { throw .encodingFailed("libpng produced no output") }
    return [UInt8](UnsafeBufferPointer(start: data, count: output.size))
  case PNG_SHIM_OUT_OF_MEMORY:
    throw .outOfMemory
  default:
    throw .encodingFailed(message)
  }
}
