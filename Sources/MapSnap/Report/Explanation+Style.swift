extension Explanation {
  /// A style layer's own table: each style layer with its status, the
  /// features it drew of those it read, and why; then each source's tiles;
  /// then each symbol layer's symbols one by one (`symbolLines`).
  func styleLines(_ id: String, _ s: StyleFrameState, symbols: StyleSymbolPlacement?) -> [String] {
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
    if let symbols {
      for (k, layer) in s.symbolLayers.enumerated() where k < symbols.layers.count { out += symbolLines(id, layer, symbols.layers[k]) }
    }
    return out
  }

  /// A symbol layer's symbols: how many are shown, then a row per symbol
  /// with its key, text and icon, outcome and what blocked it or is missing.
  func symbolLines(_ id: String, _ layer: StyleSymbolLayerState, _ placed: StyleSymbolPlacement.Layer) -> [String] {
    guard !layer.symbols.isEmpty else { return [] }
    let shown = placed.outcomes.filter(\.isShown).count
    var out = ["", "symbols of \(id)/\(layer.id): \(shown) of \(layer.symbols.count) shown"]
    var rows = [["KEY", "TEXT", "ICON", "OUTCOME", "WHY"]]
    for (s, o) in zip(layer.symbols, placed.outcomes) {
      let outcome = o.reason.map { $0 == .optionalDropped ? "placed (\(o.text ? "icon" : "text") dropped)" : $0.rawValue } ?? "placed"
      let why = ([o.blockedBy.map { "blocked by \($0)" }] + s.missing.map { Optional($0) }).compactMap { $0 }.joined(separator: "; ")
      rows.append([s.key, s.text.map { Echo.quoted($0.string) } ?? "", s.icon?.name ?? "", outcome, why])
    }
    out += table(rows)
    return out
  }
}
