import ArgumentParser
import MapSnap

/// The ranges of the counting options several commands take, each checked
/// with one message: `--threads`, `--jobs`, `--tile-rows`, `--max-pixels`.
enum CountOptions {
  /// The most worker threads `--threads` and frames `--jobs` may ask for:
  /// each worker holds buffers and a font library, so a typo such as 1000000
  /// must not start a million of them.
  static let maximumWorkers = 1024

  /// The tallest band `--tile-rows` may ask for: the tallest frame.
  static let maximumTileRows = 32768 * 16

  /// `--threads` or `--jobs` (`option`): 0 (one per processor) to `maximumWorkers`.
  static func checkWorkers(_ option: String, _ n: Int) throws {
    if !(0...maximumWorkers).contains(n) { throw ValidationError("\(option) must be 0 (one per processor) to \(maximumWorkers), got \(n)") }
  }

  /// `--tile-rows`: 1 to `maximumTileRows`.
  static func checkTileRows(_ n: Int) throws {
    if !(1...maximumTileRows).contains(n) { throw ValidationError("--tile-rows must be 1 to \(maximumTileRows), got \(n)") }
  }

  /// `--max-pixels`: 1 to `FrameSizeLimit.absoluteMaxPixels`.
  static func checkMaxPixels(_ n: Int) throws {
    if !(1...FrameSizeLimit.absoluteMaxPixels).contains(n) {
      throw ValidationError("--max-pixels must be 1 to \(FrameSizeLimit.absoluteMaxPixels) (2^36), got \(n)")
    }
  }
}
