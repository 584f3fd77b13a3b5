package import _MapSnapRaster

/// One thing to place (a label, a view annotation): its boxes, one per anchor,
/// in the order to try them.
package struct PlacementCandidate: Sendable {
  /// The caller's id, reported in ``PlacementResult/blockedBy``.
  package var id: Int
  /// One box per anchor, in the order to try; the first that fits is taken.
  package var boxes: [Rect]
  /// When true the candidate ignores collisions: its first box that passes the
  /// frame test is taken even where it overlaps earlier boxes.
  package var allowOverlap: Bool
  /// When true (the default) the taken box is added to the collision grid, so
  /// later candidates that do not allow overlap must avoid it. This holds for
  /// candidates with `allowOverlap` too, as in Mapbox.
  package var blocks: Bool
  /// When not empty, box `j` stands for the boxes `parts[j]` (a label along
  /// a line: one box per glyph): it is taken when every one of them passes,
  /// and all of them are inserted. `boxes[j]` is then their union, for
  /// reports.
  package var parts: [[Rect]] = []
  /// When true a box is taken only when it lies wholly inside the frame (a
  /// label with `avoidEdges`), as every box is when `place` is asked to.
  package var mustFit = false

  package init(id: Int, boxes: [Rect], allowOverlap: Bool = false, blocks: Bool = true) {
    self.id = id
    self.boxes = boxes
    self.allowOverlap = allowOverlap
    self.blocks = blocks
  }
}

