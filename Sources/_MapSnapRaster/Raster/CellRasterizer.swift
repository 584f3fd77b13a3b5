/// Exact-area coverage for one band of rows, in the AGG / FreeType `ftgrays` /
/// Blend2D family: every edge adds a signed `cover` (height crossed, in 1/256
/// px) and `area` (cover times the summed x fractions) to the cells it
/// crosses; one sweep per row turns the running cover sum into coverage.
///
/// Cells are a dense `(width + 1) × rows` grid plus one bit per cell marking
/// the touched ones, so the sweep visits only touched cells and fills the runs
/// between them as constant-coverage spans. Every value is computed from the
/// edge's absolute coordinates, so a row's coverage does not depend on which
/// band it falls in: output is identical for any band height.
struct CellRasterizer {
  let width: Int
  let stride: Int  // cells per row: width + 1 (x == width is the right border)
  let wordsPerRow: Int
  let capacityRows: Int
  let cover: UnsafeMutablePointer<Int32>
  let area: UnsafeMutablePointer<Int32>
  let touched: UnsafeMutablePointer<UInt64>
  /// Per row: lowest and highest touched word, or (Int32.max, -1) when none.
  let rowWords: UnsafeMutablePointer<(Int32, Int32)>

  init(width: Int, rows: Int) {
    self.width = width
    stride = width + 1
    wordsPerRow = (width + 1 + 63) / 64
    capacityRows = rows
    cover = .allocate(capacity: stride * rows)
    cover.initialize(repeating: 0, count: stride * rows)
    area = .allocate(capacity: stride * rows)
    area.initialize(repeating: 0, count: stride * rows)
    touched = .allocate(capacity: wordsPerRow * rows)
    touched.initialize(repeating: 0, count: wordsPerRow * rows)
    rowWords = .allocate(capacity: rows)
    rowWords.initialize(repeating: (Int32.max, -1), count: rows)
  }

  func deallocate() {
    cover.deallocate()
    area.deallocate()
    touched.deallocate()
    rowWords.deallocate()
  }

  /// Adds one piece of an edge inside cell `cx` of band row `r`.
  @inline(__always)
  private func addCell(_ r: Int, _ cx: Int, _ dCover: Int32, _ dArea: Int32) {
    let i = r &* stride &+ cx
    cover[i] &+= dCover
    area[i] &+= dArea
    let w = cx >> 6
    touched[r &* wordsPerRow &+ w] |= 1 &<< UInt64(cx & 63)
    let ww = Int32(truncatingIfNeeded: w)
    if ww < rowWords[r].0 { rowWords[r].0 = ww }
    if ww > rowWords[r].1 { rowWords[r].1 = ww }
  }

  /// Accumulates `edge` into rows `top..<bottom` (canvas rows; band row 0 is `top`).
  @inline(__always)
  func add(_ e: Edge, top: Int, bottom: Int) {
    let yStart = max(Int(e.y0), top << 8)
    let yEnd = min(Int(e.y1), bottom << 8)
    if yStart >= yEnd { return }
    let x0 = Int(e.x0)
    let dx = Int(e.x1) &- x0
    let ey0 = Int(e.y0)
    let dy = Int(e.y1) &- ey0
    let dir = Int32(e.winding)
    var row = yStart >> 8
    var ya = yStart
    if row == (yEnd &- 1) >> 8 && yStart == Int(e.y0) && yEnd == Int(e.y1) {
      // The whole edge lies in one row: no division needed.
      let rowTop = row << 8
      rowSegment(row &- top, x0, ya &- rowTop, Int(e.x1), yEnd &- rowTop, dir)
      return
    }
    if dx == 0 {
      // Vertical: one cell per row.
      let cx = x0 >> 8
      let fx2 = Int32(truncatingIfNeeded: (x0 & 255) << 1)
      while ya < yEnd {
        let yb = min(yEnd, (row &+ 1) << 8)
        let h = Int32(truncatingIfNeeded: yb &- ya) &* dir
        addCell(row &- top, cx, h, fx2 &* h)
        ya = yb
        row &+= 1
      }
      return
    }
    // x on the edge at fixed-point y, from the absolute edge equation.
    @inline(__always) func xAt(_ y: Int) -> Int {
      x0 &+ floorDiv((y &- ey0) &* dx, dy)
    }
    var xa = xAt(ya)
    while ya < yEnd {
      let rowTop = row << 8
      let yb = min(yEnd, rowTop &+ 256)
      let xb = yb == Int(e.y1) ? Int(e.x1) : xAt(yb)
      rowSegment(row &- top, xa, ya &- rowTop, xb, yb &- rowTop, dir)
      ya = yb
      xa = xb
      row &+= 1
    }
  }

  /// One edge piece inside a single row, from (x1, fy1) to (x2, fy2), with
  /// fy in 0...256 measured from the row's top.
  @inline(__always)
  private func rowSegment(_ r: Int, _ x1: Int, _ fy1: Int, _ x2: Int, _ fy2: Int, _ dir: Int32) {
    let dyRow = fy2 &- fy1
    if dyRow == 0 { return }
    let ex1 = x1 >> 8
    let ex2 = x2 >> 8
    if ex1 == ex2 {
      let h = Int32(truncatingIfNeeded: dyRow) &* dir
      let fx = Int32(truncatingIfNeeded: (x1 & 255) &+ (x2 & 255))
      addCell(r, ex1, h, fx &* h)
      return
    }
    let dxRow = x2 &- x1
    var py = fy1
    var px = x1
    if dxRow > 0 {
      var cx = ex1
      while cx < ex2 {
        let bx = (cx &+ 1) << 8
        let by = fy1 &+ (bx &- x1) &* dyRow / dxRow
        let h = Int32(truncatingIfNeeded: by &- py) &* dir
        let fx = Int32(truncatingIfNeeded: (px &- (cx << 8)) &+ 256)
        addCell(r, cx, h, fx &* h)
        px = bx
        py = by
        cx &+= 1
      }
      let h = Int32(truncatingIfNeeded: fy2 &- py) &* dir
      let fx = Int32(truncatingIfNeeded: x2 &- (ex2 << 8))
      addCell(r, ex2, h, fx &* h)
    } else {
      var cx = ex1
      while cx > ex2 {
        let bx = cx << 8
        let by = fy1 &+ (bx &- x1) &* dyRow / dxRow
        let h = Int32(truncatingIfNeeded: by &- py) &* dir
        let fx = Int32(truncatingIfNeeded: px &- bx)
        addCell(r, cx, h, fx &* h)
        px = bx
        py = by
        cx &-= 1
      }
      let h = Int32(truncatingIfNeeded: fy2 &- py) &* dir
      let fx = Int32(truncatingIfNeeded: 256 &+ (x2 &- (ex2 << 8)))
      addCell(r, ex2, h, fx &* h)
    }
  }

  /// Sweeps band rows `0..<rows`, painting coverage of `paint` into `target`
  /// (row `r` at `target + r * width`), and clears the cells it read.
  @inline(__always)
  func sweep(
    rows: Int, rule: FillRule, paint: UInt32, target: UnsafeMutablePointer<UInt32>
  ) {
    sweep(rows: rows, rule: rule, spans: SolidSpans(paint: paint), top: 0, target: target)
  }

  /// Sweeps band rows `0..<rows` (canvas rows `top...`), painting each run
  /// of equal coverage with `spans`, and clears the cells it read.
  @inline(__always)
  func sweep<Spans: SpanPainter>(
    rows: Int, rule: FillRule, spans: Spans, top: Int, target: UnsafeMutablePointer<UInt32>
  ) {
    let evenOdd = rule == .evenOdd
    for r in 0..<rows {
      let (w0, w1) = rowWords[r]
      if w1 < 0 { continue }
      rowWords[r] = (Int32.max, -1)
      let dst = target + r &* width
      let y = top &+ r
      let cellBase = r &* stride
      let bitBase = r &* wordsPerRow
      var acc: Int32 = 0
      var next = 0  // first pixel not yet painted
      for w in Int(w0)...Int(w1) {
        var bits = touched[bitBase &+ w]
        if bits == 0 { continue }
        touched[bitBase &+ w] = 0
        while bits != 0 {
          let cx = (w << 6) &+ bits.trailingZeroBitCount
          bits &= bits &- 1
          if cx > next && acc != 0 {
            spans.paint(dst, x: next, y: y, count: min(cx, width) &- next, coverage: coverage(acc << 9, evenOdd))
          }
          let i = cellBase &+ cx
          acc &+= cover[i]
          let a = (acc << 9) &- area[i]
          cover[i] = 0
          area[i] = 0
          if cx < width {
            spans.paint(dst, x: cx, y: y, count: 1, coverage: coverage(a, evenOdd))
          }
          next = cx &+ 1
        }
      }
      if acc != 0 && next < width {
        spans.paint(dst, x: next, y: y, count: width &- next, coverage: coverage(acc << 9, evenOdd))
      }
    }
  }
}

/// What a sweep paints a run of pixels of one coverage with.
protocol SpanPainter {
  /// Paints pixels `x..<x + count` of canvas row `y` (`row` is the row's
  /// first pixel) at coverage `coverage` (0...255).
  func paint(_ row: UnsafeMutablePointer<UInt32>, x: Int, y: Int, count: Int, coverage: UInt32)
}

/// One premultiplied colour.
struct SolidSpans: SpanPainter {
  let paint: UInt32

  @inline(__always)
  func paint(_ row: UnsafeMutablePointer<UInt32>, x: Int, y: Int, count: Int, coverage: UInt32) {
    blendSpan(row + x, count, paint, coverage)
  }
}

/// Coverage 0...255 from a swept area value (cover sum × 512 − area), by the
/// fill rule: non-zero clamps, even-odd folds every 2 × 256.
@inline(__always)
func coverage(_ a: Int32, _ evenOdd: Bool) -> UInt32 {
  var c = UInt32(truncatingIfNeeded: (a >> 9).magnitude)
  if evenOdd {
    c &= 511
    if c > 256 { c = 512 &- c }
  }
  return c > 255 ? 255 : c
}

/// Integer division rounding towards negative infinity.
@inline(__always)
func floorDiv(_ a: Int, _ b: Int) -> Int {
  let q = a / b
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q &- 1 : q
}
