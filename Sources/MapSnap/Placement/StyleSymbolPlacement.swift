/// What placement decided for each symbol of a style's symbol layers
/// (`StyleSymbolPlacer` writes it; the display list draws by it, the
/// report and `explain` print it): per symbol layer of the frame's style
/// (in `StyleFrameState.symbolLayers` order), each symbol's outcome, and
/// the order the layer's shown symbols are drawn in.
struct StyleSymbolPlacement: Sendable {
  var layers: [Layer] = []

  struct Layer: Sendable {
    var outcomes: [StyleSymbolOutcome] = []
    /// The symbols drawn, by index, bottom first (`symbol-z-order`).
    var drawOrder: [Int] = []
  }
}

/// One symbol's outcome.
struct StyleSymbolOutcome: Sendable, Equatable {
  /// Whether its text and its icon are drawn.
  var text = false
  var icon = false
  /// Which of the symbol's texts was placed: 0 its first anchor, k its
  /// k-th variable anchor after that (`StyleSymbol.textVariants`).
  var textVariant = 0
  /// Why it (or one of its parts) is not drawn; nil when all it has is drawn.
  var reason: StyleSymbolHiddenReason?
  /// For `collision`: the symbol whose box it hit first (style layer id and key).
  var blockedBy: String?

  var isShown: Bool { text || icon }
}

/// Why a style symbol, or a part of it, is not drawn.
enum StyleSymbolHiddenReason: String, Sendable, CaseIterable {
  /// Its box overlaps a symbol placed before it (`blockedBy` names it).
  case collision
  /// Its boxes lie wholly outside the frame and the 100-pixel margin MapLibre places in.
  case outsideFrame
  /// `symbol-avoid-edges`: a box crosses the edge of its tile.
  case tileEdge
  /// Neither its text nor its icon can be drawn (glyphs or image missing).
  case nothingToDraw
  /// Along a line: its text does not fit on the line from its anchor.
  case lineTooShort
  /// Its optional text or icon collided and was dropped; the other part is drawn.
  case optionalDropped
}
