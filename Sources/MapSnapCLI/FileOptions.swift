import ArgumentParser
import MapSnap

/// The options that bound what a scene may read: `--root` (confinement) and
/// `--max-source-bytes`; shared by `render`, `explain`, `batch` and `test`.
/// What they ask for is `settings`.
struct FileOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Refuse every path taken from a scene or a manifest line (sources, icons, tile sets, a manifest's scenes, outputs and reports) that resolves, links and '..' included, outside this folder. Paths given on the command line are not confined. The way to render scenes someone else wrote.",
      valueName: "folder"))
  var root: String?

  @Option(
    name: .customLong("max-source-bytes"), parsing: .unconditional,
    help: ArgumentHelp(
      "The largest GeoJSON source (and scene) file read, in bytes, or with K, M or G (binary). A larger file is refused, checked before it is read: a source makes its layer error, a scene is invalid. Default 1G.",
      valueName: "bytes"))
  var maxSourceBytes: ByteCount = ByteCount(SourceLoader.defaultMaximumSourceBytes)

  func validate() throws { try settings.validate() }

  /// The values given, as plain data.
  var settings: FileSettings { FileSettings(root: root, maxSourceBytes: maxSourceBytes.value) }
}

/// A count of bytes: digits, optionally followed by K, M or G (powers of 1024).
struct ByteCount: ExpressibleByArgument, Sendable {
  var value: Int

  init(_ value: Int) { self.value = value }

  init?(argument: String) {
    var digits = Substring(argument)
    var unit = 1
    switch digits.last.map({ Character($0.uppercased()) }) {
    case "K"?: unit = 1 << 10
    case "M"?: unit = 1 << 20
    case "G"?: unit = 1 << 30
    default: break
    }
    if unit > 1 { digits = digits.dropLast() }
    guard let n = Int(digits), n >= 1, n <= (1 << 50) / unit else { return nil }
    value = n * unit
  }

  var defaultValueDescription: String { value % (1 << 30) == 0 ? "\(value >> 30)G" : "\(value)" }
}
