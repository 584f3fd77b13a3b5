internal import _MapSnapRaster

import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Parts and flags written by index from parallel workers, each index by one
/// worker only.
private struct SendableBuffers: @unchecked Sendable {
  let parts: UnsafeMutableBufferPointer<DisplayList>
  let flags: UnsafeMutableBufferPointer<Bool>
  /// Per flag: the feature alone would overspend the edge budget (not drawn).
  let tooBig: UnsafeMutableBufferPointer<Bool>
  /// Per chunk: its build stopped early because the budget was spent.
  let stopped: UnsafeMutableBufferPointer<Bool>
}

/// Edges and image pixels built so far by every worker: when either passes
/// its budget, builders stop, so memory stays near the budget whatever the
/// data. Which chunks are drawn is decided afterwards, in order.
private final class Spent: Sendable {
  let edges = Atomic<Int>(0)
  let imagePixels = Atomic<Int>(0)

  func exceeds(_ budget: FrameBudget) -> Bool {
    edges.load(ordering: .relaxed) > budget.edges || imagePixels.load(ordering: .relaxed) > budget.imagePixels
  }
}

/// Turns a resolved `MapState` and its placed text into a `DisplayList` in
/// device pixels: layers bottom-up (a translucent layer as one group), and
/// within a layer each feature in order: polygon fills, then strokes, then
/// markers; then the layer's annotation text; above every layer the labels,
/// then the view annotations. While building it records what reaches the
/// image (`Coverage`).
///
/// Rules fixed here: sizes are logical pixels times the pixel ratio; strokes
/// thinner than one device pixel are drawn one pixel wide with their alpha
/// scaled by the width (hairlines); lines are clipped to the frame grown by
/// the stroke's reach (`SymbolReach.stroke`) plus `clipMargin` before they are
/// stroked, keeping the dash phase; rings and lines are reduced to the
/// rasteriser's precision (`DevicePrecision.reduceVertices`) in device space,
/// before they are filled, clipped and stroked.
struct DisplayListBuilder: Sendable {
  let state: MapState
  /// Per layer, per annotation text: its glyphs when drawn.
  let annotations: [Int: [PreparedText?]]
  /// Placed labels in drawing order.
  let labels: [PreparedText]
  /// Placed view annotations, drawn above the map, with their text.
  let boxes: [(box: PlacedBox, text: PreparedText)]
  /// The attribution line, drawn above everything else.
  let attribution: PreparedText?
  /// Flattening tolerance in device pixels for round joins, caps, markers
  /// and rounded boxes.
  var tolerance = Flattening.tolerance
  /// Worker threads; 0 means one per active processor.
  var threads = 0
  /// The frame's budget; nil: `FrameBudget(state.viewport)`.
  var budget: FrameBudget? = nil

  /// Clipped lines end this many device pixels beyond the stroke's reach, so
  /// that the clip never cuts an anti-aliased edge.
  static let clipMargin = 2.0

  /// Rasterises the glyphs of `text` and `boxes` (serially, through `fonts`)
  /// and keeps them for the build.
  init(state: MapState, text: TextPlacement, boxes: [PlacedBox], attribution: GlyphRun? = nil, fonts: FontLibrary?, threads: Int = 0) {
    self.state = state
    self.threads = threads
    var annotations: [Int: [PreparedText?]] = [:]
    var labels: [PreparedText] = []
    var prepared: [(PlacedBox, PreparedText)] = []
    var credit: PreparedText? = nil
    if let fonts {
      let glyphs = GlyphRasterizer(fonts: fonts)
      // The masks the passes below take, made side by side first, in the
      // order those passes ask for them.
      var runs: [GlyphRun] = []
      for (_, texts) in text.annotations.sorted(by: { $0.key < $1.key }) { runs += texts.compactMap(\.run) }
      runs += text.labels.map(\.run)
      runs += boxes.map(\.text)
      if let attribution { runs.append(attribution) }
      fonts.prepareMasks(
        runs.filter { $0.poses == nil && $0.usesMasks }.map { ($0.block, $0.origin, $0.haloWidth) }, threads: threads)
      for (layer, runs) in text.annotations.sorted(by: { $0.key < $1.key }) {
        annotations[layer] = runs.map { $0.run.map(glyphs.prepare) }
      }
      labels = text.labels.map { glyphs.prepare($0.run) }
      prepared = boxes.map { ($0, glyphs.prepare($0.text)) }
      credit = attribution.map(glyphs.prepare)
    }
    self.attribution = credit
    self.annotations = annotations
    self.labels = labels
    self.boxes = prepared
  }

  /// A run of work built into a part of its own: drawables or annotation
  /// texts of one layer, or labels (layer -1, above every layer).
  fileprivate struct Chunk: Equatable, Sendable {
    enum Kind: Sendable {
      case raster, drawables, annotations, labels, boxes, attribution

      /// Built from the resolved state alone (`GeometryBuild`).
      var isGeometry: Bool { self == .raster || self == .drawables }
    }
    var kind: Kind
    var layer: Int
    var range: Range<Int>
    /// Where the chunk's items' flags start in the flat flag buffer.
    var flags: Int
  }

  /// The parts of a frame's geometry (its layers' tiles and drawables),
  /// which need only the resolved state: built by `buildGeometry` while
  /// the frame's text is placed (`GeometryBuild`, started by `FramePlan.make`),
  /// then taken by `build(geometry:)`. On the Helsinki frames the placement of labels runs
  /// on one thread for some 3–5 ms with the other processors idle, and the
  /// geometry's parts are most of the display list's work.
  struct GeometryParts: Sendable {
    /// The geometry chunks, and the budget and tolerance they were built
    /// with: `build(geometry:)` checks that its own agree.
    fileprivate var chunks: [Chunk]
    fileprivate var budget: FrameBudget
    fileprivate var tolerance: Double
    /// Per geometry chunk, in order: its part, and whether its build
    /// stopped early.
    fileprivate var parts: [DisplayList]
    fileprivate var stopped: [Bool]
    /// The flags of the drawables (the others unset); the strokes drawn
    /// solid and the dash budget's counts.
    fileprivate var flags: [Bool]
    fileprivate var tooBig: [Bool]
    fileprivate var solid: Set<Int>
    fileprivate var coverage: Coverage
  }

  /// `buildGeometry` started on a worker thread (`start`) and taken when the
  /// list is built (`take`). Whoever comes first builds it: a worker, or,
  /// when none has started on it by then (every worker busy), the thread
  /// that takes it, so that taking it never waits on a thread that may not
  /// come.
  final class GeometryBuild: @unchecked Sendable {
    private let state: MapState
    private let threads: Int
    private let budget: FrameBudget?
    private let tolerance: Double
    private let claimed = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    /// Written by the worker that claimed the build, before `done` is
    /// signalled; read (and let go) by `take` after.
    private var built: GeometryParts?

    private init(state: MapState, threads: Int, budget: FrameBudget?, tolerance: Double) {
      self.state = state
      self.threads = threads
      self.budget = budget
      self.tolerance = tolerance
    }

    /// Starts building `buildGeometry(state:threads:budget:tolerance:)` on
    /// a worker thread, which then runs `then` (more work that may be done
    /// while the text is placed; run too when the build was taken over).
    static func start(
      state: MapState, threads: Int, budget: FrameBudget? = nil, tolerance: Double = Flattening.tolerance,
      then: (@Sendable () -> Void)? = nil
    ) -> GeometryBuild {
      let g = GeometryBuild(state: state, threads: threads, budget: budget, tolerance: tolerance)
      DispatchQueue.global(qos: .userInitiated).async {
        if g.claim() {
          g.built = g.build()
          g.done.signal()
        }
        then?()
      }
      return g
    }

    /// The parts, moved out (call once): built here if no worker has
    /// started on them, else waited for.
    func take() -> GeometryParts {
      if claim() { return build() }
      done.wait()
      defer { built = nil }
      return built!
    }

    private func claim() -> Bool { claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged }

    private func build() -> GeometryParts {
      DisplayListBuilder.buildGeometry(state: state, threads: threads, budget: budget, tolerance: tolerance)
    }
  }

  /// The geometry of `state`, its chunks built on up to `threads` workers,
  /// as a builder of that state with `budget` and `tolerance` builds it.
  static func buildGeometry(
    state: MapState, threads: Int, budget: FrameBudget? = nil, tolerance: Double = Flattening.tolerance
  ) -> GeometryParts {
    var builder = DisplayListBuilder(state: state, text: TextPlacement(), boxes: [], fonts: nil, threads: threads)
    builder.budget = budget
    builder.tolerance = tolerance
    let v = state.viewport
    var work = builder.work()
    let geometry = work.chunks.indices.filter { work.chunks[$0].kind.isGeometry }
    let solid = builder.dashesOverBudget(work.drawableFlags, budget: work.budget, coverage: &work.coverage)
    let parts = builder.buildParts(
      work.chunks, only: geometry, flags: &work.flags, tooBig: &work.tooBig, stopped: &work.stopped, solid: solid,
      budget: work.budget, width: v.deviceWidth, height: v.deviceHeight)
    return GeometryParts(
      chunks: geometry.map { work.chunks[$0] }, budget: work.budget, tolerance: tolerance, parts: geometry.map { parts[$0] },
      stopped: geometry.map { work.stopped[$0] }, flags: work.flags, tooBig: work.tooBig, solid: solid, coverage: work.coverage)
  }

  /// A build's chunks and the state it keeps per chunk and per item.
  private struct Work {
    var chunks: [Chunk]
    var drawableFlags: [Int]
    var annotationFlags: [Int]
    var labelFlags: Int
    var flags: [Bool]
    var tooBig: [Bool]
    var stopped: [Bool]
    var budget: FrameBudget
    var coverage = Coverage()
  }

  private func work() -> Work {
    let (chunks, flagCount, drawableFlags, annotationFlags, labelFlags) = self.chunks()
    return Work(
      chunks: chunks, drawableFlags: drawableFlags, annotationFlags: annotationFlags, labelFlags: labelFlags,
      flags: [Bool](repeating: false, count: flagCount), tooBig: [Bool](repeating: false, count: flagCount),
      stopped: [Bool](repeating: false, count: chunks.count), budget: budget ?? FrameBudget(state.viewport))
  }

  /// The chunks of the list in drawing order, and where each layer's and
  /// the labels' flags start.
  private func chunks() -> (chunks: [Chunk], flagCount: Int, drawableFlags: [Int], annotationFlags: [Int], labelFlags: Int) {
    var chunks: [Chunk] = []
    var flagCount = 0
    var drawableFlags: [Int] = []
    var annotationFlags: [Int] = []
    for (li, layer) in state.layers.enumerated() {
      drawableFlags.append(flagCount)
      let active = layer.status.contains(.active)
      if active, layer.tiles?.mosaic != nil {
        chunks.append(Chunk(kind: .raster, layer: li, range: 0..<1, flags: -1))
      }
      if active {
        var start = 0
        var points = 0
        for i in layer.drawables.indices {
          points += layer.drawables[i].geometry.pointCount
          if points >= Self.chunkPoints || i - start + 1 >= Self.chunkDrawables {
            chunks.append(Chunk(kind: .drawables, layer: li, range: start..<(i + 1), flags: flagCount + start))
            start = i + 1
            points = 0
          }
        }
        if start < layer.drawables.count {
          chunks.append(Chunk(kind: .drawables, layer: li, range: start..<layer.drawables.count, flags: flagCount + start))
        }
      }
      flagCount += layer.drawables.count
      annotationFlags.append(flagCount)
      if active, let texts = annotations[li] {
        for s in stride(from: 0, to: texts.count, by: Self.chunkDrawables) {
          chunks.append(Chunk(kind: .annotations, layer: li, range: s..<min(texts.count, s + Self.chunkDrawables), flags: flagCount + s))
        }
      }
      flagCount += layer.annotations.count
    }
    let labelFlags = flagCount
    for s in stride(from: 0, to: labels.count, by: Self.chunkDrawables) {
      chunks.append(Chunk(kind: .labels, layer: -1, range: s..<min(labels.count, s + Self.chunkDrawables), flags: labelFlags + s))
    }
    flagCount += labels.count
    for s in stride(from: 0, to: boxes.count, by: Self.chunkDrawables) {
      chunks.append(Chunk(kind: .boxes, layer: -1, range: s..<min(boxes.count, s + Self.chunkDrawables), flags: flagCount + s))
    }
    flagCount += boxes.count
    if attribution != nil { chunks.append(Chunk(kind: .attribution, layer: -1, range: 0..<1, flags: -1)) }
    return (chunks, flagCount, drawableFlags, annotationFlags, labelFlags)
  }

  /// Builds the list and its coverage. Drawables are cut into chunks by their
  /// number of points (never by the thread count), chunks are built in
  /// parallel and appended in order, so the list is the same as a serial build.
  /// With `geometry` (`buildGeometry` of the same state, budget and
  /// tolerance), its parts are taken instead of built.
  func build(geometry: consuming GeometryParts? = nil) -> (DisplayList, Coverage) {
    let v = state.viewport
    var list = DisplayList(width: v.deviceWidth, height: v.deviceHeight, background: state.background)
    var work = self.work()
    let (chunks, budget) = (work.chunks, work.budget)
    let solid: Set<Int>
    var parts: [DisplayList]
    if let geometry = geometry.take() {
      // The geometry chunks depend on the state alone: both builders cut the
      // same ones, in the same order, with the same flags.
      let indices = chunks.indices.filter { chunks[$0].kind.isGeometry }
      precondition(indices.map { chunks[$0] } == geometry.chunks, "geometry built from another state")
      precondition(
        geometry.budget == budget && geometry.tolerance.bitPattern == tolerance.bitPattern, "geometry built with another budget or tolerance")
      solid = geometry.solid
      work.coverage = geometry.coverage
      for (k, c) in indices.enumerated() {
        work.stopped[c] = geometry.stopped[k]
        for f in chunks[c].flags..<(chunks[c].flags + chunks[c].range.count) where chunks[c].kind == .drawables {
          work.flags[f] = geometry.flags[f]
          work.tooBig[f] = geometry.tooBig[f]
        }
      }
      // The other chunks (text) neither count towards nor stop at the
      // budgets: only drawables do.
      parts = buildParts(
        chunks, only: chunks.indices.filter { !chunks[$0].kind.isGeometry }, flags: &work.flags, tooBig: &work.tooBig,
        stopped: &work.stopped, solid: solid, budget: budget, width: v.deviceWidth, height: v.deviceHeight)
      for (k, c) in indices.enumerated() { parts[c] = geometry.parts[k] }
    } else {
      solid = dashesOverBudget(work.drawableFlags, budget: budget, coverage: &work.coverage)
      parts = buildParts(
        chunks, only: Array(chunks.indices), flags: &work.flags, tooBig: &work.tooBig, stopped: &work.stopped, solid: solid,
        budget: budget, width: v.deviceWidth, height: v.deviceHeight)
    }
    list.reserveCapacity(toAppend: parts)
    var open: Int? = nil
    func opacity(_ layer: Int?) -> Double { layer.map { $0 >= 0 ? state.layers[$0].opacity : 1 } ?? 1 }
    // The edge and image budgets, spent in drawing order a chunk of features
    // at a time (chunks are cut by points, never by threads): the first chunk
    // that would overspend either, and every chunk of features after it, is
    // left out. A feature that alone would overspend the edges is never
    // built. Builders stop once the budget is spent (so memory stays near
    // it); a chunk stopped early but within the drawn prefix is built again
    // here, whole, so the list is the same for any thread count.
    var edges = 0
    var imagePixels = 0
    var spentOn: FrameBudget.Kind? = nil
    for k in chunks.indices {
      let chunk = chunks[k]
      if open != chunk.layer {
        if opacity(open) < 1 { list.endGroup() }
        open = chunk.layer
        if opacity(open) < 1 { list.beginGroup(opacity: opacity(open)) }
      }
      if chunk.kind == .drawables {
        let range = chunk.flags..<(chunk.flags + chunk.range.count)
        if spentOn == nil && work.stopped[k] {
          var whole = DisplayList(width: v.deviceWidth, height: v.deviceHeight, background: .transparent)
          work.flags.withUnsafeMutableBufferPointer { f in
            work.tooBig.withUnsafeMutableBufferPointer { t in
              work.stopped.withUnsafeMutableBufferPointer { s in
                build(chunk, index: k, into: &whole, flags: f, tooBig: t, stopped: s, solid: solid, budget: budget, spent: nil)
              }
            }
          }
          parts[k] = whole
        }
        let part = parts[k]
        if spentOn == nil {
          spentOn = edges + part.edgeCount > budget.edges ? .edges : imagePixels + part.imagePixels > budget.imagePixels ? .imagePixels : nil
        }
        if let over = spentOn {
          for f in range { work.flags[f] = false }
          work.coverage.overBudget[chunk.layer, default: [:]][over, default: 0] += chunk.range.count
          parts[k] = DisplayList(width: 1, height: 1)
          continue
        }
        let big = range.reduce(0) { $0 + (work.tooBig[$1] ? 1 : 0) }
        if big > 0 { work.coverage.overBudget[chunk.layer, default: [:]][.edges, default: 0] += big }
        edges += part.edgeCount
        imagePixels += part.imagePixels
      }
      list.append(parts[k])
      parts[k] = DisplayList(width: 1, height: 1)  // release as it is appended
    }
    if opacity(open) < 1 { list.endGroup() }
    for (li, layer) in state.layers.enumerated() {
      work.coverage.drawables.append(Array(work.flags[work.drawableFlags[li]..<(work.drawableFlags[li] + layer.drawables.count)]))
      work.coverage.annotations.append(Array(work.flags[work.annotationFlags[li]..<(work.annotationFlags[li] + layer.annotations.count)]))
    }
    work.coverage.labels = Array(work.flags[work.labelFlags..<(work.labelFlags + labels.count)])
    return (list, work.coverage)
  }

  static let chunkPoints = 4096
  static let chunkDrawables = 128

  /// The dash budget, spent in drawing order before any dash is made: each
  /// dashed stroke costs the dashes its lines' length inside the frame (grown
  /// by the stroke's reach) holds; a stroke that would overspend the budget
  /// is drawn solid, alpha scaled by the pattern's "on" share, as a pattern
  /// finer than a pixel is. Returns the flat indices (`drawableFlags[layer]`
  /// + drawable) of the strokes drawn solid, and counts them per layer.
  private func dashesOverBudget(_ drawableFlags: [Int], budget: FrameBudget, coverage: inout Coverage) -> Set<Int> {
    let v = state.viewport
    var spent = 0.0
    var solid = Set<Int>()
    for (li, layer) in state.layers.enumerated() where layer.status.contains(.active) {
      for i in layer.drawables.indices {
        // Read in place: most drawables have no dash, and a copy of each
        // (geometry, style, label) retains every reference it holds.
        guard let pattern = layer.drawables[i].style.strokeDash else { continue }
        let d = layer.drawables[i]
        let s = d.style
        guard s.stroke != nil, s.strokeWidth > 0, !d.geometry.lines.isEmpty || !d.geometry.polygons.isEmpty
        else { continue }
        let full = pattern.count % 2 == 1 ? pattern + pattern : pattern
        let period = full.reduce(0, +) * v.pixelRatio
        guard period >= 1 else { continue }  // drawn solid anyway (see `stroke`)
        let width = max(1, s.strokeWidth * v.pixelRatio)
        let reach = SymbolReach.stroke(width: width, join: s.lineJoin, miterLimit: s.miterLimit) + Self.clipMargin
        let frame = Rect(minX: -reach, minY: -reach, maxX: Double(v.deviceWidth) + reach, maxY: Double(v.deviceHeight) + reach)
        var length = 0.0
        for polygon in d.geometry.polygons {
          for ring in polygon { length += Self.visibleLength(ring, closed: true, within: frame, v) }
        }
        for line in d.geometry.lines { length += Self.visibleLength(line, closed: false, within: frame, v) }
        let dashes = length / period * Double(full.count / 2)
        if dashes.isFinite && spent + dashes <= Double(budget.dashes) {
          spent += dashes
        } else {
          solid.insert(drawableFlags[li] + i)
          coverage.overBudget[li, default: [:]][.dashes, default: 0] += 1
        }
      }
    }
    return solid
  }

  /// The length in device pixels of the parts of a line (a ring when
  /// `closed`) inside `frame`, segment by segment (Liang–Barsky).
  static func visibleLength(_ points: [Point], closed: Bool, within frame: Rect, _ v: Viewport) -> Double {
    guard points.count > 1 else { return 0 }
    var total = 0.0
    var a = v.toDevice(points[closed ? points.count - 1 : 0])
    for k in (closed ? 0 : 1)..<points.count {
      let b = v.toDevice(points[k])
      defer { a = b }
      guard a.isFinite, b.isFinite else { continue }
      let dx = b.x - a.x
      let dy = b.y - a.y
      var t0 = 0.0
      var t1 = 1.0
      // One side of the frame: p·t ≤ q keeps the segment inside it.
      func clip(_ p: Double, _ q: Double) -> Bool {
        if p == 0 { return q >= 0 }
        let t = q / p
        if p < 0 { if t > t1 { return false }; t0 = max(t0, t) } else { if t < t0 { return false }; t1 = min(t1, t) }
        return true
      }
      guard clip(-dx, a.x - frame.minX), clip(dx, frame.maxX - a.x), clip(-dy, a.y - frame.minY), clip(dy, frame.maxY - a.y),
        t1 > t0
      else { continue }
      total += (t1 - t0) * (dx * dx + dy * dy).squareRoot()
    }
    return total
  }

  /// Builds chunks `only` (indices into `chunks`) into their parts, the
  /// others left empty.
  private func buildParts(
    _ chunks: [Chunk], only: [Int], flags: inout [Bool], tooBig: inout [Bool], stopped: inout [Bool], solid: Set<Int>,
    budget: FrameBudget, width: Int, height: Int
  ) -> [DisplayList] {
    let empty = DisplayList(width: width, height: height, background: .transparent)
    var parts = [DisplayList](repeating: empty, count: chunks.count)
    let workers = min(only.count, threads > 0 ? threads : activeProcessorCount())
    let spent = Spent()
    parts.withUnsafeMutableBufferPointer { partBuffer in
      flags.withUnsafeMutableBufferPointer { flagBuffer in
        tooBig.withUnsafeMutableBufferPointer { bigBuffer in
          stopped.withUnsafeMutableBufferPointer { stoppedBuffer in
            let out = SendableBuffers(parts: partBuffer, flags: flagBuffer, tooBig: bigBuffer, stopped: stoppedBuffer)
            if workers <= 1 {
              for k in only {
                build(
                  chunks[k], index: k, into: &out.parts[k], flags: out.flags, tooBig: out.tooBig, stopped: out.stopped, solid: solid,
                  budget: budget, spent: spent)
              }
              return
            }
            let next = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
              while true {
                let n = next.add(1, ordering: .relaxed).oldValue
                if n >= only.count { break }
                let k = only[n]
                self.build(
                  chunks[k], index: k, into: &out.parts[k], flags: out.flags, tooBig: out.tooBig, stopped: out.stopped, solid: solid,
                  budget: budget, spent: spent)
              }
            }
          }
        }
      }
    }
    return parts
  }

  /// Builds chunk `index`; with `spent`, a chunk of features stops (marked
  /// in `stopped`) as soon as every worker together has passed the budget.
  private func build(
    _ chunk: Chunk, index: Int, into list: inout DisplayList, flags: UnsafeMutableBufferPointer<Bool>,
    tooBig: UnsafeMutableBufferPointer<Bool>, stopped: UnsafeMutableBufferPointer<Bool>, solid: Set<Int>, budget: FrameBudget,
    spent: Spent?
  ) {
    var f = chunk.flags
    switch chunk.kind {
    case .raster:
      // A tiles layer's mosaic, resampled into the frame (exact copies where
      // the frame's pixels coincide with the level's).
      if let t = state.layers[chunk.layer].tiles, let mosaic = t.mosaic {
        let v = state.viewport
        let a = v.toDevice(Point(t.mosaicBounds.minX, t.mosaicBounds.maxY))
        let b = v.toDevice(Point(t.mosaicBounds.maxX, t.mosaicBounds.minY))
        list.drawImage(mosaic, in: Rect(minX: a.x, minY: a.y, maxX: b.x, maxY: b.y))
      }
    case .drawables:
      let drawables = state.layers[chunk.layer].drawables
      for i in chunk.range {
        if let spent, spent.exceeds(budget) {
          stopped[index] = true
          return
        }
        let (edges, pixels) = (list.edgeCount, list.imagePixels)
        flags[f] = draw(drawables[i], into: &list, solid: solid.contains(f), maxEdges: budget.edges, tooBig: &tooBig[f])
        spent?.edges.add(list.edgeCount - edges, ordering: .relaxed)
        spent?.imagePixels.add(list.imagePixels - pixels, ordering: .relaxed)
        f += 1
      }
    case .annotations:
      let texts = annotations[chunk.layer] ?? []
      for i in chunk.range {
        if let t = texts[i] { flags[f] = draw(t, into: &list) }
        f += 1
      }
    case .labels:
      for i in chunk.range {
        flags[f] = draw(labels[i], into: &list)
        f += 1
      }
    case .attribution:
      if let a = attribution { _ = draw(a, into: &list) }
    case .boxes:
      for i in chunk.range {
        flags[f] = draw(boxes[i].box, text: boxes[i].text, into: &list)
        f += 1
      }
    }
  }

  /// A view annotation: the rounded box in its border colour, the inside
  /// (inset by the border width) in its background, then the text.
  private func draw(_ b: PlacedBox, text: PreparedText, into list: inout DisplayList) -> Bool {
    let s = b.style
    var drew = false
    if s.borderWidth > 0 {
      drew = list.fill(roundedRect(b.box, radius: s.cornerRadius), rule: .nonZero, color: s.borderColor) || drew
    }
    let inner = b.box.insetBy(s.borderWidth)
    if !inner.isEmpty {
      drew = list.fill(roundedRect(inner, radius: max(0, s.cornerRadius - s.borderWidth)), rule: .nonZero, color: s.background) || drew
    }
    return draw(text, into: &list) || drew
  }

  /// A rectangle with round corners as one flattened contour.
  private func roundedRect(_ r: Rect, radius: Double) -> Path {
    let rad = min(radius, r.width / 2, r.height / 2)
    var p = Path()
    if rad <= 0.01 {
      p.addContour([Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)], closed: true)
      return p
    }
    let steps = Flattening.arcSegments(sweep: .pi / 2, radius: rad, tolerance: tolerance)
    var pts: [Point] = []
    let corners = [
      (Point(r.maxX - rad, r.minY + rad), -Double.pi / 2), (Point(r.maxX - rad, r.maxY - rad), 0.0),
      (Point(r.minX + rad, r.maxY - rad), Double.pi / 2), (Point(r.minX + rad, r.minY + rad), Double.pi),
    ]
    for (c, start) in corners {
      for k in 0...steps {
        let a = start + Double(k) / Double(steps) * Double.pi / 2
        pts.append(Point(c.x + rad * cos(a), c.y + rad * sin(a)))
      }
    }
    p.addContour(pts, closed: true)
    return p
  }

  /// A text: its halo (the outlines stroked with round joins, reaching
  /// `haloWidth` beyond them) under the glyphs.
  private func draw(_ t: PreparedText, into list: inout DisplayList) -> Bool {
    var drew = false
    if let atlas = t.atlas {
      if let color = t.haloColor, !t.haloMasks.isEmpty { drew = list.drawMasks(atlas, t.haloMasks, color: color) }
      return list.drawMasks(atlas, t.glyphMasks, color: t.color) || drew
    }
    if let color = t.haloColor, let halo = t.halo { drew = list.fill(halo, rule: .nonZero, color: color) }
    if let path = t.path { drew = list.fill(path, rule: .nonZero, color: t.color) || drew }
    return drew
  }

  /// Draws a feature; true when any of its commands reached the frame.
  /// `solid`: its dashes did not fit the frame's budget. A fill or stroke
  /// that alone could make more than `maxEdges` edges is not built, and
  /// `tooBig` says so.
  private func draw(_ d: Drawable, into list: inout DisplayList, solid: Bool, maxEdges: Int, tooBig: inout Bool) -> Bool {
    let v = state.viewport
    let s = d.style
    let g = d.geometry
    var drew = false
    if !g.polygons.isEmpty {
      var rings = Path()
      rings.points.reserveCapacity(g.pointCount)
      for polygon in g.polygons {
        for ring in polygon { rings.addContour(ring.lazy.map(v.toDevice), closed: true) }
      }
      DevicePrecision.reduceVertices(&rings)
      if let fill = s.fill {
        if rings.points.count > maxEdges { tooBig = true } else { drew = list.fill(rings, rule: s.fillRule, color: fill) || drew }
      }
      if let stroke = s.stroke {
        drew = self.stroke(rings, style: s, color: stroke, solid: solid, maxEdges: maxEdges, tooBig: &tooBig, into: &list) || drew
      }
    }
    if !g.lines.isEmpty, let stroke = s.stroke {
      var lines = Path()
      lines.points.reserveCapacity(g.pointCount)
      for line in g.lines { lines.addContour(line.lazy.map(v.toDevice), closed: false) }
      DevicePrecision.reduceVertices(&lines)
      drew = self.stroke(lines, style: s, color: stroke, solid: solid, maxEdges: maxEdges, tooBig: &tooBig, into: &list) || drew
    }
    if !g.points.isEmpty, let marker = s.marker {
      for p in g.points { drew = drawMarker(marker, at: v.toDevice(p), into: &list) || drew }
    }
    return drew
  }

  private func stroke(
    _ path: Path, style s: Style, color: Color, solid: Bool, maxEdges: Int, tooBig: inout Bool, into list: inout DisplayList
  ) -> Bool {
    let ratio = state.viewport.pixelRatio
    var color = color
    var dash = s.strokeDash
    if let pattern = dash {
      // A dash period under one device pixel cannot show as dashes: it is
      // drawn solid with its alpha scaled by the share of "on" length, which
      // also bounds the work a tiny pattern on a long line would cost. So is
      // a stroke whose dashes did not fit the frame's budget.
      let full = pattern.count % 2 == 1 ? pattern + pattern : pattern
      let period = full.reduce(0, +) * ratio
      if period < 1 || solid {
        let on = stride(from: 0, to: full.count, by: 2).reduce(0.0) { $0 + full[$1] } * ratio
        color = color.withOpacity(on / period)
        dash = nil
      }
    }
    guard let (width, paint) = hairline(width: s.strokeWidth * ratio, color: color) else { return false }
    let reach = SymbolReach.stroke(width: width, join: s.lineJoin, miterLimit: s.miterLimit) + Self.clipMargin
    let frame = Rect(minX: -reach, minY: -reach, maxX: Double(list.width) + reach, maxY: Double(list.height) + reach)
    var phases: [Double] = []
    var clipped = PolylineClipper.clip(path, to: frame, phases: &phases)
    if clipped.isEmpty { return false }
    if let dash {
      clipped = dashed(clipped, pattern: dash.map { $0 * ratio }, offset: 0, phaseOffsets: phases)
    }
    let style = StrokeStyle(width: width, join: s.lineJoin, cap: s.lineCap, miterLimit: s.miterLimit)
    guard strokeOutlineFits(clipped, style: style, tolerance: tolerance, maxPoints: maxEdges) else {
      tooBig = true
      return false
    }
    return list.fillStroke(of: clipped, style: style, tolerance: tolerance, color: paint)
  }

  /// The width and paint a stroke is drawn with: nil for no width; under one
  /// device pixel, one pixel wide with the alpha scaled by the width.
  private func hairline(width: Double, color: Color) -> (Double, Color)? {
    guard width > 0 else { return nil }
    return width < 1 ? (1, color.withOpacity(width)) : (width, color)
  }

  private func drawMarker(_ m: MarkerStyle, at point: Point, into list: inout DisplayList) -> Bool {
    let ratio = state.viewport.pixelRatio
    if m.icon != nil {
      // A missing or unreadable icon was reported on its layer; it draws nothing.
      guard let image = state.icon(of: m) else { return false }
      return list.drawImage(image, in: MarkerBox.iconRect(for: image, at: point, size: m.size, offset: m.offset, pixelRatio: ratio), opacity: m.opacity)
    }
    let center = point + Point(m.offset.0 * ratio, m.offset.1 * ratio)
    let reach = SymbolReach.marker(m, icon: nil) * ratio
    guard center.x > -reach, center.y > -reach, center.x < Double(list.width) + reach, center.y < Double(list.height) + reach else { return false }
    let shape = markerPath(m.shape, at: center, size: m.size * ratio, tolerance: tolerance)
    var drew = false
    if let fill = m.fill { drew = list.fill(shape, rule: .nonZero, color: fill.withOpacity(m.opacity)) }
    if let stroke = m.stroke, let (width, paint) = hairline(width: m.strokeWidth * ratio, color: stroke.withOpacity(m.opacity)) {
      let style = StrokeStyle(width: width, join: .miter, cap: .butt, miterLimit: 4)
      drew = list.fillStroke(of: shape, style: style, tolerance: tolerance, color: paint) || drew
    }
    return drew
  }
}
