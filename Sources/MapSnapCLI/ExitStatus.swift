import ArgumentParser
import MapSnap

/// The exit statuses `mapsnap` promises (argument errors exit 64, as
/// swift-argument-parser does for validation errors).
enum ExitStatus {
  /// Rendering failed: with `--strict` a source could not be loaded, or the
  /// PNG or report could not be written.
  static let renderFailed = ExitCode(1)
  /// The scene is invalid; nothing was drawn or written.
  static let invalidScene = ExitCode(2)
}

/// The most worker threads `--threads` and frames `--jobs` may ask for: each
/// worker holds buffers and a font library, so a typo such as 1000000 must
/// not start a million of them.
let maximumWorkers = 1024

/// The tallest band `--tile-rows` may ask for: the tallest frame.
let maximumTileRows = 32768 * 16

/// Writes one line to standard error, with no control character from input
/// left in it (`Echo.terminalSafe`).
func printError(_ message: String) {
  FileIO.writeToStandardError(Echo.terminalSafe(message) + "\n")
}
