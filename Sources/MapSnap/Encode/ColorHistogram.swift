/// The colours of an image and how many pixels have each, in bounded memory:
/// the input of ``PaletteQuantizer``.
///
/// **The rule.** Every pixel is counted (no sampling), in one pass in pixel
/// order, into at most ``maximumBuckets`` buckets held in a hash table of
/// twice that many slots. A bucket is keyed by the pixel's premultiplied
/// RGBA8 value with its low `precisionLoss` bits of each channel dropped:
/// 0 at first, so that each bucket is one exact pixel value. When a new
/// bucket would exceed the bound, the precision drops by one more bit per
/// channel, the buckets so far are merged into the coarser ones and the
/// pass goes on. At 4 bits lost at most 16⁴ = 65,536 buckets exist, so the
/// bound always holds. Each bucket also sums its pixels' channels, so its
/// colour (``colors``) is the mean of the pixels it holds, rounded to
/// nearest: exact for a bucket of one pixel value.
///
/// The memory is fixed whatever the image size (about 6 MiB for the default
/// bound), and the result depends only on the pixels, not on threads.
struct ColorHistogram {
  /// The most buckets kept: 65,536. Map frames have a few thousand distinct
  /// colours (fills, their anti-aliased edges, text halos), so they are
  /// counted exactly; raster imagery is counted in coarser buckets.
  static let maximumBuckets = 1 << 16

  /// Each bucket's colour: the mean of its pixels, premultiplied RGBA8 in
  /// the pixel layout (bytes R, G, B, A in memory), sorted by value.
  private(set) var colors: [UInt32] = []
  /// The number of pixels in each bucket, in the order of ``colors``.
  private(set) var counts: [Int] = []
  /// Bits dropped from each channel to make the buckets: 0 when every
  /// bucket is one exact pixel value.
  private(set) var precisionLoss = 0

  /// Counts `pixels` (premultiplied RGBA8) into at most `maximumBuckets`
  /// buckets (a power of two, at least 65,536 so the bound always holds).
  init(pixels: UnsafeBufferPointer<UInt32>, maximumBuckets: Int = ColorHistogram.maximumBuckets) {
    precondition(maximumBuckets >= 1 << 16 && maximumBuckets & (maximumBuckets - 1) == 0)
    var table = Table(capacity: maximumBuckets * 2)
    defer { table.deallocate() }
    guard let base = pixels.baseAddress, !pixels.isEmpty else { return }
    var loss = 0
    var mask = ~UInt32(0)
    var index = 0
    let count = pixels.count
    // Runs of equal pixels (flat fills) are counted with one table update.
    while index < count {
      let value = UInt32(littleEndian: base[index])
      var end = index &+ 1
      while end < count && base[end] == base[index] { end &+= 1 }
      let run = end &- index
      while !table.add(value, key: value & mask, count: run, summing: loss > 0, limit: maximumBuckets) {
        loss += 1
        let byte = UInt32(0xFF << loss & 0xFF)
        mask = byte &* 0x0101_0101
        table.rekey(mask: mask, keysAreColors: loss == 1)
      }
      index = end
    }
    precisionLoss = loss
    var buckets: [(color: UInt32, count: Int)] = []
    buckets.reserveCapacity(table.used)
    for slot in 0..<table.capacity where table.counts[slot] > 0 {
      let n = table.counts[slot]
      let color: UInt32
      if loss == 0 {
        color = table.keys[slot]
      } else {
        // Mean of each channel, rounded to nearest; a mean colour never
        // exceeds the mean alpha, so it stays a valid premultiplied pixel.
        var packed: UInt32 = 0
        for channel in 0..<4 {
          let sum = table.sums[slot &* 4 &+ channel]
          packed |= UInt32((sum &* 2 &+ UInt64(n)) / (UInt64(n) &* 2)) << (8 * UInt32(channel))
        }
        color = packed
      }
      buckets.append((color, n))
    }
    // Bucket means are distinct (they lie in distinct cells), so this is a total order.
    buckets.sort { $0.color < $1.color }
    colors = buckets.map { $0.color.littleEndian }
    counts = buckets.map(\.count)
  }

  /// Open addressing, linear probing, keyed by the bucket's masked value.
  private struct Table {
    let capacity: Int
    let keys: UnsafeMutablePointer<UInt32>
    /// 0 marks an empty slot.
    let counts: UnsafeMutablePointer<Int>
    /// Per slot, the sums of R, G, B, A (value layout) over its pixels; kept
    /// once precision is lost (before that each key is its own colour).
    let sums: UnsafeMutablePointer<UInt64>
    var used = 0

    init(capacity: Int) {
      self.capacity = capacity
      keys = .allocate(capacity: capacity)
      keys.initialize(repeating: 0, count: capacity)
      counts = .allocate(capacity: capacity)
      counts.initialize(repeating: 0, count: capacity)
      sums = .allocate(capacity: capacity * 4)
      sums.initialize(repeating: 0, count: capacity * 4)
    }

    func deallocate() {
      keys.deallocate()
      counts.deallocate()
      sums.deallocate()
    }

    @inline(__always) private func home(_ key: UInt32) -> Int {
      // Fibonacci hashing: the top bits of key × 2³² / φ.
      Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 40) & (capacity &- 1)
    }

    /// Adds `count` pixels of `value` to the bucket `key`; false (nothing
    /// added) when that would make more than `limit` buckets.
    @inline(__always) mutating func add(_ value: UInt32, key: UInt32, count: Int, summing: Bool, limit: Int) -> Bool {
      var slot = home(key)
      while counts[slot] != 0 && keys[slot] != key { slot = (slot &+ 1) & (capacity &- 1) }
      if counts[slot] == 0 {
        if used == limit { return false }
        used &+= 1
        keys[slot] = key
      }
      counts[slot] &+= count
      if summing {
        let n = UInt64(count)
        sums[slot &* 4] &+= UInt64(value & 0xFF) &* n
        sums[slot &* 4 &+ 1] &+= UInt64(value >> 8 & 0xFF) &* n
        sums[slot &* 4 &+ 2] &+= UInt64(value >> 16 & 0xFF) &* n
        sums[slot &* 4 &+ 3] &+= UInt64(value >> 24) &* n
      }
      return true
    }

    /// Merges every bucket into the bucket of `key & mask`, keeping sums
    /// (computed from the keys when `keysAreColors`: no precision lost yet).
    mutating func rekey(mask: UInt32, keysAreColors exact: Bool) {
      let old = (keys: [UInt32](UnsafeBufferPointer(start: keys, count: capacity)),
        counts: [Int](UnsafeBufferPointer(start: counts, count: capacity)),
        sums: [UInt64](UnsafeBufferPointer(start: sums, count: capacity * 4)))
      keys.update(repeating: 0, count: capacity)
      counts.update(repeating: 0, count: capacity)
      sums.update(repeating: 0, count: capacity * 4)
      used = 0
      for slot in 0..<capacity where old.counts[slot] > 0 {
        let key = old.keys[slot] & mask
        var target = home(key)
        while counts[target] != 0 && keys[target] != key { target = (target &+ 1) & (capacity &- 1) }
        if counts[target] == 0 {
          used &+= 1
          keys[target] = key
        }
        let n = old.counts[slot]
        counts[target] &+= n
        for channel in 0..<4 {
          let add =
            exact
            ? UInt64(old.keys[slot] >> (8 * UInt32(channel)) & 0xFF) &* UInt64(n)
            : old.sums[slot &* 4 &+ channel]
          sums[target &* 4 &+ channel] &+= add
        }
      }
    }
  }
}
