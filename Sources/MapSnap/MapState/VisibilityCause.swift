/// Why a layer or an annotation sublayer is not shown at this scale: the
/// reasons behind its `notVisible` and `outOfScale` flags, recorded when the
/// map is resolved so that the report and `mapsnap explain` only print them.
public enum VisibilityCause: Sendable, Hashable {
  /// Its own `visible` is false.
  case notVisible
  /// Its layer's `visible` is false (sublayers only).
  case layerNotVisible
  /// The scale is outside its own range.
  case outOfScale(ScaleRange)
  /// The scale is outside its layer's range (sublayers only).
  case layerOutOfScale(ScaleRange)
}
