internal import _PNGShims

/// Reads a PNG file top to bottom, a few rows at a time, in bounded memory:
/// how two images of mapsnap's largest size (2²⁸ pixels, 1 GiB as RGBA) are
/// compared without holding either.
///
/// **The conversion rule** is ``PNGDecoder``'s, byte for byte (both go
/// through the same libpng set-up): every row comes out as 8-bit straight
/// RGBA, `width * 4` bytes, the layout of ``DecodedImage/pixels``.
///
/// **Memory.** A non-interlaced image costs libpng's own row buffers (the
/// current and the previous row, at most 8 bytes a pixel each: 16 bytes per
/// pixel of width in all), zlib's 32 KiB window and a file buffer, plus the
/// caller's buffer: it grows with the width, never with the height (a
/// 4096 × 4096 RGBA file streams in under 1 MiB). An Adam7-interlaced image
/// (``isInterlaced``) cannot be streamed (its last pass touches every row),
/// so it is decoded whole when the reader is created, into one buffer of
/// `width * height * 4` bytes held until the reader is released, and rows
/// are copied from there. Both are bounded by `maximumPixels`: every image
/// with more pixels is refused from its header, before any pixel memory is
/// allocated (so the widest row is `maximumPixels` pixels wide).
///
/// **Files.** Only regular files are read: the file is opened non-blocking
/// and checked before any read, so a folder, a FIFO, a device or a socket is
/// refused with ``PNGError/fileReadFailed(path:reason:)`` and never blocks.
/// The file stays open until the last row is read, a read fails, or the
/// reader is released; an interlaced file is closed at once.
///
/// **Errors.** Corrupt or truncated data throws
/// ``PNGError/decodingFailed(_:)`` from the read that reaches it (for an
/// interlaced image, from `init`); the rows before it were decoded
/// (``rowsRead`` counts them) and every later read throws the same error. The read that returns the last row also reads the
/// rest of the file up to IEND, as ``PNGDecoder`` does, and throws if that
/// is missing or corrupt, although its rows are in the buffer. Nothing ever
/// crashes or prints.
///
/// A reader is not thread-safe; use it from one task at a time.
package final class PNGRowReader {
  /// The file being read.
  public let path: String
  /// Width in pixels; every row is `width * 4` bytes.
  public let width: Int
  /// Height in pixels: the number of rows to read.
  public let height: Int
  /// Whether the file is Adam7-interlaced, and so was decoded whole when the
  /// reader was created (`width * height * 4` bytes held until release).
  public let isInterlaced: Bool
  /// Whether the file itself carried transparency (colour type 4 or 6, or a
  /// tRNS chunk), as ``DecodedImage/sourceHasAlpha``.
  public let sourceHasAlpha: Bool
  /// Rows decoded so far, complete rows only; after a failed read, the rows
  /// decoded before the failure.
  public private(set) var rowsRead = 0

  /// The shim's reader; closed in `deinit`.
  private let reader: OpaquePointer

  /// Opens the PNG file at `path` and reads its header (an interlaced file:
  /// the whole image).
  ///
  /// - Parameter maximumPixels: the largest `width * height` accepted (at
  ///   least 1); larger images are refused from their header.
  /// - Throws: ``PNGError/fileNotFound(path:)``,
  ///   ``PNGError/fileReadFailed(path:reason:)`` (not a regular file, no
  ///   permission, I/O error), ``PNGError/notAPNG``,
  ///   ``PNGError/imageTooLarge(width:height:limit:)``,
  ///   ``PNGError/decodingFailed(_:)`` or ``PNGError/outOfMemory``.
  public init(path: String, maximumPixels: Int = PNGDecoder.maximumPixelCount) throws(PNGError) {
    precondition(maximumPixels >= 1, "PNGRowReader: maximumPixels must be at least 1")
    var info = PNGShimImageInfo()
    var opened: OpaquePointer?
    let (status, message) = withShimErrorMessage { buffer, capacity in
      png_shim_reader_open_file(path, UInt64(maximumPixels), &opened, &info, buffer, capacity)
    }
    if let error = Self.error(for: status, message: message, info: info, path: path, limit: maximumPixels) {
      throw error
    }
    guard let opened else { throw .decodingFailed("the PNG reader was not created") }
    self.reader = opened
    self.path = path
    self.width = Int(info.width)
    self.height = Int(info.height)
    self.isInterlaced = info.interlaced != 0
    self.sourceHasAlpha = info.color_type & 4 != 0 || info.has_trns != 0
  }

  deinit {
    png_shim_reader_close(reader)
  }

  /// Rows not read yet.
  public var remainingRows: Int { height - rowsRead }

  /// Decodes the next `count` rows into `buffer`: `count * width * 4` bytes
  /// (more are left untouched), rows packed top to bottom, 8-bit straight
  /// RGBA. `count` 0 does nothing.
  ///
  /// - Throws: ``PNGError/rowsExhausted(requested:remaining:)`` when `count`
  ///   is more than ``remainingRows`` and
  ///   ``PNGError/pixelBufferTooSmall(required:actual:)`` when `buffer` is
  ///   short (both before reading anything); ``PNGError/decodingFailed(_:)``
  ///   for corrupt or truncated data (see ``PNGRowReader``).
  public func read(rows count: Int, into buffer: UnsafeMutableRawBufferPointer) throws(PNGError) {
    precondition(count >= 0, "PNGRowReader: a negative row count")
    guard count <= remainingRows else {
      throw .rowsExhausted(requested: count, remaining: remainingRows)
    }
    guard buffer.count / 4 >= count * width else {
      throw .pixelBufferTooSmall(required: count * width, actual: buffer.count / 4)
    }
    if count == 0 { return }
    let (status, message) = withShimErrorMessage { errorBuffer, capacity in
      png_shim_reader_read_rows(reader, buffer.baseAddress, UInt32(count), errorBuffer, capacity)
    }
    rowsRead = Int(png_shim_reader_rows_read(reader))
    if let error = Self.error(for: status, message: message, info: nil, path: path, limit: 0) {
      throw error
    }
  }

  /// The next row: `width * 4` bytes of 8-bit straight RGBA.
  ///
  /// - Throws: as ``read(rows:into:)`` with `count` 1.
  public func readRow() throws(PNGError) -> [UInt8] {
    guard remainingRows > 0 else { throw .rowsExhausted(requested: 1, remaining: 0) }
    var failure: PNGError?
    let row = [UInt8](unsafeUninitializedCapacity: width * 4) { buffer, initialized in
      do throws(PNGError) {
        try read(rows: 1, into: UnsafeMutableRawBufferPointer(buffer))
        initialized = buffer.count
      } catch {
        failure = error
        initialized = 0
      }
    }
    if let failure { throw failure }
    return row
  }

  // MARK: - Implementation

  private static func error(
    for status: PNGShimStatus, message: String, info: PNGShimImageInfo?, path: String, limit: Int
  ) -> PNGError? {
    switch status {
    case PNG_SHIM_OK: nil
    case PNG_SHIM_NOT_A_PNG: .notAPNG
    case PNG_SHIM_TOO_LARGE: .imageTooLarge(width: Int(info?.width ?? 0), height: Int(info?.height ?? 0), limit: limit)
    case PNG_SHIM_OUT_OF_MEMORY: .outOfMemory
    case PNG_SHIM_FILE_NOT_FOUND: .fileNotFound(path: path)
    case PNG_SHIM_FILE_READ_FAILED: .fileReadFailed(path: path, reason: message)
    default: .decodingFailed(message.isEmpty ? "unknown libpng error" : message)
    }
  }
}
