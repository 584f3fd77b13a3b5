internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

import Dispatch
import Synchronization

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
final class Spent: Sendable {
  let edges = Atomic<Int>(0)
  let imagePixels = Atomic<Int>(0)

  func exceeds(_ budget: FrameBudget) -> Bool {
    edges.load(ordering: .relaxed) > budget.edges || imagePixels.load(ordering: .relaxed) > budget.imagePixels
  }
}

extension DisplayListBuilder {
  /// Builds chunks `only` (indices into `chunks`) into their parts, the
  /// others left empty.
  func buildParts(
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
  func build(
    _ chunk: Chunk, index: Int, into list: inout DisplayList, flags: UnsafeMutableBufferPointer<Bool>,
    tooBig: UnsafeMutableBufferPointer<Bool>, stopped: UnsafeMutableBufferPointer<Bool>, solid: Set<Int>, budget: FrameBudget,
    spent: Spent?
  ) {
    var f = chunk.flags
    switch chunk.kind {
    case .raster:
      // A tiles layer's mosaic, resampled into the frame (exact copies where
      // the frame's pixels coincide with the level's).
      if let t = inputs.layers[chunk.layer].tiles, let mosaic = t.mosaic {
        let v = state.viewport
        let a = v.toDevice(Point(t.mosaicBounds.minX, t.mosaicBounds.maxY))
        let b = v.toDevice(Point(t.mosaicBounds.maxX, t.mosaicBounds.minY))
        list.drawImage(mosaic, in: Rect(minX: a.x, minY: a.y, maxX: b.x, maxY: b.y))
      }
    case .style:
      // A style's commands, in order (each layer's after the one below it).
      if let style = state.layers[chunk.layer].style { StyleDrawing.draw(style.commands[chunk.range], into: &list) }
    case .styleSymbols:
      // A symbol layer's placed symbols, in the layer's place.
      if let style = state.layers[chunk.layer].style, let placed = styleSymbols[chunk.layer]?.layers[chunk.range.lowerBound] {
        StyleSymbolDrawing.draw(style.symbolLayers[chunk.range.lowerBound], placed, into: &list)
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
    case .furniture:
      drawFurniture(into: &list)
    case .boxes:
      for i in chunk.range {
        flags[f] = draw(boxes[i].box, text: boxes[i].text, into: &list)
        f += 1
      }
    }
  }
}
