internal import _MapSnapRaster

/// Lines cut to a tile's square before line labels are laid along them, as
/// MapLibre cuts them (`clipLines`): each segment clipped against the four
/// sides in turn, a point made on a side rounded to whole tile units, and
/// a new line started wherever the clipped segments stop joining. A line
/// cut at a side then starts on it, which `SymbolLineAnchors` reads as a
/// line continued from the neighbouring tile.
enum SymbolLineClip {
  static func clip(_ lines: [[Point]], minX: Double, minY: Double, maxX: Double, maxY: Double) -> [[Point]] {
    var out: [[Point]] = []
    for line in lines where line.count > 1 {
      var current: [Point]? = nil
      for i in 0..<(line.count - 1) {
        var p0 = line[i], p1 = line[i + 1]
        // x ≥ minX
        if p0.x < minX && p1.x < minX { continue }
        if p0.x < minX {
          p0 = atX(p0, p1, minX)
        } else if p1.x < minX {
          p1 = atX(p0, p1, minX)
        }
        // y ≥ minY
        if p0.y < minY && p1.y < minY { continue }
        if p0.y < minY {
          p0 = atY(p0, p1, minY)
        } else if p1.y < minY {
          p1 = atY(p0, p1, minY)
        }
        // x ≤ maxX
        if p0.x > maxX && p1.x > maxX { continue }
        if p0.x > maxX {
          p0 = atX(p0, p1, maxX)
        } else if p1.x > maxX {
          p1 = atX(p0, p1, maxX)
        }
        // y ≤ maxY
        if p0.y > maxY && p1.y > maxY { continue }
        if p0.y > maxY {
          p0 = atY(p0, p1, maxY)
        } else if p1.y > maxY {
          p1 = atY(p0, p1, maxY)
        }
        if current == nil || current!.last! != p0 {
          if let c = current { out.append(c) }
          current = [p0]
        }
        current!.append(p1)
      }
      if let c = current { out.append(c) }
    }
    return out
  }

  /// The point of segment p0–p1 at `x`, rounded to whole units.
  private static func atX(_ p0: Point, _ p1: Point, _ x: Double) -> Point {
    Point(x, (p0.y + (p1.y - p0.y) * ((x - p0.x) / (p1.x - p0.x))).rounded())
  }

  private static func atY(_ p0: Point, _ p1: Point, _ y: Double) -> Point {
    Point((p0.x + (p1.x - p0.x) * ((y - p0.y) / (p1.y - p0.y))).rounded(), y)
  }
}
