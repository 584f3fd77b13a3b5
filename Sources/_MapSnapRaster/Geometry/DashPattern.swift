/// A stroke's dash pattern as it is drawn: the rule every stage that reads a
/// dash list follows (the dasher, the display list's budget and its solid
/// fallback).
///
/// The list written is [on, off, on, off, …] in one unit (logical pixels in
/// a style, device pixels in the dasher); a list of odd length is repeated
/// once to make it even (SVG's `stroke-dasharray` rule), so `[4]` draws as
/// `[4, 4]` and `[4, 2, 1]` as `[4, 2, 1, 4, 2, 1]`.
package struct DashPattern: Sendable, Equatable {
  /// The even-length list of on and off lengths.
  package let lengths: [Double]
  /// One repeat of the pattern: the sum of `lengths`, in list order.
  package let period: Double
  /// The on lengths' sum, in list order: `onLength / period` is the share of
  /// a line the pattern inks.
  package let onLength: Double

  /// The pattern of the list `written`, made even.
  package init(_ written: [Double]) {
    let lengths = written.count % 2 == 1 ? written + written : written
    self.lengths = lengths
    period = lengths.reduce(0, +)
    onLength = stride(from: 0, to: lengths.count, by: 2).reduce(0.0) { $0 + lengths[$1] }
  }

  /// The number of dashes (on intervals) along `length` units of line, the
  /// pattern's lengths multiplied by `scale` (a style's logical pixels drawn
  /// at a pixel ratio).
  package func dashes(along length: Double, scale: Double = 1) -> Double {
    length / (period * scale) * Double(lengths.count / 2)
  }

  /// True when the pattern can be walked: a length in it, none negative
  /// or non-finite, and a period above 0 and finite.
  package var isWalkable: Bool {
    !lengths.isEmpty && lengths.allSatisfy({ $0.isFinite && $0 >= 0 }) && period > 0 && period.isFinite
  }
}
