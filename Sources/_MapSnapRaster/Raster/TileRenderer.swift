import Dispatch
import Synchronization
internal import _SystemShims

/// How a frame is cut up and drawn.
public struct RenderOptions: Sendable, Hashable {
  /// Worker threads; 0 means one per active processor.
  public var threads: Int
  /// Height of a tile in rows. Tiles are full-width bands, so no winding has
  /// to be handed from one tile to the next.
  public var tileRows: Int

  public init(threads: Int = 0, tileRows: Int = 32) {
    self.threads = threads
    self.tileRows = tileRows
  }
}

/// Draws a `DisplayList` into a canvas: the frame is cut into bands of
/// `tileRows` rows, each fill is binned into the bands its rows touch, and bands
/// are drawn in parallel, each by one worker in paint order.
///
/// The bytes written are the same for every thread count and band height:
/// a band's pixels depend only on the items binned to it and on absolute
/// coordinates (see `CellRasterizer`), never on the band's neighbours.
/// `StripRenderer` draws the same pixels a strip of rows at a time.
public enum TileRenderer {
  public static func render(_ list: DisplayList, into canvas: Canvas, options: RenderOptions = .init()) {
    precondition(canvas.width == list.width && canvas.height == list.height, "canvas size differs from the display list")
    StripRenderer(list, options: options).render(rows: 0..<list.height, into: canvas.pixels)
  }
}

/// Pointers that the band workers only read, or write in disjoint rows.
struct SharedInput: @unchecked Sendable {
  let items: UnsafeBufferPointer<DrawItem>
  /// Each edge block's first edge, indexed by `DrawItem.edgeBlock`.
  let edgeBlocks: UnsafeBufferPointer<UnsafePointer<Edge>?>
  let buckets: UnsafeBufferPointer<Int32>
  let images: UnsafeBufferPointer<ImageDraw>
  let imageAxes: UnsafeBufferPointer<ImageAxis>
  let masks: UnsafeBufferPointer<MaskPlacement>
  let atlas: MaskAtlas?
  let patterns: UnsafeBufferPointer<PatternDraw>
}

struct SharedFrame: @unchecked Sendable {
  let pixels: UnsafeMutablePointer<UInt32>
}

/// For every band, the indices of the items it must draw, in paint order.
/// Fills and images go to the bands their rows touch; group markers go to every
/// band; a band skips groups that hold nothing of it.
struct Bins: Sendable {
  let offsets: [Int]
  let indices: [Int32]

  init(list: DisplayList, bandRows: Int, bandCount: Int) {
    var counts = [Int](repeating: 0, count: bandCount + 1)
    for item in list.items {
      if item.kind != .beginGroup && item.kind != .endGroup {
        let b0 = Int(item.minRow) / bandRows
        let b1 = min(bandCount - 1, Int(item.maxRow) / bandRows)
        if b0 <= b1 { for b in b0...b1 { counts[b] += 1 } }
      } else {
        for b in 0..<bandCount { counts[b] += 1 }
      }
    }
    var offsets = [Int](repeating: 0, count: bandCount + 1)
    for b in 0..<bandCount { offsets[b + 1] = offsets[b] + counts[b] }
    var fillPos = offsets
    var indices = [Int32](repeating: 0, count: offsets[bandCount])
    for (i, item) in list.items.enumerated() {
      let range: ClosedRange<Int>
      if item.kind != .beginGroup && item.kind != .endGroup {
        let b0 = Int(item.minRow) / bandRows
        let b1 = min(bandCount - 1, Int(item.maxRow) / bandRows)
        if b0 > b1 { continue }
        range = b0...b1
      } else {
        range = 0...(bandCount - 1)
      }
      for b in range {
        indices[fillPos[b]] = Int32(i)
        fillPos[b] += 1
      }
    }
    self.offsets = offsets
    self.indices = indices
  }

  func items(of band: Int) -> ArraySlice<Int32> {
    indices[offsets[band]..<offsets[band + 1]]
  }
}

/// One worker's scratch: cells for a band and one layer buffer per open group.
struct BandWorker {
  let width: Int
  let rows: Int
  let cells: CellRasterizer
  var layers: [UnsafeMutablePointer<UInt32>] = []

  init(width: Int, rows: Int) {
    self.width = width
    self.rows = rows
    cells = CellRasterizer(width: width, rows: rows)
  }

  mutating func deallocate() {
    cells.deallocate()
    for l in layers { l.deallocate() }
  }

  mutating func draw(
    _ indices: ArraySlice<Int32>, input: SharedInput, top: Int, bottom: Int,
    background: UInt32, frame: UnsafeMutablePointer<UInt32>
  ) {
    let n = bottom - top
    let pixels = n * width
    frame.update(repeating: background, count: pixels)
    // Targets: the frame, then one buffer per open group that holds content.
    var stack: [(pixels: UnsafeMutablePointer<UInt32>, opacity: UInt32)] = [(frame, 255)]
    var pendingGroups: [UInt32] = []  // opened, but nothing of them in this band yet
    for idx in indices {
      let item = input.items[Int(idx)]
      switch item.kind {
      case .beginGroup:
        pendingGroups.append(item.opacity)
      case .endGroup:
        if pendingGroups.popLast() == nil {
          let layer = stack.removeLast()
          let below = stack[stack.count - 1].pixels
          compositeRow(below, layer.pixels, pixels, layer.opacity)
        }
      case .fill, .image, .masks:
        for opacity in pendingGroups {
          let depth = stack.count - 1
          if layers.count < depth + 1 { layers.append(.allocate(capacity: width * rows)) }
          let buffer = layers[depth]
          buffer.update(repeating: 0, count: pixels)
          stack.append((buffer, opacity))
        }
        pendingGroups.removeAll(keepingCapacity: true)
        if item.kind == .masks, let atlas = input.atlas {
          let run = UnsafeBufferPointer(rebasing: input.masks[item.edgeStart..<(item.edgeStart + item.edgeCount)])
          blitMasks(run, atlas: atlas, paint: item.pixel, into: stack[stack.count - 1].pixels, width: width, top: top, bottom: bottom)
          continue
        }
        if item.kind == .image {
          input.images[item.edgeStart].draw(
            axes: input.imageAxes.baseAddress!, into: stack[stack.count - 1].pixels, width: width,
            top: top, bottom: bottom)
          continue
        }
        let edges = input.edgeBlocks[Int(item.edgeBlock)]!
        var e = item.edgeStart
        var end = item.edgeStart + item.edgeCount
        if item.bucketStart >= 0 {
          // Only the buckets that can reach this band's rows.
          let last = (Int(item.maxRow) >> EdgeBuckets.rowsShift) - Int(item.firstBucket)
          let b0 = min(max(0, (top >> EdgeBuckets.rowsShift) - 1 - Int(item.firstBucket)), last)
          let b1 = min(max(0, ((bottom - 1) >> EdgeBuckets.rowsShift) - Int(item.firstBucket)), last)
          e = item.edgeStart + Int(input.buckets[item.bucketStart + b0])
          end = item.edgeStart + Int(input.buckets[item.bucketStart + b1 + 1])
        }
        // A band reads its buckets whole, the one above it too (`EdgeBuckets`):
        // with 32-row bands and 64-row buckets, most edges it reads lie above
        // or below its rows. Those are passed over here, two compares, rather
        // than in a call of `add` each.
        let yTop = Int32(truncatingIfNeeded: top << 8)
        let yBottom = Int32(truncatingIfNeeded: bottom << 8)
        while e < end {
          let edge = edges[e]
          e += 1
          if edge.y1 <= yTop || edge.y0 >= yBottom { continue }
          cells.add(edge, top: top, bottom: bottom)
        }
        if item.pattern >= 0 {
          let spans = PatternSpans(pattern: input.patterns[Int(item.pattern)])
          cells.sweep(rows: n, rule: item.rule, spans: spans, top: top, target: stack[stack.count - 1].pixels)
        } else {
          cells.sweep(rows: n, rule: item.rule, paint: item.pixel, target: stack[stack.count - 1].pixels)
        }
      }
    }
  }
}

/// Processors available to this process (at least 1): the worker count a
/// thread or job setting of 0 means. The rule: the processors online,
/// limited to those the process may run on (its CPU affinity, which Slurm
/// and `taskset` set) and to its cgroup's CPU quota rounded up (`cpu.max`,
/// which Kubernetes CPU limits and `docker --cpus` set). Read once.
public func activeProcessorCount() -> Int { availableProcessors }

private let availableProcessors: Int = {
  #if canImport(Glibc)
    var n = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// The lines of a small text file (nil when it cannot be read).
    func lines(_ path: String) -> [Substring]? {
      guard let f = fopen(path, "r") else { return nil }
      defer { fclose(f) }
      var text = ""
      var buffer = [CChar](repeating: 0, count: 4096)
      while fgets(&buffer, Int32(buffer.count), f) != nil {
        text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      }
      return text.split(separator: "\n")
    }
    // The affinity mask (one system call: cheaper than reading
    // /proc/self/status's Cpus_allowed, which the kernel formats).
    let allowed = Int(mapsnap_affinity_processor_count())
    if allowed > 0 { n = min(n, allowed) }
    // cgroup v2: "max 100000" (no limit) or "QUOTA PERIOD" in microseconds.
    if let cpuMax = lines("/sys/fs/cgroup/cpu.max")?.first {
      let parts = cpuMax.split(separator: " ")
      if parts.count == 2, let quota = Double(parts[0]), let period = Double(parts[1]), quota > 0, period > 0 {
        n = min(n, max(1, Int((quota / period).rounded(.up))))
      }
    }
    return n
  #else
    return 2
  #endif
}()

#if canImport(Glibc)
  import Glibc
#endif
