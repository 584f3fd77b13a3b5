/// One expected image of a `mapsnap test` case folder (see `CaseLoader` for
/// the layout): the frame to render and how to compare it. A style case
/// (`style` set) has one image, `expected.png`, judged by `StyleCriterion`;
/// its `line` names the style file as the batch line's input.
public struct ImageCase: Sendable {
  /// The case folder's name.
  public var caseName: String
  /// The case folder.
  public var directory: String
  /// The image's name without `.png`: `2000`, `2000@2x`, `500-floor1`, or a
  /// variant's name.
  public var stem: String
  /// The frame, as a batch line: the scene, its overrides and overlays
  /// (`output` is the expected image).
  public var line: ManifestLine
  public var comparison: Comparison
  /// `golden.json`'s `palette` (and `dither`): the image is rendered as a
  /// palette PNG; nil for true colour.
  public var palette: PaletteOptions? = nil

  /// A style case's parameters (`style.json`'s `metadata.test`); nil for a scene case.
  public var style: StyleCase? = nil

  /// `case/stem` (a style case's name alone, `group/test`): what `--filter`
  /// matches and reports name.
  public var id: String { style != nil ? caseName : caseName + "/" + stem }
  public var expectedImage: String { directory + "/" + stem + ".png" }
  /// The expected report (`ReportDiff`), compared unless `compareReports` is false.
  public var expectedReport: String { directory + "/" + stem + ".report.json" }
  /// `golden.json`'s `reports` (true by default): the image's report is
  /// compared with `expectedReport`, which must exist.
  public var compareReports = true

  /// How a case's images are compared, in `mapsnap diff`'s terms.
  public struct Comparison: Sendable, Equatable {
    /// 0 by default: any change of colour counts.
    public var threshold = 0.0
    /// True by default: pixels that look like anti-aliasing count too, so
    /// the default compares every channel of every pixel exactly.
    public var includeAA = true
    /// Differing pixels still taken as equal (0 by default).
    public var maxDiffPixels = 0
    /// Why a case is compared with a tolerance; required for any non-default value.
    public var reason: String?

    public init() {}

    public init(threshold: Double, includeAA: Bool, maxDiffPixels: Int) {
      (self.threshold, self.includeAA, self.maxDiffPixels) = (threshold, includeAA, maxDiffPixels)
    }

    public var isExact: Bool { threshold == 0 && includeAA && maxDiffPixels == 0 }

    /// How pixels are compared, for messages: `exact` (`mapsnap test`'s
    /// default), or `threshold 0.1, anti-aliased px not counted, up to 10 px`.
    public var rule: String {
      if isExact { return "exact" }
      var parts = ["threshold \(Self.number(threshold))"]
      if !includeAA { parts.append("anti-aliased px not counted") }
      if maxDiffPixels > 0 { parts.append("up to \(maxDiffPixels) px") }
      return parts.joined(separator: ", ")
    }

    /// The `mapsnap diff` options that count the differing pixels this way:
    /// `--threshold 0 --include-aa` for the exact comparison.
    public var diffOptions: String {
      var s = "--threshold \(Self.number(threshold))"
      if includeAA { s += " --include-aa" }
      if maxDiffPixels > 0 { s += " --max-diff-pixels \(maxDiffPixels)" }
      return s
    }

    private static func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x) }
  }
}
