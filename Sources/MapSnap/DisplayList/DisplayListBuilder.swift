internal import _MapSnapRaster

import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Turns a resolved `MapState` and its placed text into a `DisplayList` in
/// device pixels: layers bottom-up (a translucent layer as one group), and
/// within a layer each feature in order: polygon fills, then strokes, then
/// markers; then the layer's annotation text; above every layer the labels,
/// then the view annotations. While building it records what reaches the
/// image (`Coverage`, which `DrawRecord` turns into the stage's record).
///
/// It reads only the resolved map (`MapState`) and the placement
/// (`TextPlacement`, placed view annotation boxes, the attribution run): the
/// seam a second front end plugs into, so that the display list, raster and
/// encoders serve every front end that produces those records.
///
/// The builder's parts: `GeometryBuild` (the geometry built ahead, while the
/// text is placed), `+Parts` (chunks built in parallel), `+Budget` (the dash
/// budget), `+Draw` (each item's commands).
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
  /// The pixels of the state's marker icons and tile mosaics.
  let inputs: ResolvedInputs
  /// Per layer, per annotation text: its glyphs when drawn.
  let annotations: [Int: [PreparedText?]]
  /// Placed labels in drawing order.
  let labels: [PreparedText]
  /// Placed view annotations, drawn above the map, with their text.
  let boxes: [(box: PlacedBox, text: PreparedText)]
  /// The attribution line, drawn above everything else.
  let attribution: PreparedText?
  /// The scale bar and north arrow, drawn under the attribution line, and
  /// their texts.
  let furniture: FurniturePlacement
  let furnitureText: [PreparedText]
  /// Flattening tolerance in device pixels for round joins, caps, markers
  /// and rounded boxes.
  var tolerance = Flattening.tolerance
  /// Worker threads; 0 means one per active processor.
  var threads = 0
  /// The frame's budget; nil: the frame's own (`FrameContext.budget`).
  var budget: FrameBudget? = nil
  /// Per style layer of the state (by layer index), where its symbols were placed.
  var styleSymbols: [Int: StyleSymbolPlacement] = [:]

  /// Clipped lines end this many device pixels beyond the stroke's reach, so
  /// that the clip never cuts an anti-aliased edge.
  static let clipMargin = 2.0

  /// Rasterises the glyphs of `text` and `boxes` (serially, through `fonts`)
  /// and keeps them for the build.
  init(
    state: MapState, inputs: ResolvedInputs, text: TextPlacement, boxes: [PlacedBox], attribution: GlyphRun? = nil, fonts: FontLibrary?,
    threads: Int = 0, furniture: FurniturePlacement = FurniturePlacement()
  ) {
    self.state = state
    self.inputs = inputs
    self.threads = threads
    var annotations: [Int: [PreparedText?]] = [:]
    var labels: [PreparedText] = []
    var prepared: [(PlacedBox, PreparedText)] = []
    var credit: PreparedText? = nil
    var furnitureText: [PreparedText] = []
    if let fonts {
      let glyphs = GlyphRasterizer(fonts: fonts)
      // The masks the passes below take, made side by side first, in the
      // order those passes ask for them.
      var runs: [GlyphRun] = []
      for (_, texts) in text.annotations.sorted(by: { $0.key < $1.key }) { runs += texts.compactMap(\.run) }
      runs += text.labels.map(\.run)
      runs += boxes.map(\.text)
      runs += furniture.runs
      if let attribution { runs.append(attribution) }
      fonts.prepareMasks(
        runs.filter { $0.poses == nil && $0.usesMasks }.map { ($0.block, $0.origin, $0.haloWidth) }, threads: threads)
      for (layer, runs) in text.annotations.sorted(by: { $0.key < $1.key }) {
        annotations[layer] = runs.map { $0.run.map(glyphs.prepare) }
      }
      labels = text.labels.map { glyphs.prepare($0.run) }
      prepared = boxes.map { ($0, glyphs.prepare($0.text)) }
      credit = attribution.map(glyphs.prepare)
      furnitureText = furniture.runs.map(glyphs.prepare)
    }
    self.attribution = credit
    self.furniture = furniture
    self.furnitureText = furnitureText
    self.annotations = annotations
    self.labels = labels
    self.boxes = prepared
  }

  /// A run of work built into a part of its own: drawables or annotation
  /// texts of one layer, or labels (layer -1, above every layer).
  struct Chunk: Equatable, Sendable {
    enum Kind: Sendable {
      case raster, drawables, style, styleSymbols, annotations, labels, boxes, furniture, attribution

      /// Built from the resolved state alone (`GeometryBuild`).
      var isGeometry: Bool { self == .raster || self == .drawables || self == .style }
    }
    var kind: Kind
    var layer: Int
    var range: Range<Int>
    /// Where the chunk's items' flags start in the flat flag buffer.
    var flags: Int
  }

  /// A build's chunks and the state it keeps per chunk and per item.
  struct Work {
    var chunks: [Chunk]
    var drawableFlags: [Int]
    var annotationFlags: [Int]
    var labelFlags: Int
    var flags: [Bool]
    var tooBig: [Bool]
    var stopped: [Bool]
    var budget: FrameBudget
    var coverage: Coverage
  }

  func work() -> Work {
    let (chunks, flagCount, drawableFlags, annotationFlags, labelFlags) = self.chunks()
    let budget = budget ?? state.frame.budget
    return Work(
      chunks: chunks, drawableFlags: drawableFlags, annotationFlags: annotationFlags, labelFlags: labelFlags,
      flags: [Bool](repeating: false, count: flagCount), tooBig: [Bool](repeating: false, count: flagCount),
      stopped: [Bool](repeating: false, count: chunks.count), budget: budget, coverage: Coverage(budget: budget))
  }

  /// The chunks of the list in drawing order, and where each layer's and
  /// the labels' flags start.
  func chunks() -> (chunks: [Chunk], flagCount: Int, drawableFlags: [Int], annotationFlags: [Int], labelFlags: Int) {
    var chunks: [Chunk] = []
    var flagCount = 0
    var drawableFlags: [Int] = []
    var annotationFlags: [Int] = []
    for (li, layer) in state.layers.enumerated() {
      drawableFlags.append(flagCount)
      let active = layer.status.contains(.active)
      if active, layer.tiles?.hasImage == true {
        chunks.append(Chunk(kind: .raster, layer: li, range: 0..<1, flags: -1))
      }
      if active, let style = layer.style {
        // A symbol layer's command is a chunk of its own, drawn by placement.
        var start = 0
        func flush(_ end: Int) {
          for s in stride(from: start, to: end, by: Self.chunkDrawables) {
            chunks.append(Chunk(kind: .style, layer: li, range: s..<min(end, s + Self.chunkDrawables), flags: -1))
          }
        }
        for (ci, c) in style.commands.enumerated() {
          guard case .symbols(let k) = c.shape else { continue }
          flush(ci)
          chunks.append(Chunk(kind: .styleSymbols, layer: li, range: k..<(k + 1), flags: -1))
          start = ci + 1
        }
        flush(style.commands.count)
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
    if furniture.scaleBar != nil || furniture.northArrow != nil { chunks.append(Chunk(kind: .furniture, layer: -1, range: 0..<1, flags: -1)) }
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
}
