internal import _JPEGShims

#if canImport(Glibc)
  import Glibc
#endif

/// Decodes JPEG data (baseline or progressive; grey, RGB or YCbCr) through
/// libjpeg-turbo, for JPEG tiles.
///
/// **The conversion rule.** Every image comes out as 8-bit straight RGBA
/// (``DecodedImage/pixels``) with A = 255. Images with more than
/// ``PNGDecoder/maximumPixelCount`` pixels are refused before any pixel
/// memory is allocated; CMYK images are refused; corrupt or truncated data is
/// an error (libjpeg would pad it with grey); data without the JPEG start
/// marker is ``JPEGError/notAJPEG``. Nothing ever crashes or prints.
public enum JPEGDecoder {
  /// Decodes a JPEG held in memory. See ``JPEGDecoder`` for the rule.
  public static func decode(_ bytes: [UInt8]) throws(JPEGError) -> DecodedImage {
    try decode(bytes, maximumPixels: PNGDecoder.maximumPixelCount)
  }

  /// Decodes a JPEG of at most `maximumPixels` pixels (refused from its
  /// header, before any pixel memory is allocated).
  static func decode(_ bytes: [UInt8], maximumPixels: Int) throws(JPEGError) -> DecodedImage {
    var pixels: UnsafeMutablePointer<UInt8>? = nil
    var width: UInt32 = 0
    var height: UInt32 = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = bytes.withUnsafeBytes { raw in
      message.withUnsafeMutableBufferPointer { m in
        jpeg_shim_decode_rgba8(
          raw.baseAddress, raw.count, UInt64(min(maximumPixels, PNGDecoder.maximumPixelCount)), &pixels, &width, &height,
          m.baseAddress, m.count)
      }
    }
    let text = String(nulTerminated: message)
    switch status {
    case Int32(JPEG_SHIM_OK.rawValue):
      guard let pixels else { throw .decodingFailed("no pixels") }
      defer { free(pixels) }
      let count = Int(width) * Int(height) * 4
      return DecodedImage(
        width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: pixels, count: count)),
        sourceHasAlpha: false)
    case Int32(JPEG_SHIM_NOT_A_JPEG.rawValue): throw .notAJPEG
    case Int32(JPEG_SHIM_TOO_LARGE.rawValue): throw .imageTooLarge(width: Int(width), height: Int(height))
    case Int32(JPEG_SHIM_OUT_OF_MEMORY.rawValue): throw .outOfMemory
    default: throw .decodingFailed(text)
    }
  }
}

/// Everything that can go wrong while decoding a JPEG; ``description`` says
/// it in one sentence.
public enum JPEGError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The data does not start with the JPEG start marker (FF D8 FF).
  case notAJPEG
  /// libjpeg could not decode it (corrupt, truncated, CMYK); its message.
  case decodingFailed(String)
  /// More pixels than the decoder accepts.
  case imageTooLarge(width: Int, height: Int)
  /// Memory for the pixels could not be allocated.
  case outOfMemory

  public var description: String {
    switch self {
    case .notAJPEG: return "not a JPEG (it does not start with FF D8 FF)"
    case .decodingFailed(let m): return "JPEG decoding failed: \(m)"
    case .imageTooLarge(let w, let h): return "JPEG is \(w)×\(h) pixels, more than the decoder's limit of \(PNGDecoder.maximumPixelCount)"
    case .outOfMemory: return "out of memory while decoding a JPEG"
    }
  }
}
