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
/// Bounded, per icon and in all: an icon file is at most
/// `maximumFileBytes` (16 MiB) and `maximumPixels` (4096 × 4096), refused
/// from its size and its PNG header before any pixel is decoded (a marker is
/// at most 1000 logical pixels at a pixel ratio of at most 16, so a larger
/// icon only costs memory). At most `maximumIcons` files and
/// `maximumPixelsKept` decoded pixels are kept (a batch whose lines each
/// name another icon does not grow without end); past either the oldest
/// entries are dropped and read again if asked for again, with the same
/// result.
public final class IconCache: Sendable {
  private struct Entries {
    var byPath: [String: (image: Result<RasterImage, PNGError>, digest: String)] = [:]
    var order: [String] = []
    var pixels = 0
  }
  private let entries = Mutex<Entries>(Entries())
  private let decodes = Atomic<Int>(0)
  /// Icons kept at most.
  public let maximumIcons: Int
  /// Decoded pixels kept at most, over every icon: 2^26 (256 MiB of RGBA).
  public let maximumPixelsKept: Int
  /// With `--root`: icon files must resolve inside it (`Confinement`).
  public let confinement: Confinement?

  /// The largest icon file read, in bytes: 16 MiB.
  public static let maximumFileBytes = 16 << 20
  /// The largest icon decoded, in pixels (width × height): 4096 × 4096.
  public static let maximumPixels = 1 << 24

  /// A cache of at most `maximumIcons` icons (256 by default: icons are
  /// small, and a map rarely names more) and `maximumPixelsKept` pixels.
  public init(maximumIcons: Int = 256, maximumPixelsKept: Int = 1 << 26, confinement: Confinement? = nil) {
    self.confinement = confinement
    self.maximumIcons = max(1, maximumIcons)
    self.maximumPixelsKept = max(Self.maximumPixels, maximumPixelsKept)
  }

  /// The icon at `path` (already resolved against the scene file's folder), decoded
  /// through `PNGDecoder.decode(contentsOf:)` on first use, with its colour
  /// premultiplied. Errors are those of the decoder, e.g. `PNGError.fileNotFound(path:)`.
  public func image(atPath path: String) -> Result<RasterImage, PNGError> { entry(atPath: path).image }

  /// The icon and the SHA-256 of the bytes it was decoded from (the error's
  /// text when it could not be read or decoded): what `InputDigest` records.
  func entry(atPath path: String) -> (image: Result<RasterImage, PNGError>, digest: String) {
    entries.withLock { entries in
      if let cached = entries.byPath[path] { return cached }
      decodes.add(1, ordering: .relaxed)
      let result: (image: Result<RasterImage, PNGError>, digest: String)
      var pixels = 0
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
        let decoded = try PNGDecoder.decode(bytes, maximumPixels: Self.maximumPixels)
        pixels = decoded.width * decoded.height
        result = (.success(RasterImage(straightRGBA: decoded.pixels, width: decoded.width, height: decoded.height)), SHA256.hex(of: bytes))
      } catch {
        result = (.failure(error), "error: \(error)")
      }
      entries.byPath[path] = result
      entries.order.append(path)
      entries.pixels += pixels
      while entries.order.count > maximumIcons || (entries.pixels > maximumPixelsKept && entries.order.count > 1) {
        let oldest = entries.order.removeFirst()
        if case .success(let image)? = entries.byPath[oldest]?.image { entries.pixels -= image.width * image.height }
        entries.byPath[oldest] = nil
      }
      return result
    }
  }

  /// How many files have been read and decoded (successfully or not) so far.
  var loadCount: Int { decodes.load(ordering: .relaxed) }
}
