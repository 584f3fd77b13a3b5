import Synchronization

/// Marker icons (`marker.icon`, scene format section 3.1) loaded from PNG files while
/// the map is resolved, each
/// file read and decoded at most once, then shared as a `RasterImage` by every marker
/// that names it (and by the reduced copies the image keeps for drawing it small).
///
/// Thread-safe: display-list chunks built in parallel may ask for the same icon; a file
/// is decoded under the cache's lock, so two callers never decode it twice. A failure
/// is cached too: a missing or broken file is reported with the same `PNGError` every
/// time it is asked for, without reading it again.
public final class IconCache: Sendable {
  private let entries = Mutex<[String: Result<RasterImage, PNGError>]>([:])
  private let decodes = Atomic<Int>(0)

  public init() {}

  /// The icon at `path` (already resolved against the scene file's folder), decoded
  /// through `PNGDecoder.decode(contentsOf:)` on first use, with its colour
  /// premultiplied. Errors are those of the decoder, e.g. `PNGError.fileNotFound(path:)`.
  public func image(atPath path: String) -> Result<RasterImage, PNGError> {
    entries.withLock { entries in
      if let cached = entries[path] { return cached }
      decodes.add(1, ordering: .relaxed)
      let result: Result<RasterImage, PNGError>
      do throws(PNGError) {
        let decoded = try PNGDecoder.decode(contentsOf: path)
        result = .success(RasterImage(straightRGBA: decoded.pixels, width: decoded.width, height: decoded.height))
      } catch {
        result = .failure(error)
      }
      entries[path] = result
      return result
    }
  }

  /// How many files have been read and decoded (successfully or not) so far.
  var loadCount: Int { decodes.load(ordering: .relaxed) }
}
