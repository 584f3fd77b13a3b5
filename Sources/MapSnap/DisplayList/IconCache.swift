import Synchronization

/// Marker icons (`marker.icon`, scene format section 3.1) loaded from PNG files, each
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
  public var loadCount: Int { decodes.load(ordering: .relaxed) }
}

/// Where a marker icon is drawn, in device pixels (scene format section 3.1): the
/// icon's `size` is its **height** in logical pixels and its width follows the image's
/// aspect ratio (`size × image.width / image.height`); the icon is centred on `point`
/// (device pixels) moved by `offset` (logical pixels, x right, y down). Sizes and the
/// offset are multiplied by `pixelRatio`.
public func iconRect(
  for image: RasterImage, at point: Point, size: Double, offset: (Double, Double), pixelRatio: Double
) -> Rect {
  // A size of 0 (none given in the scene) draws the icon at its own height.
  let height = (size > 0 ? size : Double(image.height)) * pixelRatio
  let width = height * Double(image.width) / Double(image.height)
  let cx = point.x + offset.0 * pixelRatio
  let cy = point.y + offset.1 * pixelRatio
  return Rect(minX: cx - width / 2, minY: cy - height / 2, maxX: cx + width / 2, maxY: cy + height / 2)
}
