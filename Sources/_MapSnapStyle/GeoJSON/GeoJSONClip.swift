/// Cuts shapes to a band `k1 ≤ coordinate ≤ k2` of one axis, as geojson-vt
/// cuts a tile's geometry with its buffer: points outside are dropped, lines
/// are cut into the pieces inside, rings are cut and closed along the band's
/// edges (Sutherland–Hodgman, one edge at a time). A vertex made on an edge
/// is always kept by simplification (importance 1) and its distance along
/// the line is interpolated. A polygon whose exterior is cut away goes with
/// its holes.
enum GeoJSONClip {
  /// The shape's part in the band on `axis` (0: x, 1: y); nil when nothing is left.
  static func clip(_ shape: GeoJSONShape, _ k1: Double, _ k2: Double, axis: Int) -> GeoJSONShape? {
    let lo = axis == 0 ? shape.minX : shape.minY, hi = axis == 0 ? shape.maxX : shape.maxY
    if lo >= k1 && hi <= k2 { return shape }
    if hi < k1 || lo > k2 { return nil }
    var parts: [GeoJSONPart] = []
    var ends: [Int32] = []
    switch shape.kind {
    case .point:
      var c: [Double] = []
      for p in shape.parts {
        var i = 0
        while i < p.coords.count {
          let a = p.coords[i + axis]
          if a >= k1 && a <= k2 { c.append(contentsOf: p.coords[i..<(i + GeoJSONPart.stride)]) }
          i += GeoJSONPart.stride
        }
      }
      if !c.isEmpty { parts.append(GeoJSONPart(coords: c, size: 0, length: 0)) }
    case .lineString:
      for p in shape.parts { slice(p, k1, k2, axis: axis, into: &parts) }
    case .polygon:
      var start = 0
      for end in shape.polygonEnds {
        let first = parts.count
        for r in start..<Int(end) {
          var ring = shape.parts[r].coords
          ring = half(ring, k1, axis: axis, keepAbove: true)
          ring = half(ring, k2, axis: axis, keepAbove: false)
          if ring.count / GeoJSONPart.stride < 4 {
            if r == start { break }
            continue
          }
          parts.append(GeoJSONPart(coords: ring, size: shape.parts[r].size, length: 0))
        }
        if parts.count > first { ends.append(Int32(parts.count)) }
        start = Int(end)
      }
    default:
      return nil
    }
    guard !parts.isEmpty else { return nil }
    return GeoJSONShape(kind: shape.kind, parts: parts, polygonEnds: ends)
  }

  /// The vertex where segment a–b (vertex indices of `c`) meets `k` on `axis`.
  @inline(__always)
  private static func crossing(_ c: [Double], _ a: Int, _ b: Int, _ k: Double, axis: Int, into out: inout [Double]) {
    let s = GeoJSONPart.stride
    let t = (k - c[a * s + axis]) / (c[b * s + axis] - c[a * s + axis])
    let x = axis == 0 ? k : c[a * s] + (c[b * s] - c[a * s]) * t
    let y = axis == 1 ? k : c[a * s + 1] + (c[b * s + 1] - c[a * s + 1]) * t
    out.append(x); out.append(y); out.append(1)
    out.append(c[a * s + 3] + (c[b * s + 3] - c[a * s + 3]) * t)
  }

  /// The pieces of line `p` inside the band, each of at least two vertices.
  private static func slice(_ p: GeoJSONPart, _ k1: Double, _ k2: Double, axis: Int, into parts: inout [GeoJSONPart]) {
    let s = GeoJSONPart.stride
    let c = p.coords
    let n = c.count / s
    var piece: [Double] = []
    func finish() {
      if piece.count >= 2 * s { parts.append(GeoJSONPart(coords: piece, size: p.size, length: p.length)) }
      piece = []
    }
    if n == 1 {
      let a = c[axis]
      if a >= k1 && a <= k2 { parts.append(p) }
      return
    }
    for i in 0..<(n - 1) {
      let a = c[i * s + axis], b = c[(i + 1) * s + axis]
      let aIn = a >= k1 && a <= k2, bIn = b >= k1 && b <= k2
      if aIn {
        if piece.isEmpty { piece.append(contentsOf: c[(i * s)..<(i * s + s)]) }
      } else if (a < k1 && b > k2) || (a > k2 && b < k1) {
        // Crossing the whole band.
        finish()
        crossing(c, i, i + 1, a < k1 ? k1 : k2, axis: axis, into: &piece)
        crossing(c, i, i + 1, a < k1 ? k2 : k1, axis: axis, into: &piece)
        finish()
        continue
      } else if bIn {
        // Entering the band (at b itself when b is on its edge).
        finish()
        if b != k1 && b != k2 { crossing(c, i, i + 1, a < k1 ? k1 : k2, axis: axis, into: &piece) }
      } else {
        continue
      }
      if bIn {
        piece.append(contentsOf: c[((i + 1) * s)..<((i + 1) * s + s)])
      } else {
        // Leaving the band (at a itself when a is on its edge).
        let edge = b < k1 ? k1 : k2
        if a != edge { crossing(c, i, i + 1, edge, axis: axis, into: &piece) }
        finish()
      }
    }
    finish()
  }

  /// Closed ring `c` cut to `coordinate ≥ k` (`keepAbove`) or `≤ k`, closed again.
  private static func half(_ c: [Double], _ k: Double, axis: Int, keepAbove: Bool) -> [Double] {
    let s = GeoJSONPart.stride
    let n = c.count / s
    guard n >= 2 else { return [] }
    @inline(__always) func inside(_ i: Int) -> Bool { keepAbove ? c[i * s + axis] >= k : c[i * s + axis] <= k }
    var allIn = true
    for i in 0..<n where !inside(i) { allIn = false; break }
    if allIn { return c }
    var out: [Double] = []
    out.reserveCapacity(c.count + 2 * s)
    // The ring without its closing vertex: edges i → i + 1, the last back to 0.
    let m = n - 1
    for i in 0..<m {
      let j = i + 1 == m ? 0 : i + 1
      let iIn = inside(i), jIn = inside(j)
      if iIn { out.append(contentsOf: c[(i * s)..<(i * s + s)]) }
      if iIn != jIn { crossing(c, i, j, k, axis: axis, into: &out) }
    }
    if out.count >= s { out.append(contentsOf: out[0..<s]) }
    return out
  }
}
