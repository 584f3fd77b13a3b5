import Dispatch
internal import _MapSnapRaster

/// Maps premultiplied RGBA8 pixels to palette indices: rule 7 of
/// ``PaletteQuantizer``.
///
/// - **Nearest entry.** A pixel takes the entry nearest to it in the
///   quantiser's space (premultiplied Oklab and alpha), ties to the lower
///   index (``NearestColorSearch``). The answer for a pixel value is
///   computed once per run of equal pixels and remembered in a small
///   direct-mapped cache keyed by the value, so a frame of flat fills costs
///   a comparison per pixel. Rows are mapped in fixed bands on several
///   threads; each pixel's index depends on its value alone, so the result
///   is the same for every thread count.
/// - **Dithering** (``PaletteOptions/dither``): Floyd–Steinberg error
///   diffusion in premultiplied RGBA8 (7/16 ahead, 3/16, 5/16, 1/16 on the
///   next row), rows alternating direction (serpentine), the error damped to
///   7/8 so it does not pile up in flat areas; one thread, top to bottom, so
///   the result is fixed. A pixel whose colour is exactly a palette entry
///   takes it and drops the error it received: fills and lines whose colours
///   are in the palette stay clean, and only the colours between entries
///   (anti-aliased edges, gradients, imagery) are dithered.
enum PaletteMapper {
  /// Rows per band at least, when mapping on several threads.
  static let minimumBandRows = 64
  /// Cache slots: 2¹² for plain mapping (a few thousand colours in a map
  /// frame's band), 2¹⁴ for dithering (where error makes more values).
  static let mappingCacheBits = 12
  static let ditheringCacheBits = 14

  /// One index per pixel for `palette` (straight RGBA8, value layout).
  static func map(
    _ image: UnsafeBufferPointer<UInt32>, width: Int, height: Int, palette: [UInt32], dither: Bool, threads: Int
  ) -> [UInt8] {
    let count = width * height
    let search = NearestColorSearch(palette.map { SIMD4<Float>(PaletteQuantizer.point(straight: $0)) })
    defer { search.deallocate() }
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      let work = Work(source: image.baseAddress!, destination: buffer.baseAddress!, search: search)
      if dither {
        ditherRows(work, width: width, height: height, entries: palette.map(PaletteQuantizer.premultiplied))
      } else {
        let workers = max(1, min(threads > 0 ? threads : activeProcessorCount(), (height + minimumBandRows - 1) / minimumBandRows))
        if workers == 1 {
          mapPixels(work, from: 0, to: count)
        } else {
          DispatchQueue.concurrentPerform(iterations: workers) { w in
            mapPixels(work, from: height * w / workers * width, to: height * (w + 1) / workers * width)
          }
        }
      }
      initialized = count
    }
  }

  /// The pointers a band needs, shared by the threads (each writes its own rows).
  private struct Work: @unchecked Sendable {
    let source: UnsafePointer<UInt32>
    let destination: UnsafeMutablePointer<UInt8>
    let search: NearestColorSearch
  }

  /// A pixel's entry in the low byte of a cache value; this bit says the
  /// pixel's colour is exactly the entry's.
  private static let exactFlag: UInt16 = 0x100
  /// A cache value no entry has: the slot is empty.
  private static let emptySlot: UInt16 = 0xFFFF

  /// Direct-mapped cache of pixel value → entry (and exactness).
  private struct EntryCache {
    let keys: UnsafeMutablePointer<UInt32>
    let values: UnsafeMutablePointer<UInt16>
    let mask: Int

    init(bits: Int) {
      let size = 1 << bits
      mask = size - 1
      keys = .allocate(capacity: size)
      keys.initialize(repeating: 0, count: size)
      values = .allocate(capacity: size)
      values.initialize(repeating: emptySlot, count: size)
    }

    func deallocate() {
      keys.deallocate()
      values.deallocate()
    }

    /// The entry of `stored` (a premultiplied pixel as stored), with ``exactFlag``.
    @inline(__always) func entry(_ stored: UInt32, _ search: NearestColorSearch) -> UInt16 {
      let slot = Int(truncatingIfNeeded: (UInt64(stored) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
      if values[slot] != emptySlot && keys[slot] == stored { return values[slot] }
      let point = PaletteQuantizer.point(straight: PaletteQuantizer.straight(UInt32(littleEndian: stored)))
      let (id, distance) = search.nearest(SIMD4<Float>(point))
      let value = UInt16(id) | (distance == 0 ? exactFlag : 0)
      keys[slot] = stored
      values[slot] = value
      return value
    }
  }

  /// Plain mapping of pixels `from..<to`.
  private static func mapPixels(_ work: Work, from: Int, to: Int) {
    guard from < to else { return }
    let cache = EntryCache(bits: mappingCacheBits)
    defer { cache.deallocate() }
    let source = work.source
    let destination = work.destination
    var last = ~source[from]
    var index: UInt8 = 0
    for i in from..<to {
      let pixel = source[i]
      if pixel != last {
        index = UInt8(truncatingIfNeeded: cache.entry(pixel, work.search))
        last = pixel
      }
      destination[i] = index
    }
  }

  /// Floyd–Steinberg mapping of the whole image, serpentine, on one thread.
  /// `entries` are the palette's colours premultiplied (RGBA, 0...255).
  private static func ditherRows(_ work: Work, width: Int, height: Int, entries: [SIMD4<Int32>]) {
    let cache = EntryCache(bits: ditheringCacheBits)
    defer { cache.deallocate() }
    // Errors in 1/16 units for the row being mapped and the next, with a
    // guard column at each end (x + 1 is pixel x).
    let current = UnsafeMutableBufferPointer<SIMD4<Int32>>.allocate(capacity: width + 2)
    let next = UnsafeMutableBufferPointer<SIMD4<Int32>>.allocate(capacity: width + 2)
    current.initialize(repeating: .zero)
    next.initialize(repeating: .zero)
    defer {
      current.deallocate()
      next.deallocate()
    }
    let low = SIMD4<Int32>(repeating: 0)
    let high = SIMD4<Int32>(repeating: 255)
    entries.withUnsafeBufferPointer { entry in
      var row = current
      var below = next
      for y in 0..<height {
        let step = y & 1 == 0 ? 1 : -1
        var x = step == 1 ? 0 : width - 1
        let offset = y * width
        for _ in 0..<width {
          let stored = work.source[offset + x]
          let hit = cache.entry(stored, work.search)
          if hit & exactFlag != 0 {
            work.destination[offset + x] = UInt8(truncatingIfNeeded: hit)
            x += step
            continue
          }
          let v = UInt32(littleEndian: stored)
          var c = SIMD4<Int32>(Int32(v & 0xFF), Int32(v >> 8 & 0xFF), Int32(v >> 16 & 0xFF), Int32(v >> 24))
          c &+= (row[x + 1] &+ 8) &>> 4
          c.clamp(lowerBound: low, upperBound: high)
          // A premultiplied colour never exceeds its alpha.
          c = pointwiseMin(c, SIMD4(repeating: c.w))
          let adjusted = UInt32(c.x) | UInt32(c.y) << 8 | UInt32(c.z) << 16 | UInt32(c.w) << 24
          let k = Int(cache.entry(adjusted.littleEndian, work.search) & 0xFF)
          work.destination[offset + x] = UInt8(truncatingIfNeeded: k)
          let error = (c &- entry[k]) &* 7 / 8
          row[x + 1 + step] &+= error &* 7
          below[x + 1 - step] &+= error &* 3
          below[x + 1] &+= error &* 5
          below[x + 1 + step] &+= error
          x += step
        }
        swap(&row, &below)
        for i in 0..<(width + 2) { below[i] = .zero }
      }
    }
  }
}
