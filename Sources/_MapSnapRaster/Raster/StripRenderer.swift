import Dispatch
import Synchronization

/// Draws a display list's rows a strip at a time, so that a frame can be
/// encoded as it is drawn and never held whole (`FrameStream`).
///
/// The frame is cut into bands of `tileRows` rows counted from the top of the
/// frame, and each fill is binned into the bands its rows touch, once, when
/// the renderer is made. `render(rows:into:)` draws the bands that meet the
/// strip, in parallel, each clipped to the strip's rows (a band that crosses
/// a strip's edge is drawn in two parts, one per strip). A pixel's value
/// depends only on the items that touch its row and on absolute coordinates
/// (`CellRasterizer`), so the pixels are those of `TileRenderer` for any
/// strips, thread count and band height.
///
/// Memory beyond the strip: the bins (one `Int32` per item per band it
/// touches, plus one per band for each group marker) and per worker one band
/// of cells and one band buffer per open group. The workers' scratch is made
/// once per renderer and kept for its strips (`BandWorkerPool`): made per
/// strip, its cleared cells were a fifth of an 8192² frame's page faults.
public struct StripRenderer: Sendable {
  public let list: DisplayList
  /// Rows per band (at least 1, at most the frame's height).
  public let bandRows: Int
  let bandCount: Int
  let bins: Bins
  let threads: Int
  let scratch: BandWorkerPool

  public init(_ list: DisplayList, options: RenderOptions = .init()) {
    self.list = list
    bandRows = max(1, min(options.tileRows, list.height))
    bandCount = (list.height + bandRows - 1) / bandRows
    bins = Bins(list: list, bandRows: bandRows, bandCount: bandCount)
    threads = options.threads > 0 ? options.threads : activeProcessorCount()
    scratch = BandWorkerPool(width: list.width, rows: bandRows)
  }

  /// Draws frame rows `rows` into `pixels`: row `y` at `pixels + (y -
  /// rows.lowerBound) * list.width`, every pixel written (the background
  /// first), on up to `threads` threads (the renderer's count when nil; 1:
  /// on the calling thread alone, as a worker that draws and compresses
  /// its own rows does).
  public func render(rows: Range<Int>, into pixels: UnsafeMutablePointer<UInt32>, threads: Int? = nil) {
    precondition(rows.lowerBound >= 0 && rows.upperBound <= list.height, "rows outside the frame")
    if rows.isEmpty { return }
    let list = list
    let width = list.width
    let bandRows = bandRows
    let bins = bins
    let firstBand = rows.lowerBound / bandRows
    let lastBand = (rows.upperBound - 1) / bandRows
    let bands = lastBand - firstBand + 1
    let workers = max(1, min(bands, threads ?? self.threads))
    let background = list.background.premultipliedPixel
    let next = Atomic<Int>(firstBand)
    let shared = SharedFrame(pixels: pixels)
    let stripTop = rows.lowerBound
    let stripBottom = rows.upperBound
    let scratch = scratch
    // The list holds its blocks, and so their memory, while this runs.
    let blockBases = (list.sealedEdges + [list.edges]).map { UnsafePointer($0.base) }

    list.items.withUnsafeBufferPointer { items in
      blockBases.withUnsafeBufferPointer { edgeBlocks in
       list.bucketOffsets.withUnsafeBufferPointer { buckets in
       list.images.withUnsafeBufferPointer { images in
       list.imageAxes.withUnsafeBufferPointer { imageAxes in
       list.maskPlacements.withUnsafeBufferPointer { masks in
       list.patterns.withUnsafeBufferPointer { patterns in
        let input = SharedInput(
          items: items, edgeBlocks: edgeBlocks, buckets: buckets, images: images, imageAxes: imageAxes,
          masks: masks, atlas: list.atlas, patterns: patterns)
        let drawBands: @Sendable (Int) -> Void = { _ in
          var band = scratch.take()
          defer { scratch.give(band) }
          while true {
            let b = next.add(1, ordering: .relaxed).oldValue
            if b > lastBand { break }
            let top = max(stripTop, b * bandRows)
            let bottom = min(stripBottom, (b + 1) * bandRows)
            band.draw(
              bins.items(of: b), input: input, top: top, bottom: bottom,
              background: background, frame: shared.pixels + (top - stripTop) * width)
          }
        }
        if workers == 1 { drawBands(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: drawBands) }
       }
       }
       }
       }
       }
      }
    }
  }
}

/// The drawing workers' scratch (`BandWorker`: a band of cells, group
/// buffers), kept between a renderer's strips: a worker takes one when it
/// starts a strip and gives it back when it ends, clean (every band's sweep
/// clears the cells it touched). Freed with the renderer.
final class BandWorkerPool: @unchecked Sendable {
  let width: Int
  let rows: Int
  private let idle = Mutex<[BandWorker]>([])

  init(width: Int, rows: Int) {
    self.width = width
    self.rows = rows
  }

  /// An idle worker's scratch, or new scratch when every one is busy.
  func take() -> BandWorker {
    idle.withLock { $0.popLast() } ?? BandWorker(width: width, rows: rows)
  }

  func give(_ worker: BandWorker) {
    idle.withLock { $0.append(worker) }
  }

  /// Scratch kept now (none in use), for the tests.
  var idleCount: Int { idle.withLock { $0.count } }

  deinit {
    idle.withLock { workers in
      for i in workers.indices { workers[i].deallocate() }
    }
  }
}

/// A worker's scratch is used by one thread at a time: the pool hands it
/// from the worker that gave it back to the next that takes it.
extension BandWorker: @unchecked Sendable {}
