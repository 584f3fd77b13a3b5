internal import _MapSnapRaster
import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Draws and compresses a frame's rows a chunk at a time, each chunk on one
/// worker from its first band to its last deflate segment: the worker
/// compresses the pixels it has just drawn, from its own processor's cache.
/// What `FrameStream` writes with the parallel deflate (``PNGFilter/none``).
///
/// The rule that keeps the bytes those of the whole-frame encoder: a chunk
/// is a run of whole deflate segments (`PNGStreamWriter.rowGranularity`),
/// and its first segment's dictionary is the 32 KiB of scanlines before it,
/// which the chunk's worker draws itself ahead of its rows (at most a few
/// rows, `PNGStreamWriter.dictionaryRows(before:)`: a pixel depends only on
/// its row, so drawing a row twice gives the same pixels). So no worker
/// waits for another's pixels; compressed chunks are appended to the PNG in
/// row order, by whichever worker finishes the chunk that is next.
///
/// Why: with a strip drawn by every thread and then compressed by every
/// thread, each pixel crossed from the core that drew it to the core that
/// compressed it, and each phase waited for its slowest band or segment;
/// the 8192² frame ran 1.3× faster on two threads than on one (issue 13's
/// scaling, BENCHMARKS.md).
///
/// Memory: per worker a chunk of pixels, one segment's scanlines, a
/// deflate state and a band of cells; and the compressed bytes of up to
/// twice the workers' chunks (`slots`: a worker may run ahead of a slow one
/// by that much, no further).
package final class ChunkedFrameWriter: @unchecked Sendable {
  /// Pixel bytes a chunk aims at (1 MiB: 32 rows of an 8192-pixel frame),
  /// so that a chunk drawn is still in its core's second-level cache (2 MiB
  /// here) when it is compressed. Measured on the 8192² frame of the 1:2000
  /// Helsinki benchmark at 1:250, drawing and compressing in process,
  /// medians of 7 on one and two threads: 256 KiB 127 / 70 ms, 512 KiB
  /// 123 / 71, 1 MiB 121 / 67, 2 MiB 128 / 69, 4 MiB 130 / 73.
  package static let chunkBytes = 1 << 20

  /// Chunks each worker gets at least, when the frame has segments enough:
  /// workers take chunks as they come free, so the last one to finish waits
  /// for at most one chunk of another's.
  package static let chunksPerWorker = 4

  /// Rows per chunk for a frame `width` × `height` whose encoder takes
  /// multiples of `granularity` rows, on `workers` workers: about
  /// `chunkBytes` of pixels, but no more than a `chunksPerWorker`-th of
  /// each worker's share of the frame; whole segments, at least one.
  /// `preferred` (tests) replaces the target.
  package static func chunkRows(width: Int, height: Int, granularity: Int, workers: Int, preferred: Int? = nil) -> Int {
    let g = max(1, granularity)
    var target = preferred ?? max(1, chunkBytes / max(1, width * 4))
    if preferred == nil && workers > 1 {
      let share = (height + workers * chunksPerWorker - 1) / (workers * chunksPerWorker)
      target = min(target, (share + g - 1) / g * g)
    }
    return max(g, target / g * g)
  }

  private let renderer: StripRenderer
  private let writer: PNGStreamWriter
  private let width: Int
  private let height: Int
  private let rows: Int
  private let chunks: Int
  let workers: Int
  private let slots: Int
  /// Per worker: the pixels of its chunk and the rows before it, drawn and
  /// compressed by that worker alone, so that they stay in its core's
  /// cache from chunk to chunk. With buffers per slot, last written by
  /// whichever worker took the slot before, the 8192² frame's drawing took
  /// more CPU time on two threads than on one (perf: `BandWorker.draw`
  /// +45 %, `CellRasterizer.add` +20 %).
  private var pixels: [UnsafeMutableBufferPointer<UInt32>] = []
  /// Per slot: a chunk's compressed bytes, until appended.
  private var compressed: [PNGStreamWriter.CompressedRows] = []
  /// Per slot: compressed and not yet appended.
  private var finished: [Bool]
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Under `lock`: the next chunk to draw, the next to append, the first
  /// failure (every worker stops at its next chunk).
  private var nextChunk = 0
  private var nextAppended = 0
  private var failure: FrameWriteError? = nil
  private let sink: (UnsafeRawBufferPointer) throws(FileError) -> Void

  /// A writer of `writer`'s rows drawn by `renderer` on `workers` workers
  /// (at most `writer.workers`), `chunkRows` rows a chunk (a multiple of
  /// `writer.rowGranularity`), the file's bytes handed to `sink` in order
  /// (by the worker that appends them, under the writer's lock). Nil when
  /// out of memory.
  init?(
    renderer: StripRenderer, writer: PNGStreamWriter, workers: Int, chunkRows: Int,
    sink: @escaping (UnsafeRawBufferPointer) throws(FileError) -> Void
  ) {
    self.renderer = renderer
    self.writer = writer
    width = writer.width
    height = writer.height
    rows = chunkRows
    chunks = (height + chunkRows - 1) / chunkRows
    self.workers = max(1, min(workers, writer.workers, chunks))
    slots = self.workers == 1 ? 1 : min(chunks, 2 * self.workers)
    finished = Array(repeating: false, count: slots)
    self.sink = sink
    pthread_mutex_init(lock, nil)
    pthread_cond_init(changed, nil)
    // The rows a chunk draws ahead of its own are the most at a chunk that
    // starts far enough down.
    let lead = writer.dictionaryRows(before: height)
    for _ in 0..<slots {
      guard let c = PNGStreamWriter.CompressedRows() else { return nil }
      compressed.append(c)
    }
    for _ in 0..<self.workers { pixels.append(.allocate(capacity: (lead + chunkRows) * width)) }
  }

  deinit {
    for p in pixels { p.deallocate() }
    pthread_cond_destroy(changed)
    pthread_mutex_destroy(lock)
    lock.deallocate()
    changed.deallocate()
  }

  /// Draws, compresses and hands out every row (the writer's bytes so far
  /// are handed out first).
  /// - Throws: `FrameWriteError`: the encoder's error, or the sink's.
  func run() throws(FrameWriteError) {
    do throws(FileError) { try writer.drain(sink) } catch { throw .output(error) }
    if workers == 1 {
      work(worker: 0)
    } else {
      DispatchQueue.concurrentPerform(iterations: workers) { w in self.work(worker: w) }
    }
    if let failure { throw failure }
  }

  /// One worker: takes the next chunk while fewer than `slots` are drawn
  /// ahead of the next to append, draws it (the rows before it first),
  /// compresses it, and appends every finished chunk that is next.
  private func work(worker: Int) {
    pthread_mutex_lock(lock)
    while true {
      while failure == nil && nextChunk < chunks && nextChunk >= nextAppended + slots {
        pthread_cond_wait(changed, lock)
      }
      if failure != nil || nextChunk >= chunks { break }
      let chunk = nextChunk
      nextChunk += 1
      pthread_mutex_unlock(lock)

      let slot = chunk % slots
      let top = chunk * rows
      let count = min(rows, height - top)
      let lead = writer.dictionaryRows(before: top)
      renderer.render(rows: (top - lead)..<(top + count), into: pixels[worker].baseAddress!, threads: 1)
      var failed: PNGError? = nil
      do throws(PNGError) {
        try writer.compress(consuming: pixels[worker], firstRow: top, count: count, worker: worker, into: compressed[slot])
      } catch {
        failed = error
      }

      pthread_mutex_lock(lock)
      if let failed, failure == nil { failure = .encoding(failed) }
      finished[slot] = true
      appendFinished()
      pthread_cond_broadcast(changed)
    }
    pthread_mutex_unlock(lock)
  }

  /// Appends the finished chunks that come next and hands their bytes to
  /// the sink. Under `lock`.
  private func appendFinished() {
    while failure == nil && nextAppended < chunks && finished[nextAppended % slots] {
      let slot = nextAppended % slots
      finished[slot] = false
      do throws(PNGError) { try writer.append(compressed[slot]) } catch {
        failure = .encoding(error)
        return
      }
      do throws(FileError) { try writer.drain(sink) } catch {
        failure = .output(error)
        return
      }
      nextAppended += 1
    }
  }
}
