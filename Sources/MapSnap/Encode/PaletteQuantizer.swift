/// Reduces a premultiplied RGBA8 image to a palette of at most 256 colours
/// and an index per pixel: mapsnap's own quantiser for PNG8 output
/// (``PaletteOptions``), deterministic and with protection for thin lines.
///
/// **Colour space.** Colours are compared in Oklab (``Oklab``), premultiplied:
/// a straight colour `(L, a, b)` with alpha `α` (`0...1`) is the point
/// `(L·α, a·α, b·α, α·w)` with ``alphaWeight`` `w`. Distances there are ΔE
/// in Oklab for opaque colours, shrink with coverage for translucent ones
/// (as the colour's visible contribution does), and every fully
/// transparent colour is the same point.
///
/// **The rules, in order.**
/// 1. *Histogram.* Every pixel is counted into at most 65,536 colour buckets
///    (``ColorHistogram``: exact pixel values, or coarser buckets holding
///    their pixels' mean when an image has more distinct values). Memory is
///    bounded whatever the frame size; no pixel is skipped.
/// 2. *Lossless case.* When the image has at most `colors` distinct pixel
///    values, the palette is exactly those colours (straight alpha, as the
///    true-colour PNG writes them) and nothing below applies.
/// 3. *Variance split.* Otherwise the colours, weighted by pixel count, start
///    in one box; the box with the largest weighted sum of squared
///    distances to its mean is split, along its axis of largest variance,
///    at the cut that leaves the least total squared distance in the two
///    halves; until there are `colors` boxes. Each box's mean is an entry.
/// 4. *Refinement.* ``refinementRounds`` rounds of k-means (Lloyd) on the
///    histogram: each colour joins its nearest entry, each entry moves to
///    its colours' weighted mean, except that an entry whose heaviest
///    colour holds at least ``dominantShare`` of its pixels becomes exactly
///    that colour, so a map's fills keep their exact colours. An entry left
///    with no colour is moved to the colour with the largest error
///    (pixels × distance²).
/// 5. *Thin-line protection.* A colour farther than ``protectionDistance``
///    from every entry is *lost* (a 1-px line of its own colour drawn over
///    fills has too few pixels for k-means to care). While lost colours
///    remain, up to `colors / 4` of them, the one with the largest
///    distance × √pixels gets an entry of its own, exactly its colour, kept
///    fixed from then on; the slot comes from merging the two unprotected
///    entries whose merge costs least (Ward's criterion: `wᵢ·wⱼ / (wᵢ + wⱼ)`
///    × squared distance, w the pixels each holds). Then
///    ``finalRounds`` more rounds of k-means with protected entries fixed.
/// 6. *Entries.* An entry keeps the exact colour it was snapped to, or is
///    its mean converted back to straight 8-bit sRGB and alpha (rounded).
///    Equal entries are merged; translucent entries come first
///    (``QuantizedImage/palette``).
/// 7. *Mapping* (``PaletteMapper``): each pixel takes its nearest entry
///    (ties to the lower index); optional Floyd–Steinberg dithering.
///
/// **Determinism.** The result depends only on the pixels and the options:
/// the histogram and the palette are built on one thread in a fixed order,
/// and mapping pixels to entries is a pure function of each pixel (rows may
/// be mapped on several threads; dithering runs serially). Equal input gives
/// equal output on every run and for every thread count.
package enum PaletteQuantizer {
  /// Weight of alpha against Oklab lightness: opaque black and fully
  /// transparent are this far apart (black and white are 1 apart).
  static let alphaWeight = 1.0
  /// ΔE (Oklab) beyond which a colour with no near entry is protected
  /// (rule 5): 0.05 is about 2.5 times a just-noticeable difference, well
  /// above the error of any entry k-means gives a colour it weighs.
  static let protectionDistance = 0.05
  /// k-means rounds after the variance split (rule 4); each round stops the
  /// loop early when no colour changes entry.
  static let refinementRounds = 8
  /// k-means rounds after thin-line protection (rule 5).
  static let finalRounds = 3
  /// Share of an entry's pixels its heaviest colour must hold for the entry
  /// to become exactly that colour (rule 4).
  static let dominantShare = 0.5

  /// Quantises an image to at most `options.colors` colours.
  ///
  /// - Parameters:
  ///   - pixels: `width * height` premultiplied RGBA8 pixels as
  ///     ``PNGEncoder/encode(premultipliedRGBA:width:height:options:)`` takes them.
  ///   - options: Palette size (`2...256`) and dithering.
  ///   - threads: Threads mapping pixels to entries (0: one per processor);
  ///     the result is the same for every value.
  /// - Throws: ``PNGError/invalidDimensions(width:height:)``,
  ///   ``PNGError/pixelBufferTooSmall(required:actual:)`` or
  ///   ``PNGError/invalidPaletteColors(_:)``.
  public static func quantize(
    premultipliedRGBA pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int,
    options: PaletteOptions = PaletteOptions(), threads: Int = 0
  ) throws(PNGError) -> QuantizedImage {
    guard width > 0, height > 0, !width.multipliedReportingOverflow(by: height).overflow else {
      throw .invalidDimensions(width: width, height: height)
    }
    let count = width * height
    guard pixels.count >= count, let base = pixels.baseAddress else {
      throw .pixelBufferTooSmall(required: count, actual: pixels.count)
    }
    guard PaletteOptions.allowedColors.contains(options.colors) else {
      throw .invalidPaletteColors(options.colors)
    }
    let image = UnsafeBufferPointer(start: base, count: count)
    let histogram = ColorHistogram(pixels: image)
    let chosen = choosePalette(histogram, colors: options.colors)
    let palette = orderedPalette(chosen.entries)
    let indices = PaletteMapper.map(image, width: width, height: height, palette: palette.entries, dither: options.dither, threads: threads)
    return QuantizedImage(
      width: width, height: height, palette: palette.entries.map(\.littleEndian), translucentCount: palette.translucent,
      indices: indices, isLossless: chosen.lossless)
  }

  // MARK: - Colour space

  /// Straight RGBA8 from premultiplied (both in value layout, R the low
  /// byte), by ``PNGEncoder``'s rule: `c' = min(255, (c·255 + a/2) / a)`,
  /// `a == 0` gives 0.
  @inline(__always) static func straight(_ pixel: UInt32) -> UInt32 {
    let alpha = pixel >> 24
    if alpha == 255 { return pixel }
    if alpha == 0 { return 0 }
    @inline(__always) func channel(_ c: UInt32) -> UInt32 { min(255, (c &* 255 &+ alpha / 2) / alpha) }
    return channel(pixel & 0xFF) | channel(pixel >> 8 & 0xFF) << 8 | channel(pixel >> 16 & 0xFF) << 16 | alpha << 24
  }

  /// Straight RGBA8 to premultiplied, rounded to nearest (value layout).
  @inline(__always) static func premultiplied(_ pixel: UInt32) -> SIMD4<Int32> {
    let a = Int32(pixel >> 24)
    @inline(__always) func channel(_ c: UInt32) -> Int32 { (Int32(c) &* a &+ 127) / 255 }
    return SIMD4(channel(pixel & 0xFF), channel(pixel >> 8 & 0xFF), channel(pixel >> 16 & 0xFF), a)
  }

  /// The point of a straight RGBA8 colour (value layout) in the quantiser's
  /// space: premultiplied Oklab and weighted alpha.
  static func point(straight pixel: UInt32) -> SIMD4<Double> {
    let alpha = Double(pixel >> 24) / 255
    if alpha == 0 { return .zero }
    let lab = Oklab(red: UInt8(pixel & 0xFF), green: UInt8(pixel >> 8 & 0xFF), blue: UInt8(pixel >> 16 & 0xFF))
    return SIMD4(lab.l * alpha, lab.a * alpha, lab.b * alpha, alpha * alphaWeight)
  }

  /// The straight RGBA8 colour (value layout) nearest a point: alpha
  /// rounded, colour un-premultiplied and rounded in sRGB.
  static func color(of point: SIMD4<Double>) -> UInt32 {
    let alpha = min(1, max(0, point.w / alphaWeight))
    let alpha8 = UInt32((alpha * 255).rounded())
    if alpha8 == 0 { return 0 }
    let rgb = Oklab(l: point.x / alpha, a: point.y / alpha, b: point.z / alpha).srgb8
    return UInt32(rgb.red) | UInt32(rgb.green) << 8 | UInt32(rgb.blue) << 16 | alpha8 << 24
  }

  // MARK: - Choosing the palette

  /// Rules 2–6: the palette entries (straight, value layout, possibly
  /// repeated) for the histogram.
  static func choosePalette(_ histogram: ColorHistogram, colors: Int) -> (entries: [UInt32], lossless: Bool) {
    let straightColors = histogram.colors.map { straight(UInt32(littleEndian: $0)) }
    if histogram.precisionLoss == 0 && straightColors.count <= colors {
      return (straightColors, true)
    }
    var clusters = Clusters(
      points: straightColors.map(point(straight:)), weights: histogram.counts.map(Double.init))
    clusters.split(into: colors)
    clusters.refine(rounds: refinementRounds)
    if clusters.protectLostColors(limit: colors / 4) > 0 {
      clusters.refine(rounds: finalRounds)
    }
    return (clusters.entries(straightColors: straightColors), false)
  }

  /// Distinct entries, translucent ones first (by alpha, then value), then
  /// opaque ones by value.
  static func orderedPalette(_ entries: [UInt32]) -> (entries: [UInt32], translucent: Int) {
    let unique = Array(Set(entries)).sorted { p, q in
      let (pa, qa) = (p >> 24, q >> 24)
      if (pa == 255) != (qa == 255) { return pa != 255 }
      return pa != qa ? pa < qa : p < q
    }
    return (unique, unique.count(where: { $0 >> 24 != 255 }))
  }

  /// The k-means state over the histogram's colours: rules 3–6.
  struct Clusters {
    /// The histogram's colours in the quantiser's space, and their pixel counts.
    let points: [SIMD4<Double>]
    let weights: [Double]
    /// The entries: centre, the colour (index into `points`) it is exactly,
    /// or -1, and whether thin-line protection fixed it.
    var centres: [SIMD4<Double>] = []
    var exemplars: [Int] = []
    var fixed: [Bool] = []
    /// Each colour's entry and its distance² to it (after ``assign()``).
    var assignment: [Int] = []
    var distances: [Double] = []

    init(points: [SIMD4<Double>], weights: [Double]) {
      self.points = points
      self.weights = weights
    }

    /// Rule 3: variance split into at most `k` boxes, each giving an entry.
    mutating func split(into k: Int) {
      var order = Array(points.indices)
      struct Box {
        var lo: Int
        var hi: Int
        var error: Double
      }
      func sums(_ lo: Int, _ hi: Int) -> (w: Double, s: SIMD4<Double>, q: SIMD4<Double>) {
        var w = 0.0
        var s = SIMD4<Double>.zero
        var q = SIMD4<Double>.zero
        for i in order[lo..<hi] {
          let p = points[i]
          w += weights[i]
          s += weights[i] * p
          q += weights[i] * p * p
        }
        return (w, s, q)
      }
      func perAxis(_ w: Double, _ s: SIMD4<Double>, _ q: SIMD4<Double>) -> SIMD4<Double> {
        // Σw·(p − mean)² per axis; rounding may leave a tiny negative.
        w > 0 ? pointwiseMax(q - s * s / w, .zero) : .zero
      }
      let all = sums(0, order.count)
      var boxes = [Box(lo: 0, hi: order.count, error: perAxis(all.w, all.s, all.q).sum())]
      while boxes.count < k {
        var pick = -1
        for (b, box) in boxes.enumerated() where box.hi - box.lo >= 2 && box.error > 0 {
          if pick < 0 || box.error > boxes[pick].error { pick = b }
        }
        if pick < 0 { break }
        let box = boxes[pick]
        let total = sums(box.lo, box.hi)
        let variance = perAxis(total.w, total.s, total.q)
        var axis = 0
        for a in 1..<4 where variance[a] > variance[axis] { axis = a }
        order[box.lo..<box.hi].sort { i, j in
          points[i][axis] != points[j][axis] ? points[i][axis] < points[j][axis] : i < j
        }
        // The cut with the least squared error on both sides, over all axes.
        var w = 0.0
        var s = SIMD4<Double>.zero
        var q = SIMD4<Double>.zero
        var best = (cut: box.lo + 1, error: Double.infinity, left: 0.0, right: 0.0)
        for cut in (box.lo + 1)..<box.hi {
          let i = order[cut - 1]
          w += weights[i]
          s += weights[i] * points[i]
          q += weights[i] * points[i] * points[i]
          let left = perAxis(w, s, q).sum()
          let right = perAxis(total.w - w, total.s - s, total.q - q).sum()
          if left + right < best.error { best = (cut, left + right, left, right) }
        }
        boxes[pick] = Box(lo: box.lo, hi: best.cut, error: best.left)
        boxes.append(Box(lo: best.cut, hi: box.hi, error: best.right))
      }
      centres = []
      exemplars = []
      for box in boxes {
        let (w, s, _) = sums(box.lo, box.hi)
        centres.append(w > 0 ? s / w : points[order[box.lo]])
        exemplars.append(-1)
      }
      fixed = Array(repeating: false, count: centres.count)
    }

    /// Each colour's nearest entry (ties to the lower entry) and distance².
    /// True when some colour changed entry.
    @discardableResult
    mutating func assign() -> Bool {
      let search = NearestColorSearch(centres.map(SIMD4<Float>.init))
      defer { search.deallocate() }
      var changed = assignment.count != points.count
      if changed {
        assignment = Array(repeating: -1, count: points.count)
        distances = Array(repeating: 0, count: points.count)
      }
      for i in points.indices {
        let (id, _) = search.nearest(SIMD4<Float>(points[i]))
        if assignment[i] != id { changed = true }
        assignment[i] = id
        let d = points[i] - centres[id]
        distances[i] = (d * d).sum()
      }
      return changed
    }

    /// The pixels each entry holds (after ``assign()``).
    func clusterWeights() -> [Double] {
      var w = Array(repeating: 0.0, count: centres.count)
      for i in points.indices { w[assignment[i]] += weights[i] }
      return w
    }

    /// Rule 4: k-means rounds; fixed entries do not move.
    mutating func refine(rounds: Int) {
      for _ in 0..<rounds {
        let changed = assign()
        var w = Array(repeating: 0.0, count: centres.count)
        var s = Array(repeating: SIMD4<Double>.zero, count: centres.count)
        var heaviest = Array(repeating: -1, count: centres.count)
        for i in points.indices {
          let k = assignment[i]
          w[k] += weights[i]
          s[k] += weights[i] * points[i]
          if heaviest[k] < 0 || weights[i] > weights[heaviest[k]] { heaviest[k] = i }
        }
        var empty: [Int] = []
        for k in centres.indices where !fixed[k] {
          if w[k] == 0 {
            empty.append(k)
          } else if weights[heaviest[k]] >= dominantShare * w[k] {
            centres[k] = points[heaviest[k]]
            exemplars[k] = heaviest[k]
          } else {
            centres[k] = s[k] / w[k]
            exemplars[k] = -1
          }
        }
        // An empty entry moves to the colour with the largest error.
        var taken = Set<Int>()
        for k in empty {
          var worst = -1
          var worstError = 0.0
          for i in points.indices where !taken.contains(i) {
            let e = weights[i] * distances[i]
            if e > worstError { (worst, worstError) = (i, e) }
          }
          guard worst >= 0 else { continue }
          taken.insert(worst)
          centres[k] = points[worst]
          exemplars[k] = worst
        }
        if !changed && empty.isEmpty { break }
      }
    }

    /// Rule 5: gives up to `limit` lost colours an entry of their own;
    /// returns how many it protected.
    mutating func protectLostColors(limit: Int) -> Int {
      let threshold = protectionDistance * protectionDistance
      assign()
      var protected = 0
      while protected < limit {
        // The lost colour with the largest distance × √pixels.
        var pick = -1
        var pickPriority = 0.0
        for i in points.indices where distances[i] > threshold {
          let priority = distances[i] * weights[i]  // (distance × √pixels)², same order
          if priority > pickPriority { (pick, pickPriority) = (i, priority) }
        }
        if pick < 0 { break }
        // The cheapest merge of two unprotected entries frees a slot.
        let w = clusterWeights()
        var pair = (a: -1, b: -1, cost: Double.infinity)
        for a in centres.indices where !fixed[a] {
          for b in (a + 1)..<centres.count where !fixed[b] {
            let d = centres[a] - centres[b]
            let sum = w[a] + w[b]
            let cost = sum > 0 ? w[a] * w[b] / sum * (d * d).sum() : 0
            if cost < pair.cost { pair = (a, b, cost) }
          }
        }
        if pair.a < 0 { break }
        let sum = w[pair.a] + w[pair.b]
        if sum > 0 { centres[pair.a] = (w[pair.a] * centres[pair.a] + w[pair.b] * centres[pair.b]) / sum }
        exemplars[pair.a] = -1
        centres[pair.b] = points[pick]
        exemplars[pair.b] = pick
        fixed[pair.b] = true
        protected += 1
        // Colours of the two changed entries look again; the others only
        // compare with the two.
        let search = NearestColorSearch(centres.map(SIMD4<Float>.init))
        defer { search.deallocate() }
        for i in points.indices {
          if assignment[i] == pair.a || assignment[i] == pair.b {
            let id = search.nearest(SIMD4<Float>(points[i])).id
            let d = points[i] - centres[id]
            assignment[i] = id
            distances[i] = (d * d).sum()
          } else {
            for k in [pair.a, pair.b] {
              let d = points[i] - centres[k]
              let distance = (d * d).sum()
              if distance < distances[i] || (distance == distances[i] && k < assignment[i]) {
                assignment[i] = k
                distances[i] = distance
              }
            }
          }
        }
      }
      return protected
    }

    /// Rule 6: the entries that hold pixels, as straight RGBA8 (value layout).
    mutating func entries(straightColors: [UInt32]) -> [UInt32] {
      assign()
      let w = clusterWeights()
      var out: [UInt32] = []
      for k in centres.indices where w[k] > 0 {
        out.append(exemplars[k] >= 0 ? straightColors[exemplars[k]] : PaletteQuantizer.color(of: centres[k]))
      }
      return out
    }
  }
}
