/// What one frame may cost beyond its pixel buffer (the one large allocation
/// allowed, bounded by the size limit): each budget grows with the frame's
/// device pixels between a floor, generous for any real map, and a ceiling,
/// so that hostile data (a tiny dash pattern on a long zigzag, a megabyte of
/// label text, a million overlapping icons) costs bounded memory and time.
///
/// Past a budget nothing crashes and nothing is silently dropped: what did
/// not fit is decided in drawing order (so the image is the same for any
/// thread count), and the layer it belongs to is `warning` with a
/// `budget` problem naming the budget and its limit.
///
/// | budget | per device pixel | floor | ceiling | past it |
/// |---|---|---|---|---|
/// | dashes | 1/16 | 1,000,000 | 16,000,000 | the feature's lines are drawn solid, alpha scaled by the pattern's "on" share |
/// | text characters | 1/4 | 250,000 | 4,000,000 | the text is not laid out (`overBudget`) |
/// | edges | 4 | 16,000,000 | 64,000,000 | the first chunk of features past it and all after it are not drawn; a feature that alone could pass it is never built |
/// | image pixels | 64 | 64 Mi | 4 Gi | the icon markers are not drawn |
public struct FrameBudget: Sendable, Equatable {
  /// Dashes of dashed strokes, counted from each line's length inside the
  /// frame before any dash is made.
  public let dashes: Int
  /// Unicode scalars of label and annotation text, counted before layout.
  public let textCharacters: Int
  /// Fixed-point edges of fills and strokes in the display list (the
  /// rasteriser's work: 16 bytes each).
  public let edges: Int
  /// Pixels of icon images drawn (each icon's box clipped to the frame).
  public let imagePixels: Int

  init(devicePixels: Int) {
    let p = max(0, devicePixels)
    dashes = Self.clamp(p / 16, 1_000_000, 16_000_000)
    textCharacters = Self.clamp(p / 4, 250_000, 4_000_000)
    edges = Self.clamp(p.multipliedReportingOverflow(by: 4).partialValue, 16_000_000, 64_000_000)
    imagePixels = Self.clamp(p.multipliedReportingOverflow(by: 64).partialValue, 1 << 26, 1 << 32)
  }

  /// Given limits (for tests of what happens past them).
  init(dashes: Int, textCharacters: Int, edges: Int, imagePixels: Int) {
    self.dashes = dashes
    self.textCharacters = textCharacters
    self.edges = edges
    self.imagePixels = imagePixels
  }

  /// The budget of a viewport's frame (`FrameContext.budget`).
  init(_ viewport: Viewport) {
    self.init(devicePixels: viewport.deviceWidth * viewport.deviceHeight)
  }

  private static func clamp(_ v: Int, _ lo: Int, _ hi: Int) -> Int { min(max(v, lo), hi) }

  /// A budget by name, for problems and the README.
  public enum Kind: String, Sendable, CaseIterable {
    case dashes, textCharacters, edges, imagePixels

    /// What it counts, in a message.
    var noun: String {
      switch self {
      case .dashes: "dashes"
      case .textCharacters: "characters of text"
      case .edges: "edges"
      case .imagePixels: "icon pixels"
      }
    }
  }

  public func limit(_ kind: Kind) -> Int {
    switch kind {
    case .dashes: dashes
    case .textCharacters: textCharacters
    case .edges: edges
    case .imagePixels: imagePixels
    }
  }
}
