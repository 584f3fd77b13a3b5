internal import _MapSnapStyle

/// What one layer of a style did in a frame, and why: the record the report
/// and `mapsnap explain` print for it.
package struct StyleLayerRecord: Sendable {
  package enum Status: String, Sendable {
    /// Drew at least one feature (or, for `background`, the frame).
    case drawn
    /// `layout.visibility` is `none`.
    case hiddenByVisibility = "hidden by visibility"
    /// The frame's zoom is below `minzoom` or at or above `maxzoom`.
    case outOfZoomRange = "out of zoom range"
    /// Its tiles hold features of its source layer, but its filter (or
    /// geometry type) keeps none.
    case filteredOut = "filtered to nothing"
    /// Nothing of its source layer lies in the frame's tiles.
    case empty
    /// Its source cannot be read (`problem` says why).
    case sourceProblem = "source missing or broken"
    /// A layer type (or source type) mapsnap does not draw (yet).
    case unsupported
  }

  package let id: String
  /// The style's `type` of the layer.
  package let type: String
  package let source: String?
  package let sourceLayer: String?
  package var status: Status
  /// Features drawn (for `background`, 1 when drawn).
  package var featuresDrawn = 0
  /// Features of its source layer seen in the frame's tiles.
  package var featuresRead = 0
  /// Why it draws nothing, or what was wrong; with its JSON path.
  package var problem: String?
  /// The parts `problem` joins (with "; "), each a finding of its own: why
  /// the layer is not drawn, then what its painting found (a property that
  /// does not compile, a tile that cannot be read, an image the sprite lacks).
  package var problemParts: [String] = []
  /// The layer's JSON path (`layers[3]`).
  package let path: String
  /// True when `problem` is an error of the layer (its source), false for a warning.
  package var problemIsError = false
  /// Where the layer's draw commands start and end in `StyleFrameState.commands`.
  package var commands: Range<Int> = 0..<0

  init(_ layer: StyleLayer, status: Status) {
    id = layer.id
    type = layer.typeName
    source = layer.source
    sourceLayer = layer.sourceLayer
    path = layer.path
    self.status = status
  }
}

/// What became of one style source's tiles in a frame.
package struct StyleSourceRecord: Sendable {
  package let id: String
  package let type: String
  /// The zoom of the tiles read (MapLibre's), nil when none were asked for.
  package var tileZoom: Int?
  /// True when the frame's zoom is past the source's `maxzoom`: its deepest
  /// tiles are drawn larger (overzoomed).
  package var overzoomed = false
  package var tilesRead = 0
  package var tilesMissing = 0
  package var tilesUndecodable = 0
  /// The first undecodable tile and why (`14/9326/4741: ...`).
  package var firstUndecodable: String?
  /// Why the source gives nothing (it cannot be opened), if so.
  package var problem: String?
  /// What the tiles were opened from (the `url` or first template).
  package var from: String?
}
