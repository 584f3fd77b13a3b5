/// How a fitted view was decided (scene format section 7): which box gave
/// the centre, and whether the scale was fitted to it (with the padding) or
/// kept. The report's `map.fit` and `mapsnap explain` print it.
///
/// The rule: a box given on the command line or in a manifest line
/// (`--bounds`, `--fit`, a line's `bounds` or `fit`) fits the scale too,
/// unless that same line gives a scale or zoom; a scene's own `bounds`
/// fits the scale only when no scale or zoom is given anywhere. When a
/// scale is kept, the box sets the centre only and the padding has nothing
/// to do. A box of no size (a single point) keeps the scale given.
public struct ViewFitting: Sendable, Hashable {
  /// Where the box came from.
  public enum Box: String, Sendable {
    /// `--fit` or a manifest line's `fit`: one feature's bounds.
    case fit
    /// `--bounds` or a manifest line's `bounds`.
    case bounds
    /// The scene's `map.bounds`.
    case sceneBounds
  }

  /// Why the scale was kept rather than fitted.
  public enum KeptBecause: String, Sendable {
    /// The command line or manifest line that gave the box gave a scale or zoom too.
    case sameLineGivesScale
    /// The box is the scene's, and a scale or zoom is given (scene or overrides).
    case scaleGiven
    /// The box has no size (a single point): it sets the centre only.
    case boxHasNoSize
  }

  public var box: Box
  /// nil when the scale was fitted to the box (with `padding`).
  public var keptBecause: KeptBecause?
  /// The padding the fit left free, when the scale was fitted.
  public var padding: Padding?

  /// True when the scale was fitted to the box.
  public var scaleFitted: Bool { keptBecause == nil }

  /// One line for people: `fitted to --bounds (padding 10, 10, 10, 10)` or
  /// `centred on the scene's bounds; the scale given is kept`.
  public var summary: String {
    let name: String
    switch box {
    case .fit: name = "the fit feature's bounds"
    case .bounds: name = "the given bounds"
    case .sceneBounds: name = "the scene's bounds"
    }
    guard let keptBecause else {
      let p = padding.map { [$0.top, $0.right, $0.bottom, $0.left].map { format($0) }.joined(separator: ", ") } ?? "0"
      return "scale and centre fitted to \(name) (padding \(p))"
    }
    switch keptBecause {
    case .sameLineGivesScale: return "centred on \(name); the scale given with them is kept (padding unused)"
    case .scaleGiven: return "centred on \(name); the scale given is kept (padding unused)"
    case .boxHasNoSize: return "centred on \(name), a single point; the scale given is kept (padding unused)"
    }
  }
}
