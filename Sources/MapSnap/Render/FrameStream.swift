public import _MapSnapRaster
import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Draws a planned frame into a PNG a strip of rows at a time, so that
/// memory is O(width × strip), not O(width × height): the frame is never
/// held whole. What `mapsnap render` and `mapsnap batch` write.
///
/// A frame of more than one chunk (`ChunkedFrameWriter.chunkRows`) is
/// drawn and compressed a chunk at a time on every worker
/// (`ChunkedFrameWriter`: each worker compresses the rows it has just
/// drawn). A frame of one chunk, and every frame with the adaptive filter,
/// is drawn a strip at a time by the tile workers (`StripRenderer`: the
/// bands that meet it, in parallel), then compressed (`PNGStreamWriter`:
/// its deflate segments in parallel, or libpng's rows) and handed to the
/// output. The colour type is decided before drawing (`FramePlan.isOpaque`),
/// the `mapsnap-inputs` chunk follows `IHDR`, and strips and chunks hold
/// whole deflate segments, so the file is byte-identical to
/// `Snapshot.pngData` of the same plan, for any strip height, thread count
/// and band height.
///
/// Drawn in strips with more than one thread, strip k is compressed (on a
/// thread of its own) while strip k + 1 is drawn. Peak memory: the plan
/// (its display list); then either per worker a chunk of 1 MiB of pixels
/// and the compressed bytes of up to twice the workers' chunks, or two
/// strips (`stripBytes(threads:)` of pixels each, at least one deflate
/// segment; one with one thread), the compressed bytes of one and a
/// straight-alpha copy of it when the frame is RGBA; per compressing
/// worker one segment's scanlines and its deflate state, and per drawing
/// worker one band of cells.
package enum FrameStream {
  /// Pixel bytes a strip aims at per drawing thread (2 MiB: 64 rows of an
  /// 8192-pixel frame, two bands of 32); a strip holds at least two
  /// threads' worth (`stripBytes(threads:)`).
  package static let stripBytesPerThread = 2 << 20

  /// Pixel bytes a strip aims at with `threads` drawing threads:
  /// `stripBytesPerThread` for each, and at least 4 MiB. The rule: a strip
  /// just drawn is compressed while it is still in the processor's cache
  /// (with two threads, the strip being drawn and the one being compressed
  /// are 8 MiB together, within a server's last-level cache), and each
  /// thread has bands and deflate segments of its own. Measured on the
  /// 8192² frame of the 1:2000 Helsinki benchmark at 1:250 (BENCHMARKS.md,
  /// issue 13's scaling): one thread took 174 ms with 16 MiB strips and
  /// 150 ms with 4 MiB ones, and 16384² at 1:125 448 and 377 ms; two
  /// threads 137 and 131 ms (8192²).
  package static func stripBytes(threads: Int) -> Int { max(2, threads) * stripBytesPerThread }

  /// Rows per strip for a frame `width` pixels wide, drawn by `threads`
  /// threads, whose encoder takes multiples of `granularity` rows: about
  /// `stripBytes(threads:)` of pixels, a multiple of `granularity` (at
  /// least one), and a multiple of `tileRows` too when that costs at most
  /// twice the target (so no band is cut in two); `preferred` (tests)
  /// replaces the target.
  package static func stripRows(width: Int, granularity: Int, tileRows: Int, threads: Int, preferred: Int? = nil) -> Int {
    let target = preferred ?? max(1, stripBytes(threads: threads) / max(1, width * 4))
    var rows = max(granularity, target / granularity * granularity)
    if preferred == nil {
      let both = lcm(granularity, max(1, tileRows))
      if both <= 2 * max(target, granularity) { rows = max(both, target / both * both) }
    }
    return rows
  }

  /// Draws `plan` with `options` and writes its PNG (`encoding`, and the
  /// `mapsnap-inputs` chunk holding `inputDigest` when given) to `sink`,
  /// in order, as the strips (or chunks) are compressed. `stripRows`
  /// replaces the strip height `stripRows(width:granularity:tileRows:threads:)`
  /// chooses, and the chunk height `ChunkedFrameWriter.chunkRows` does
  /// (rounded down to whole deflate segments).
  /// - Throws: `FrameWriteError`: the encoder's error, or the sink's.
  public static func writePNG(
    _ plan: FramePlan, options: RenderOptions = RenderOptions(), encoding: PNGEncodingOptions = .fast,
    inputDigest: String?, stripRows: Int? = nil, to sink: (UnsafeRawBufferPointer) throws(FileError) -> Void
  ) throws(FrameWriteError) {
    let list = plan.displayList
    let width = list.width
    let height = list.height
    if encoding.palette != nil {
      try writePalettePNG(plan, options: options, encoding: encoding, inputDigest: inputDigest, to: sink)
      return
    }
    let writer: PNGStreamWriter
    do throws(PNGError) {
      writer = try PNGStreamWriter(
        width: width, height: height, opaque: plan.isOpaque, options: encoding,
        text: inputDigest.map { (PNGTextChunk.inputsKeyword, $0) })
    } catch {
      throw .encoding(error)
    }
    let threads = options.threads > 0 ? options.threads : activeProcessorCount()
    let renderer = StripRenderer(list, options: options)
    let chunkRows = min(
      height,
      ChunkedFrameWriter.chunkRows(
        width: width, height: height, granularity: writer.rowGranularity, workers: threads, preferred: stripRows))
    if encoding.filter == .none && height > chunkRows {
      // A frame of more than one chunk: each worker draws and compresses
      // chunks of its own (`ChunkedFrameWriter`), in the strips' place, and
      // only the workers' chunks of pixels are ever touched, not a strip of
      // up to 4 MiB (the whole of a 1024² thumbnail). Measured, whole
      // processes on two threads, chunks against one strip (`perf stat`,
      // means of 30 runs): nyc-250000 (1024²) 4,914 → 3,952 page faults,
      // 38.9 → 36.9 ms of processor time, 27.2 → 26.1 ms; helsinki-2000 at
      // 2048 × 1024 5,705 → 4,169, 42.9 → 39.3 ms; at 768² 3,283 → 3,004
      // faults; 512² level. Drawing and compressing in process (no page
      // faults to save), the four 1024² frames took 36.2 ms in strips and
      // 37.0 in chunks (one of nyc-250000's seven chunks took 4 of its 7
      // ms), 2048² 17.0 and 13.6.
      try withoutActuallyEscaping(sink) { (sink) throws(FrameWriteError) in
        guard
          let chunked = ChunkedFrameWriter(renderer: renderer, writer: writer, workers: threads, chunkRows: chunkRows, sink: sink)
        else { throw .encoding(.outOfMemory) }
        try chunked.run()
      }
      return
    }
    // A frame of one chunk, or one with the adaptive filter, in strips.
    let rows = min(
      height,
      Self.stripRows(width: width, granularity: writer.rowGranularity, tileRows: options.tileRows, threads: threads, preferred: stripRows))
    // With more than one thread, strip k is compressed (on a thread of its
    // own, `PipelineThread`, kept for the frame) while strip k + 1 is drawn,
    // so neither phase waits for the other's slowest band or segment.
    let pipelined = threads > 1 && height > rows
    let strips = UnsafeMutablePointer<UInt32>.allocate(capacity: (pipelined ? 2 : 1) * rows * width)
    defer { strips.deallocate() }
    let encoder = pipelined ? PipelineThread() : nil
    defer { encoder?.stop() }
    do throws(FileError) { try writer.drain(sink) } catch { throw .output(error) }
    var current = strips
    var top = 0
    renderer.render(rows: 0..<min(rows, height), into: current)
    while top < height {
      let n = min(rows, height - top)
      let next = top + n
      let pixels = UnsafeBufferPointer(start: current, count: n * width)
      var failure: PNGError? = nil
      if let encoder, next < height {
        let other = current == strips ? strips + rows * width : strips
        let job = EncodeJob(writer: writer, pixels: pixels, rows: n)
        encoder.start { job.run() }
        renderer.render(rows: next..<min(height, next + rows), into: other)
        encoder.wait()
        failure = job.failure
        current = other
      } else {
        do throws(PNGError) { try writer.write(premultipliedRows: pixels, count: n) } catch { failure = error }
        if next < height { renderer.render(rows: next..<min(height, next + rows), into: current) }
      }
      if let failure { throw .encoding(failure) }
      do throws(FileError) { try writer.drain(sink) } catch { throw .output(error) }
      top = next
    }
  }

  /// One strip handed to the writer on another thread (the writer is used
  /// by one thread at a time: the caller waits for the job before using it).
  private final class EncodeJob: @unchecked Sendable {
    let writer: PNGStreamWriter
    let pixels: UnsafeBufferPointer<UInt32>
    let rows: Int
    var failure: PNGError? = nil

    init(writer: PNGStreamWriter, pixels: UnsafeBufferPointer<UInt32>, rows: Int) {
      self.writer = writer
      self.pixels = pixels
      self.rows = rows
    }

    func run() {
      do throws(PNGError) { try writer.write(premultipliedRows: pixels, count: rows) } catch { failure = error }
    }
  }

  /// Draws `plan` and writes its PNG to `output` (see the other
  /// `writePNG`); the caller then commits `output.finish()`. On failure
  /// nothing reaches the target (the output is left unfinished: discard it
  /// or let it go).
  public static func writePNG(
    _ plan: FramePlan, options: RenderOptions = RenderOptions(), encoding: PNGEncodingOptions = .fast,
    inputDigest: String?, to output: StreamingOutput
  ) throws(FrameWriteError) {
    try writePNG(plan, options: options, encoding: encoding, inputDigest: inputDigest) { (bytes: UnsafeRawBufferPointer) throws(FileError) in
      try output.write(bytes)
    }
  }

  /// Writes `plan`'s JSON report (of `reportDetail`, when `report` names a
  /// file) and its PNG to `output`, together or not at all
  /// (`PendingOutput.commitAll`): both files are staged complete beside
  /// their targets first; then devices, FIFOs and standard output are
  /// written (the report before the PNG), and only when all of that
  /// succeeded are the files renamed into place, the report first and the
  /// PNG last (`mapsnap batch --resume` trusts a PNG holding its digest, so
  /// it never stands beside a report that failed or is stale). A report
  /// that cannot be written (`--report /dev/full`) leaves no PNG file, and
  /// a PNG that cannot be written no report file. Paths follow
  /// `OutputTarget` (with `confinement`, inside its root; with
  /// `createDirectories`, missing folders are made). What `mapsnap render`
  /// and `mapsnap batch` write.
  /// - Throws: `FileError` or `FrameWriteError`; no temporary file is left
  ///   behind.
  public static func writeFiles(
    _ plan: FramePlan, output: String, report: String?, reportDetail: ReportDetail, options: RenderOptions,
    encoding: PNGEncodingOptions, inputDigest: String, confinement: Confinement? = nil, createDirectories: Bool = false
  ) throws {
    var pending: [PendingOutput] = []
    do {
      if let report {
        var bytes = JSONWriter().writeBytes(plan.report(detail: reportDetail))
        bytes.append(10)
        pending.append(try OutputTarget(report, confinement: confinement).prepare(bytes, createDirectories: createDirectories))
      }
      let png = try OutputTarget(output, confinement: confinement).openStreaming(createDirectories: createDirectories)
      try writePNG(plan, options: options, encoding: encoding, inputDigest: inputDigest, to: png)
      pending.append(try png.finish())
      let outputs = pending
      pending.removeAll()
      try PendingOutput.commitAll(outputs)
    } catch {
      for p in pending { p.discard() }
      throw error
    }
  }

  /// A palette PNG (PNG8) is quantised from the whole frame, so it is drawn
  /// whole and written at once, up to ``PaletteOptions/maximumPixels``.
  private static func writePalettePNG(
    _ plan: FramePlan, options: RenderOptions, encoding: PNGEncodingOptions, inputDigest: String?,
    to sink: (UnsafeRawBufferPointer) throws(FileError) -> Void
  ) throws(FrameWriteError) {
    let (width, height) = (plan.displayList.width, plan.displayList.height)
    guard width * height <= PaletteOptions.maximumPixels else {
      throw .encoding(.paletteFrameTooLarge(width: width, height: height, limit: PaletteOptions.maximumPixels))
    }
    let snapshot = Snapshot.render(plan, options: options)
    var png: [UInt8]
    do throws(PNGError) {
      png = try PNGEncoder.encode(
        premultipliedRGBA: snapshot.canvas.buffer, width: width, height: height, opaque: plan.isOpaque, options: encoding)
    } catch {
      throw .encoding(error)
    }
    if let inputDigest { png = PNGTextChunk.inserting(keyword: PNGTextChunk.inputsKeyword, text: inputDigest, into: png) }
    var failure: FileError? = nil
    png.withUnsafeBytes { bytes in
      do throws(FileError) { try sink(bytes) } catch { failure = error }
    }
    if let failure { throw .output(failure) }
  }

  private static func lcm(_ a: Int, _ b: Int) -> Int {
    var (x, y) = (a, b)
    while y != 0 { (x, y) = (y, x % y) }
    let (product, overflow) = (a / x).multipliedReportingOverflow(by: b)
    return overflow ? Int.max : product
  }
}
