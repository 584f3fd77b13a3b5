internal import _MapSnapRaster
internal import _MapSnapStyle

/// A line layer's `line-gradient` over a `lineMetrics` GeoJSON source: the
/// colour ramp of `["line-progress"]` (0 at a line's first vertex, 1 at its
/// last), sampled at `steps` evenly spaced progress values as MapLibre
/// samples it into its gradient texture. A line is drawn as runs of one
/// sampled colour, cut where the progress crosses from one sample to the
/// next (halfway between samples, the nearest sample's colour) unless both
/// give the same 8-bit colour. Each run but the last reaches `overlap`
/// device pixels into the next, which is drawn over it, so that no seam of
/// uncovered background shows where runs meet (only the antialiased edge
/// pixels over the overlap are covered twice); runs meet with butt ends,
/// and the line's own cap is drawn at its two ends.
struct StyleLineGradient {
  /// Samples of the ramp, as MapLibre's gradient texture is 256 wide.
  static let steps = 256
  /// How far a run reaches under the next, in device pixels: past the one
  /// pixel a coverage edge spreads over.
  static let overlap = 1.0
  /// The ramp's colours at progress i / (steps − 1).
  private let ramp: [StyleColor]

  /// The layer's `line-gradient` at zoom `zoom`; nil when it has none or
  /// it does not compile (a warning in `problems`, the line drawn in `line-color`).
  init?(_ layer: StyleLayer, zoom: Double, problems: inout [String]) {
    guard let json = layer.paint["line-gradient"], let spec = StyleReference.paint(layerType: "line", name: "line-gradient") else { return nil }
    switch StyleExpression.property(json, spec: spec) {
    case .success(let e):
      ramp = (0..<Self.steps).map { i in
        let progress = Double(i) / Double(Self.steps - 1)
        if case .color(let c) = e.evaluate(EvaluationContext(zoom: zoom, lineProgress: progress), nil) { return c }
        return .transparent
      }
    case .failure(let errors):
      let why = errors.errors.map { "\($0.key.isEmpty ? "" : $0.key + ": ")\($0.message)" }.joined(separator: "; ")
      problems.append("\(layer.path).paint[\"line-gradient\"]: \(why); the line is drawn in line-color")
      return nil
    }
  }

  /// The sample nearest progress `p`.
  @inline(__always) private static func sample(_ p: Double) -> Int {
    max(0, min(steps - 1, Int((p * Double(steps - 1)).rounded())))
  }

  /// Draws feature `f`'s lines (tile geometry through `t`, each point's
  /// progress in `progress`) with `paint`'s width, caps, joins, offset,
  /// blur and opacity; true when it drew something.
  func draw(
    _ f: EvaluationFeature, _ g: TileGeometry, progress: [Float], transform t: TileTransform, clip: [Point], paint: StylePaint, ratio: Double,
    into commands: inout [StyleDrawCommand]
  ) -> Bool {
    guard let width = paint.width else { return false }
    let w = width.number(f) * ratio
    let opacity = paint.opacity.number(f)
    guard w > 0, opacity > 0 else { return false }
    let cap = StylePaint.cap(paint.cap?.string(f))
    let style = StrokeStyle(width: w, join: StylePaint.join(paint.join?.string(f)), cap: .butt, miterLimit: paint.miterLimit?.number(f) ?? 2)
    let offset = (paint.offset?.number(f) ?? 0) * ratio
    let blur = max(0, paint.blur?.number(f) ?? 0) * ratio
    var drew = false
    let colors = ramp.map { StyleProperty.color($0, opacity: opacity) }
    func emit(_ points: [Point], _ sample: Int, _ s: StrokeStyle) {
      let c = colors[sample]
      guard c.a > 0, points.count >= 2 else { return }
      var path = Path()
      path.addContour(points, closed: false)
      commands.append(StyleDrawCommand(shape: .line(path, s, dash: nil, offset: offset, blur: blur), color: c, clip: clip))
      drew = true
    }
    for part in 0..<g.partCount {
      let start = part == 0 ? 0 : Int(g.partEnds[part - 1]), end = Int(g.partEnds[part])
      guard end - start >= 2, progress.count >= end else { continue }
      let pts = (start..<end).map { t.apply(Double(g.points[$0].x), Double(g.points[$0].y)) }
      let pr = (start..<end).map { Double(progress[$0]) }
      var run = [pts[0]]
      var current = Self.sample(pr[0])
      for i in 0..<(pts.count - 1) {
        let a = pts[i], b = pts[i + 1], pa = pr[i], pb = pr[i + 1]
        let target = Self.sample(pb)
        let len = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        // Each crossing of a halfway value between samples, in order along the segment.
        while current != target && pb != pa {
          let next = current + (target > current ? 1 : -1)
          let boundary = (Double(min(current, next)) + 0.5) / Double(Self.steps - 1)
          let u = max(0, min(1, (boundary - pa) / (pb - pa)))
          if colors[next] == colors[current] {
            // Samples of one 8-bit colour make one run.
            current = next
            continue
          }
          let cut = Point(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u)
          run.append(cut)
          if len > 0 {
            let reach = min(Self.overlap, len * (1 - u))
            run.append(Point(cut.x + (b.x - a.x) / len * reach, cut.y + (b.y - a.y) / len * reach))
          }
          emit(run, current, style)
          run = [cut]
          current = next
        }
        if let last = run.last, last.x != b.x || last.y != b.y { run.append(b) }
      }
      emit(run, current, style)
      if cap != .butt {
        // The line's own caps, each a sliver along its end segment.
        var capStyle = style
        capStyle.cap = cap
        for (p, q, s) in [(pts[0], pts[1], Self.sample(pr[0])), (pts[pts.count - 1], pts[pts.count - 2], Self.sample(pr[pr.count - 1]))] {
          let d = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
          guard d > 0 else { continue }
          let k = min(Self.overlap, d) / d
          emit([Point(p.x + (q.x - p.x) * k, p.y + (q.y - p.y) * k), p], s, capStyle)
        }
      }
    }
    return drew
  }
}
