internal import _PNGShims
internal import _MapSnapRaster

/// A PNG written top to bottom, a strip of rows at a time, so that an image
/// is never held whole: memory is the strip handed over, its scanlines and
/// their compressed bytes, and less than one IDAT chunk (1 MiB) of the zlib
/// stream.
///
/// The bytes are exactly those of ``PNGEncoder`` for the same pixels, colour
/// type and options (followed by the `tEXt` chunk `PNGTextChunk.inserting`
/// would insert, when one is given), however the rows are cut into calls and
/// whatever the thread count: with ``PNGFilter/none`` the parallel deflate
/// cuts the scanlines into segments at rows fixed by the width
/// (``rowGranularity``), and every call but the last must hand over whole
/// segments; with ``PNGFilter/adaptive`` libpng writes row by row.
///
/// The colour type is fixed when the writer is made (`opaque`: RGB, else
/// RGBA with straight alpha, as ``PNGEncoder/encode(premultipliedRGBA:width:height:opaque:options:)``).
///
/// Bytes produced are handed out by ``drain(_:)``; call it after each
/// ``write(premultipliedRows:count:)``.
package final class PNGStreamWriter {
  public let width: Int
  public let height: Int
  public let opaque: Bool
  public let options: PNGEncodingOptions
  /// Every ``write(premultipliedRows:count:)`` but the one that ends the
  /// image hands over a multiple of this many rows: a deflate segment's
  /// rows (``PNGFilter/none``) or 1 (``PNGFilter/adaptive``).
  public let rowGranularity: Int
  /// Workers that ``compress(consuming:firstRow:count:worker:into:)`` may
  /// run at once (each with a deflate state of its own): the thread count of
  /// `options`, at most 64.
  public let workers: Int
  private var stream: OpaquePointer?
  /// Bytes produced on the Swift side (the `tEXt` chunk), handed out before
  /// the stream's next bytes.
  private var head: [UInt8] = []
  /// Straight-alpha copy of a strip (RGBA only), grown as needed.
  private var straight: UnsafeMutableBufferPointer<UInt32>?

  /// Starts a PNG of `width` × `height` pixels; `text` is a `tEXt` chunk
  /// (keyword and text, printable ASCII) written right after `IHDR`.
  /// - Throws: ``PNGError/invalidDimensions(width:height:)``,
  ///   ``PNGError/invalidCompressionLevel(_:)``, ``PNGError/outOfMemory`` or
  ///   ``PNGError/encodingFailed(_:)``.
  public init(
    width: Int, height: Int, opaque: Bool, options: PNGEncodingOptions = .fast,
    text: (keyword: String, text: String)? = nil
  ) throws(PNGError) {
    let maxSide = Int(PNG_SHIM_MAX_DIMENSION)
    guard (1...maxSide).contains(width), (1...maxSide).contains(height),
      !width.multipliedReportingOverflow(by: 4).overflow
    else {
      throw .invalidDimensions(width: width, height: height)
    }
    guard options.effectiveDeflater.levels.contains(options.compressionLevel) else { throw .invalidCompressionLevel(options.compressionLevel) }
    self.width = width
    self.height = height
    self.opaque = opaque
    self.options = options
    let filter = options.filter == .none ? PNG_SHIM_FILTER_NONE : PNG_SHIM_FILTER_ADAPTIVE
    rowGranularity = options.filter == .none ? Int(png_shim_segment_rows(UInt32(width), opaque ? 1 : 0)) : 1
    let threads = options.threads > 0 ? options.threads : activeProcessorCount()
    workers = min(threads, 64)
    var opened: OpaquePointer? = nil
    let (status, message) = withShimErrorMessage { buffer, capacity in
      png_shim_stream_open(
        UInt32(width), UInt32(height), opaque ? 1 : 0, options.effectiveDeflater.shim, Int32(options.compressionLevel),
        Int32(filter.rawValue),
        Int32(min(threads, 64)), &opened, buffer, capacity)
    }
    try Self.check(status, message)
    stream = opened
    if let text {
      // Signature and IHDR are in the stream's output now; the chunk follows.
      drainStream { head += $0 }
      head += PNGTextChunk.chunk(keyword: text.keyword, text: text.text)
    }
  }

  deinit {
    png_shim_stream_close(stream)
    straight?.deallocate()
  }

  /// Rows written so far.
  public var rowsWritten: Int { Int(png_shim_stream_rows_written(stream)) }

  /// True once every row is written (the file is complete).
  public var isComplete: Bool { rowsWritten == height }

  /// Compresses the next `count` rows of `pixels` (premultiplied RGBA8 as
  /// ``PNGEncoder`` takes them, rows packed, at least `count * width`
  /// pixels). `count` must be a multiple of ``rowGranularity`` unless these
  /// are the image's last rows; the call that writes the last row ends the
  /// file.
  /// - Throws: ``PNGError/pixelBufferTooSmall(required:actual:)``,
  ///   ``PNGError/rowsExhausted(requested:remaining:)``,
  ///   ``PNGError/outOfMemory`` or ``PNGError/encodingFailed(_:)`` (also for
  ///   a count that cuts a segment).
  public func write(premultipliedRows pixels: UnsafeBufferPointer<UInt32>, count: Int) throws(PNGError) {
    let remaining = height - rowsWritten
    guard count >= 0, count <= remaining else { throw .rowsExhausted(requested: count, remaining: remaining) }
    let required = count * width
    guard pixels.count >= required, let base = pixels.baseAddress else {
      throw .pixelBufferTooSmall(required: required, actual: pixels.count)
    }
    if count == 0 { return }
    var rows = UnsafeRawPointer(base)
    if !opaque {
      if straight == nil || straight!.count < required {
        straight?.deallocate()
        straight = .allocate(capacity: required)
      }
      PNGEncoder.unpremultiply(UnsafeBufferPointer(start: base, count: required), into: straight!)
      rows = UnsafeRawPointer(straight!.baseAddress!)
    }
    let (status, message) = withShimErrorMessage { buffer, capacity in
      png_shim_stream_write_rows(stream, rows, width * 4, UInt32(count), buffer, capacity)
    }
    try Self.check(status, message)
    if isComplete {
      straight?.deallocate()
      straight = nil
    }
  }

  /// Rows before `firstRow` whose pixels ``compress(consuming:firstRow:count:worker:into:)``
  /// takes ahead of its own: the scanlines of the 32 KiB before them are
  /// the first segment's dictionary (all the rows there are, near the top).
  public func dictionaryRows(before firstRow: Int) -> Int {
    Int(png_shim_stream_dictionary_rows(stream, UInt32(clamping: firstRow)))
  }

  /// Rows compressed by ``compress(consuming:firstRow:count:worker:into:)``
  /// on any thread, waiting to be appended (``append(_:)``) in row order.
  /// Reused from run to run (its buffers are kept).
  public final class CompressedRows: @unchecked Sendable {
    fileprivate let handle: OpaquePointer

    /// Nil when out of memory.
    public init?() {
      guard let h = png_shim_rows_create() else { return nil }
      handle = h
    }

    deinit { png_shim_rows_free(handle) }
  }

  /// Compresses frame rows `firstRow ..< firstRow + count` into `out` on
  /// the calling thread, with worker `worker`'s deflate state (`0 ..<
  /// workers`): so that a thread compresses the rows it has just drawn,
  /// from its own cache. `pixels` holds, packed, the
  /// ``dictionaryRows(before:)`` rows before `firstRow` and then the rows
  /// themselves, premultiplied; for an RGBA image they are made straight in
  /// place (the buffer is consumed). `firstRow` is a multiple of
  /// ``rowGranularity``, and so is `count` unless the rows end the image.
  /// Calls with different workers may run at once, beside ``append(_:)``
  /// and ``drain(_:)``; ``write(premultipliedRows:count:)`` is not to be
  /// used on the same writer. ``PNGFilter/none`` only.
  /// - Throws: ``PNGError/pixelBufferTooSmall(required:actual:)``,
  ///   ``PNGError/outOfMemory`` or ``PNGError/encodingFailed(_:)``.
  public func compress(
    consuming pixels: UnsafeMutableBufferPointer<UInt32>, firstRow: Int, count: Int, worker: Int, into out: CompressedRows
  ) throws(PNGError) {
    let lead = dictionaryRows(before: firstRow)
    let required = (lead + count) * width
    guard count > 0, pixels.count >= required, let base = pixels.baseAddress else {
      throw .pixelBufferTooSmall(required: required, actual: pixels.count)
    }
    if !opaque {
      let all = UnsafeMutableBufferPointer(start: base, count: required)
      PNGEncoder.unpremultiply(UnsafeBufferPointer(all), into: all)
    }
    let (status, message) = withShimErrorMessage { buffer, capacity in
      png_shim_stream_compress_rows(
        stream, Int32(clamping: worker), base, width * 4, UInt32(clamping: firstRow), UInt32(clamping: count), out.handle,
        buffer, capacity)
    }
    try Self.check(status, message)
  }

  /// Appends rows ``compress(consuming:firstRow:count:worker:into:)`` made,
  /// which must be the image's next rows; their bytes are then handed out by
  /// ``drain(_:)``, and the rows that end the image end the file.
  /// - Throws: ``PNGError/outOfMemory`` or ``PNGError/encodingFailed(_:)``.
  public func append(_ rows: CompressedRows) throws(PNGError) {
    let (status, message) = withShimErrorMessage { buffer, capacity in
      png_shim_stream_append_rows(stream, rows.handle, buffer, capacity)
    }
    try Self.check(status, message)
  }

  /// Hands the bytes produced since the last call to `body`, in file order
  /// (nothing when there are none), and forgets them.
  public func drain<E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
    if !head.isEmpty {
      var failure: E? = nil
      head.withUnsafeBytes { bytes in
        do throws(E) { try body(bytes) } catch { failure = error }
      }
      if let failure { throw failure }
      head = []
    }
    try drainStream(body)
  }

  private func drainStream<E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
    var size = 0
    guard let data = png_shim_stream_output(stream, &size), size > 0 else { return }
    try body(UnsafeRawBufferPointer(start: data, count: size))
    png_shim_stream_clear_output(stream)
  }

  private static func check(_ status: PNGShimStatus, _ message: String) throws(PNGError) {
    switch status {
    case PNG_SHIM_OK: return
    case PNG_SHIM_OUT_OF_MEMORY: throw .outOfMemory
    default: throw .encodingFailed(message)
    }
  }
}
