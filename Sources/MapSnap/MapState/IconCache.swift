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
///
/// Bounded: at most `maximumIcons` files are kept (a batch whose lines each
/// name another icon does not grow without end); past that the oldest entry
/// is dropped and read again if asked for again, with the same result.
public final class IconCache: Sendable {
  private let entries = Mutex<(byPath: [String: (image: Result<RasterImage, PNGError>, digest: String)], order: [String])>(([:], []))
  private let decodes = Atomic<Int>(0)
  /// Icons kept at most.
  public let maximumIcons: Int
  /// With `--root`: icon files must resolve inside it.
  public let confinement: Confinement?
  /// The largest icon file read (16 MiB): a larger one is refused from its
  /// `fstat` size, before it is read.
  public static let maximumFileBytes = 16 << 20

  /// A cache of at most `maximumIcons` icons (256 by default: icons are
  /// small, and a map rarely names more).
  public init(maximumIcons: Int = 256, confinement: Confinement? = nil) {
    self.maximumIcons = max(1, maximumIcons)
    self.confinement = confinement
  }

  /// The icon at `path` (already resolved against the scene file's folder), decoded
  /// through `PNGDecoder.decode(contentsOf:)` on first use, with its colour
  /// premultiplied. Errors are those of the decoder, e.g. `PNGError.fileNotFound(path:)`.
  public func image(atPath path: String) -> Result<RasterImage, PNGError> { entry(atPath: path).image }

  /// The icon and the SHA-256 of the bytes it was decoded from (the error's
  /// text when it could not be read or decoded): what `InputDigest` records.
  public func entry(atPath path: String) -> (image: Result<RasterImage, PNGError>, digest: String) {
    entries.withLock { entries in
      if let cached = entries.byPath[path] { return cached }
      decodes.add(1, ordering: .relaxed)
      let result: (image: Result<RasterImage, PNGError>, digest: String)
      do throws(PNGError) {
        let bytes: [UInt8]
        do throws(FileError) {
          bytes = try FileIO.read(path, maximumBytes: Self.maximumFileBytes, confinement: confinement)
        } catch {
          switch error {
          case .notFound: throw PNGError.fileNotFound(path: path)
          case .isDirectory, .failed: throw PNGError.fileReadFailed(path: path, reason: error.reason)
          }
        }
        let decoded = try PNGDecoder.decode(bytes)
        result = (.success(RasterImage(straightRGBA: decoded.pixels, width: decoded.width, height: decoded.height)), SHA256.hex(of: bytes))
      } catch {
        result = (.failure(error), "error: \(error)")
      }
      entries.byPath[path] = result
      entries.order.append(path)
      if entries.order.count > maximumIcons { entries.byPath[entries.order.removeFirst()] = nil }
      return result
    }
  }

  /// How many files have been read and decoded (successfully or not) so far.
  var loadCount: Int { decodes.load(ordering: .relaxed) }
}
