import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

internal import _MapSnapRaster

/// Pixel comparison as pixelmatch (mapbox/pixelmatch) defines it, so that
/// `mapsnap diff` counts what users of pixelmatch and Playwright expect:
///
/// - **Colour distance**: the squared distance in YIQ, `0.5053·ΔY² +
///   0.299·ΔI² + 0.1957·ΔQ²`, of the two pixels blended over white by their
///   alpha. A pixel differs when that distance exceeds `35215 × threshold²`
///   (35215 is the largest possible distance, so `threshold` runs from 0,
///   any change, to 1, none). `threshold` 0.1 by default, as pixelmatch.
/// - **Anti-aliasing**: a differing pixel is counted apart (not as a
///   difference) when, in either image, it looks like an anti-aliased edge:
///   at most two of its eight neighbours equal it, and its darkest and
///   brightest neighbours (by ΔY) each sit among at least three identical
///   neighbours in both images. `includeAA` counts them as differences.
///   That is pixelmatch 5 and later (`AntialiasDetection.siblings`);
///   `.pixelmatch4` is pixelmatch 4.0.2's rule, which the Mapbox GL render
///   suite pins: neighbours count as equal by brightness alone (ΔY = 0), the
///   image's edge adds nothing, and the darkest or brightest neighbour must
///   have more than two neighbours of its own brightness in both images.
/// - **Exact mode**: `threshold` 0 with `includeAA` counts every pixel whose
///   colour blended over white differs (fully transparent pixels of any
///   colour are equal, as in pixelmatch).
///
/// Rows are compared through a table of row pointers, so callers can stream:
/// comparing row y reads rows y − 2 … y + 2 of each image (the neighbours of
/// the neighbours), nothing else.
public struct PixelMatch: Sendable {
  public var threshold: Double
  public var includeAA: Bool
  /// How strongly the first image shows, faded, under the differences in
  /// the diff image (pixelmatch's `alpha`).
  public var fade: Double
  /// Which pixelmatch's anti-aliasing rule (``AntialiasDetection``).
  public var antialiasing: AntialiasDetection

  /// How a differing pixel is recognised as anti-aliasing.
  public enum AntialiasDetection: Sendable, Equatable {
    /// pixelmatch 5 and later (what `mapsnap diff` counts): at most two
    /// neighbours identical to the pixel (a missing neighbour on the image's
    /// edge counting as one), and its darkest or brightest neighbour among
    /// at least three identical neighbours (the edge counting as one) in
    /// both images.
    case siblings
    /// pixelmatch 4.0.2: neighbours are equal when their brightness (Y
    /// blended over white) is; at most two equal to the pixel, no allowance
    /// for the edge, and its darkest or brightest neighbour with more than
    /// two neighbours of its own brightness in both images.
    case pixelmatch4
  }

  public init(threshold: Double = 0.1, includeAA: Bool = false, fade: Double = 0.1, antialiasing: AntialiasDetection = .siblings) {
    self.threshold = threshold
    self.includeAA = includeAA
    self.fade = fade
    self.antialiasing = antialiasing
  }

  /// What the comparison found.
  public struct Counts: Sendable, Equatable {
    /// Pixels that differ (anti-aliased ones only with `includeAA`).
    public var differing = 0
    /// Differing pixels taken for anti-aliasing and not counted.
    public var antialiased = 0
    public init() {}
  }

  /// The largest YIQ distance, between black and white.
  static let maxDistance = 35215.0
  /// Colours of the diff image: differences red, anti-aliasing yellow
  /// (pixelmatch's defaults), as straight RGBA8 `UInt32`s.
  static let diffPixel: UInt32 = 0xFF00_00FF
  static let aaPixel: UInt32 = 0xFF00_FFFF

  /// Compares two whole images in memory (straight RGBA8, one `UInt32` per
  /// pixel, R in the low byte), in bands on `threads` workers (0: one per
  /// processor); writes the diff image into `diff` when given. The counts
  /// are the same for any number of workers.
  public func compare(
    _ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>, width: Int, height: Int,
    diff: UnsafeMutableBufferPointer<UInt32>? = nil, threads: Int = 0
  ) -> Counts {
    precondition(a.count >= width * height && b.count >= width * height)
    guard width > 0, height > 0 else { return Counts() }
    let tableA = UnsafeMutablePointer<UnsafePointer<UInt32>>.allocate(capacity: height)
    let tableB = UnsafeMutablePointer<UnsafePointer<UInt32>>.allocate(capacity: height)
    defer {
      tableA.deallocate()
      tableB.deallocate()
    }
    for y in 0..<height {
      tableA[y] = a.baseAddress! + y * width
      tableB[y] = b.baseAddress! + y * width
    }
    return compareRows(
      0, height, width: width, height: height, a: RowTable(UnsafePointer(tableA), base: 0), b: RowTable(UnsafePointer(tableB), base: 0),
      diff: diff?.baseAddress, threads: threads)
  }

  /// Compares rows `lo..<hi`: `a[y]` and `b[y]` point at row y of each
  /// image and must be valid for `lo − 2 ..< hi + 2` (within the image);
  /// `diff`, when given, receives rows `lo..<hi` (row `lo` first).
  func compareRows(
    _ lo: Int, _ hi: Int, width: Int, height: Int, a: RowTable, b: RowTable,
    diff: UnsafeMutablePointer<UInt32>?, threads: Int = 0
  ) -> Counts {
    let rows = hi - lo
    guard rows > 0 else { return Counts() }
    // Bands of at least 64 rows: enough work per task to pay for it.
    let workers = max(1, min(threads > 0 ? threads : activeProcessorCount(), (rows + 63) / 64))
    if workers == 1 { return compareBand(lo, hi, width: width, height: height, a: a, b: b, diff: diff) }
    let counts = UnsafeMutableBufferPointer<Counts>.allocate(capacity: workers)
    counts.initialize(repeating: Counts())
    defer { counts.deallocate() }
    let shared = BandInput(a: a, b: b, diff: diff, counts: counts)
    let match = self
    DispatchQueue.concurrentPerform(iterations: workers) { w in
      let from = lo + rows * w / workers
      let to = lo + rows * (w + 1) / workers
      shared.counts[w] = match.compareBand(
        from, to, width: width, height: height, a: shared.a, b: shared.b, diff: shared.diff.map { $0 + (from - lo) * width })
    }
    var total = Counts()
    for c in counts {
      total.differing += c.differing
      total.antialiased += c.antialiased
    }
    return total
  }

  private func compareBand(
    _ lo: Int, _ hi: Int, width: Int, height: Int, a: RowTable, b: RowTable,
    diff: UnsafeMutablePointer<UInt32>?
  ) -> Counts {
    var counts = Counts()
    let maxDelta = Self.maxDistance * threshold * threshold
    for y in lo..<hi {
      let ra = a[y]
      let rb = b[y]
      let out = diff.map { $0 + (y - lo) * width }
      // Identical rows: nothing to count (the common case), only to fade.
      if memcmp(ra, rb, width * 4) == 0 {
        if let out { for x in 0..<width { out[x] = gray(ra[x]) } }
        continue
      }
      for x in 0..<width {
        let p = ra[x]
        let q = rb[x]
        let delta = p == q ? 0 : Self.colorDelta(p, q, yOnly: false)
        if abs(delta) > maxDelta {
          if !includeAA && looksAntialiased(a, b, x, y, width, height) {
            counts.antialiased += 1
            out?[x] = Self.aaPixel
          } else {
            counts.differing += 1
            out?[x] = Self.diffPixel
          }
        } else if let out {
          out[x] = gray(p)
        }
      }
    }
    return counts
  }

  /// The first image's pixel, grey and faded towards white (pixelmatch's
  /// `drawGrayPixel`), opaque.
  @inline(__always) private func gray(_ p: UInt32) -> UInt32 {
    let (r, g, b, al) = Self.channels(p)
    let v = Self.blend(Self.y(r, g, b), fade * al / 255)
    let c = UInt32(max(0, min(255, v.rounded(.down))))
    return c | c << 8 | c << 16 | 0xFF00_0000
  }

  @inline(__always) static func channels(_ p: UInt32) -> (Double, Double, Double, Double) {
    (Double(p & 0xFF), Double((p >> 8) & 0xFF), Double((p >> 16) & 0xFF), Double(p >> 24))
  }

  @inline(__always) static func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }
  @inline(__always) static func y(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.29889531 + g * 0.58662247 + b * 0.11448223 }
  @inline(__always) static func i(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.59597799 - g * 0.27417610 - b * 0.32180189 }
  @inline(__always) static func q(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.21147017 - g * 0.52261711 + b * 0.31114694 }

  /// pixelmatch's `colorDelta`: the YIQ distance of two pixels blended over
  /// white (or only ΔY with `yOnly`), negative when the first is brighter.
  @inline(__always) static func colorDelta(_ p1: UInt32, _ p2: UInt32, yOnly: Bool) -> Double {
    var (r1, g1, b1, a1) = channels(p1)
    var (r2, g2, b2, a2) = channels(p2)
    if a1 < 255 {
      a1 /= 255
      r1 = blend(r1, a1)
      g1 = blend(g1, a1)
      b1 = blend(b1, a1)
    }
    if a2 < 255 {
      a2 /= 255
      r2 = blend(r2, a2)
      g2 = blend(g2, a2)
      b2 = blend(b2, a2)
    }
    let y1 = y(r1, g1, b1)
    let y2 = y(r2, g2, b2)
    let dy = y1 - y2
    if yOnly { return dy }
    let di = i(r1, g1, b1) - i(r2, g2, b2)
    let dq = q(r1, g1, b1) - q(r2, g2, b2)
    let delta = 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq
    return y1 > y2 ? -delta : delta
  }

  /// Whether (x, y) looks like anti-aliasing in either image, by the rule
  /// `antialiasing` names.
  @inline(__always) private func looksAntialiased(_ a: RowTable, _ b: RowTable, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Bool {
    Self.antialiased(a, x, y, width, height, other: b, rule: antialiasing)
      || Self.antialiased(b, x, y, width, height, other: a, rule: antialiasing)
  }

  /// pixelmatch's `antialiased`: whether (x1, y1) of `img` looks like an
  /// anti-aliased edge pixel. The two rules differ in two places: the
  /// image's edge counts as one equal neighbour (`siblings`) or as none
  /// (`pixelmatch4`), and the darkest and brightest neighbours are tested
  /// by `hasManySiblings` or by 4.0.2's `hasManyOfItsBrightness`.
  private static func antialiased(
    _ img: RowTable, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int,
    other: RowTable, rule: AntialiasDetection
  ) -> Bool {
    let (x0, y0, x2, y2, edge) = neighbourhood(x1, y1, width, height)
    let centre = img[y1][x1]
    var zeroes = rule == .siblings ? edge : 0
    var minDelta = 0.0
    var maxDelta = 0.0
    var minX = 0
    var minY = 0
    var maxX = 0
    var maxY = 0
    for x in x0...x2 {
      for y in y0...y2 {
        if x == x1 && y == y1 { continue }
        let delta = colorDelta(centre, img[y][x], yOnly: true)
        if delta == 0 {
          zeroes += 1
          if zeroes > 2 { return false }
        } else if delta < minDelta {
          minDelta = delta
          minX = x
          minY = y
        } else if delta > maxDelta {
          maxDelta = delta
          maxX = x
          maxY = y
        }
      }
    }
    if minDelta == 0 || maxDelta == 0 { return false }
    func settled(_ image: RowTable, _ x: Int, _ y: Int) -> Bool {
      rule == .siblings ? hasManySiblings(image, x, y, width, height) : hasManyOfItsBrightness(image, x, y, width, height)
    }
    return (settled(img, minX, minY) && settled(other, minX, minY)) || (settled(img, maxX, maxY) && settled(other, maxX, maxY))
  }

  /// pixelmatch 4.0.2's test of the darkest and brightest neighbours (its
  /// `antialiased` without a second image, negated): more than two of the
  /// pixel's neighbours have its brightness; the image's edge adds nothing.
  private static func hasManyOfItsBrightness(_ img: RowTable, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int) -> Bool {
    let (x0, y0, x2, y2, _) = neighbourhood(x1, y1, width, height)
    let centre = img[y1][x1]
    var zeroes = 0
    for x in x0...x2 {
      for y in y0...y2 {
        if x == x1 && y == y1 { continue }
        if colorDelta(centre, img[y][x], yOnly: true) == 0 {
          zeroes += 1
          if zeroes > 2 { return true }
        }
      }
    }
    return false
  }

  /// The 3 × 3 window around (x1, y1), clipped to the image, and the
  /// count pixelmatch starts its equal-neighbour tally at: 1 on the image's
  /// edge (a missing neighbour counts as one equal one), else 0.
  @inline(__always) private static func neighbourhood(
    _ x1: Int, _ y1: Int, _ width: Int, _ height: Int
  ) -> (x0: Int, y0: Int, x2: Int, y2: Int, edge: Int) {
    let x0 = max(x1 - 1, 0)
    let y0 = max(y1 - 1, 0)
    let x2 = min(x1 + 1, width - 1)
    let y2 = min(y1 + 1, height - 1)
    return (x0, y0, x2, y2, (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0)
  }

  /// pixelmatch's `hasManySiblings`: at least three of the pixel's
  /// neighbours (image edges count as one) are identical to it.
  private static func hasManySiblings(
    _ img: RowTable, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int
  ) -> Bool {
    let (x0, y0, x2, y2, edge) = neighbourhood(x1, y1, width, height)
    let centre = img[y1][x1]
    var zeroes = edge
    for x in x0...x2 {
      for y in y0...y2 {
        if x == x1 && y == y1 { continue }
        if img[y][x] == centre { zeroes += 1 }
        if zeroes > 2 { return true }
      }
    }
    return false
  }
}

/// Where rows `base ..< base + n` of an image are: `table[y]` is row y.
/// Streaming keeps only a window of rows, so the table starts at `base`.
struct RowTable: @unchecked Sendable {
  let rows: UnsafePointer<UnsafePointer<UInt32>>
  let base: Int

  init(_ rows: UnsafePointer<UnsafePointer<UInt32>>, base: Int) {
    self.rows = rows
    self.base = base
  }

  @inline(__always) subscript(y: Int) -> UnsafePointer<UInt32> { rows[y - base] }
}

/// Row tables and outputs handed to the band workers (each writes its own
/// rows and its own counts slot).
private struct BandInput: @unchecked Sendable {
  let a: RowTable
  let b: RowTable
  let diff: UnsafeMutablePointer<UInt32>?
  let counts: UnsafeMutableBufferPointer<PixelMatch.Counts>
}
