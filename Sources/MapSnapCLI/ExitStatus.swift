import ArgumentParser
import MapSnap

/// The exit statuses every command promises (each command's "Exit status"
/// help lines and the README's table), and the one table from what went
/// wrong to a status (`of`).
enum ExitStatus: Int32 {
  /// The work failed: a render (with `--strict` a source could not be
  /// loaded, or an output could not be written), a batch frame, a test
  /// image, or a comparison that found a difference.
  case failed = 1
  /// An input cannot be used: an invalid scene, manifest or case, or a file
  /// that cannot be read or compared (an image, a report); nothing is drawn.
  case invalidInput = 2
  /// A usage error: a bad option value, a missing argument, a frame made
  /// too large by an option (swift-argument-parser's status for validation
  /// errors).
  case usage = 64

  /// The status as the command's exit.
  var code: ExitCode { ExitCode(rawValue) }

  /// The status of `error`: what cannot be read or is invalid is the
  /// input's; a diff image asked for beyond its limit is a usage error;
  /// anything else (a file that cannot be written) is a failure of the work.
  static func of(_ error: any Error) -> ExitStatus {
    switch error {
    case let e as ImageDiffError:
      if case .diffImageTooLarge = e.kind { return .usage }
      return .invalidInput
    case is SceneError, is ManifestError, is JSONSyntaxError, is ReportDiffError, is TextError, is PNGError: return .invalidInput
    case is ValidationError: return .usage
    default: return .failed
    }
  }
}

/// Writes one line to standard error, with no control character from input
/// left in it (`Echo.terminalSafe`).
func printError(_ message: String) {
  FileIO.writeToStandardError(Echo.terminalSafe(message) + "\n")
}
