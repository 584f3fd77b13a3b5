extension Explanation {
  /// A style layer's own table: each style layer with its status, the
  /// features it drew of those it read, and why; then each source's tiles.
  func styleLines(_ id: String, _ s: StyleFrameState) -> [String] {
    var out = ["", "style \(id): zoom \(format(s.zoom)) (MapLibre's; the scene's \(format(s.zoom + 1)))"
      + (s.bearing != 0 ? ", bearing \(format(s.bearing))°" : "")]
    var rows = [["STYLE LAYER", "TYPE", "STATUS", "DRAWN/READ", "WHY"]]
    for l in s.layers {
      rows.append([l.id, l.type, l.status.rawValue, "\(l.featuresDrawn)/\(l.featuresRead)", l.problem ?? ""])
    }
    out += table(rows)
    for src in s.sources {
      var line = "source \(src.id) (\(src.type))"
      if let from = src.from { line += " from \(from)" }
      if let problem = src.problem {
        line += ": \(problem)"
      } else if let z = src.tileZoom {
        line += ": zoom \(z)\(src.overzoomed ? " (overzoomed)" : ""), \(src.tilesRead) tiles read, \(src.tilesMissing) missing, \(src.tilesUndecodable) undecodable"
        if let first = src.firstUndecodable { line += " (\(first))" }
      }
      out.append(line)
    }
    for note in s.notes { out.append("note: \(note)") }
    return out
  }
}
