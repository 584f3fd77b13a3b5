internal import _MapSnapRaster

extension Rect {
  /// Points along the four edges, each cut into `cuts` equal parts (so
  /// `cuts + 1` points per edge, corners included): what a box becomes when
  /// it is re-projected, since its image in another reference need not be
  /// a box and its extremes need not be its corners.
  func edgePoints(cuts: Int) -> [Point] {
    var points: [Point] = []
    points.reserveCapacity(4 * (cuts + 1))
    for i in 0...cuts {
      let t = Double(i) / Double(cuts)
      let x = minX + (maxX - minX) * t
      let y = minY + (maxY - minY) * t
      points += [Point(x, minY), Point(x, maxY), Point(minX, y), Point(maxX, y)]
    }
    return points
  }
}
