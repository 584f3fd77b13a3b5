internal import _PNGShims

/// Decodes PNG files of any colour type, bit depth and interlacing through libpng.
///
/// **The conversion rule.** Every image comes out as 8-bit straight RGBA
/// (``DecodedImage/pixels``): palettes are expanded, gray becomes R = G = B,
/// low bit depths are scaled up to 8 bits, 16-bit samples are scaled down with
/// rounding (`round(v * 255 / 65535)`), a tRNS chunk becomes alpha, and images
/// without transparency get A = 255. Sample values are not gamma-corrected.
/// Images with more than ``maximumPixelCount`` pixels are refused with
/// ``PNGError/imageTooLarge(width:height:limit:)`` before any pixel memory is
/// allocated. Corrupt or truncated data (including data that ends before
/// IEND) throws ``PNGError/decodingFailed(_:)``; data without the PNG
/// signature throws ``PNGError/notAPNG``. Nothing ever crashes or prints.
///
/// To read a large file without holding its pixels, ``PNGRowReader`` returns
/// the same bytes a few rows at a time.
public enum PNGDecoder {
  /// The largest image, in pixels (`width * height`), the decoder will
  /// allocate for: 2²⁸ (268,435,456 pixels, 1 GiB of RGBA).
  public static let maximumPixelCount = 1 << 28

  /// Decodes a PNG held in memory. See ``PNGDecoder`` for the conversion rule.
  ///
  /// - Throws: ``PNGError/notAPNG``, ``PNGError/decodingFailed(_:)``,
  ///   ``PNGError/imageTooLarge(width:height:limit:)`` or ``PNGError/outOfMemory``.
  public static func decode(_ bytes: [UInt8]) throws(PNGError) -> DecodedImage {
    try decode(bytes, maximumPixels: maximumPixelCount)
  }

  /// Decodes a PNG of at most `maximumPixels` pixels (refused from its header,
  /// before any pixel memory is allocated): how tiles of a known size are read.
  static func decode(_ bytes: [UInt8], maximumPixels: Int) throws(PNGError) -> DecodedImage {
    let limit = UInt64(min(maximumPixels, maximumPixelCount))
    let result = bytes.withUnsafeBytes { decode(raw: $0, limit: limit) }
    return try result.get()
  }

  /// Reads and decodes the PNG file at `path`. See ``PNGDecoder`` for the
  /// conversion rule.
  ///
  /// - Throws: ``PNGError/fileNotFound(path:)`` if nothing exists at `path`,
  ///   ``PNGError/fileReadFailed(path:reason:)`` if it cannot be read, and
  ///   otherwise the errors of ``decode(_:)``.
  /// The header is read first (`PNGHeader`): a file that is not a PNG, or
  /// whose declared image is over the limit, is refused before the rest is
  /// read, and no more bytes are read than such an image can take.
  public static func decode(contentsOf path: String) throws(PNGError) -> DecodedImage {
    let header = try PNGHeader.read(path)
    guard header.pixelCount <= maximumPixelCount else {
      throw .imageTooLarge(width: header.width, height: header.height, limit: maximumPixelCount)
    }
    return try decode(try read(path, maximumBytes: header.maximumFileBytes))
  }

  /// The bytes of the file at `path`, with the errors `decode(contentsOf:)` gives.
  static func read(_ path: String, maximumBytes: Int = Int.max) throws(PNGError) -> [UInt8] {
    do {
      return try FileIO.read(path, maximumBytes: maximumBytes)
    } catch {
      switch error {
      case .notFound: throw .fileNotFound(path: path)
      case .isDirectory, .failed: throw .fileReadFailed(path: path, reason: error.reason)
      }
    }
  }

  // MARK: - Implementation

  private static func decode(raw: UnsafeRawBufferPointer, limit: UInt64) -> Result<DecodedImage, PNGError> {
    var info = PNGShimImageInfo()
    let (headerStatus, headerMessage) = withShimErrorMessage { buffer, capacity in
      png_shim_read_info(raw.baseAddress, raw.count, limit, &info, buffer, capacity)
    }
    if let error = error(for: headerStatus, message: headerMessage, info: info, limit: limit) {
      return .failure(error)
    }

    let width = Int(info.width)
    let height = Int(info.height)
    let byteCount = width * height * 4  // at most 2^30: checked by the shim
    var status = PNG_SHIM_OK
    var message = ""
    let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
      (status, message) = withShimErrorMessage { errorBuffer, capacity in
        png_shim_decode_rgba8(
          raw.baseAddress, raw.count, limit, buffer.baseAddress, buffer.count, nil, &info,
          errorBuffer, capacity)
      }
      initialized = status == PNG_SHIM_OK ? byteCount : 0
    }
    if let error = error(for: status, message: message, info: info, limit: limit) {
      return .failure(error)
    }
    let hasAlpha = info.color_type & 4 != 0 || info.has_trns != 0
    return .success(
      DecodedImage(width: width, height: height, pixels: pixels, sourceHasAlpha: hasAlpha))
  }

  private static func error(
    for status: PNGShimStatus, message: String, info: PNGShimImageInfo, limit: UInt64
  ) -> PNGError? {
    switch status {
    case PNG_SHIM_OK: nil
    case PNG_SHIM_NOT_A_PNG: .notAPNG
    case PNG_SHIM_TOO_LARGE: .imageTooLarge(width: Int(info.width), height: Int(info.height), limit: Int(limit))
    case PNG_SHIM_OUT_OF_MEMORY: .outOfMemory
    default: .decodingFailed(message.isEmpty ? "unknown libpng error" : message)
    }
  }
}
