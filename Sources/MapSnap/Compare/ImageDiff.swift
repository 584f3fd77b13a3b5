/// `mapsnap diff`: two PNG files compared with `PixelMatch`, streamed in
/// bands of rows as they are decoded, so memory stays bounded whatever the
/// image size: two bands of `bandRows` rows (plus the two rows above and
/// below each that anti-aliasing detection reads) per image, and the diff
/// image when one is asked for.
///
/// The diff image (pixelmatch's style: the first image faded to grey,
/// differences red, anti-aliased pixels yellow) is held whole until it is
/// encoded, so it is written only for images of at most
/// `maximumDiffImagePixels` pixels. Interlaced PNGs cannot be read row by row;
/// `PNGRowReader` holds them whole, so they are compared only up to
/// `maximumInterlacedPixels` pixels.
public enum ImageDiff {
  /// Rows compared at a time: enough for the band workers, small in memory
  /// (256 rows of 16,384 pixels are 16 MiB per image).
  public static let bandRows = 256
  /// Pixels per band and image at most (2^22, 16 MiB): images wider than
  /// 16,384 pixels are compared in bands of fewer rows.
  public static let bandPixels = 1 << 22
  /// The largest diff image written: 2^26 pixels (8192 × 8192, 256 MiB).
  public static let maximumDiffImagePixels = 1 << 26
  /// The largest interlaced image compared: 2^26 pixels (256 MiB of RGBA).
  /// An Adam7-interlaced PNG cannot be read row by row and is held whole,
  /// two of them at once: larger ones are refused from their headers
  /// (`PNGRowReader`'s own limit, 2^28 pixels, would hold 2 GiB).
  public static let maximumInterlacedPixels = 1 << 26

  /// What `compare` found.
  public struct Result: Sendable {
    public var width: Int
    public var height: Int
    public var counts: PixelMatch.Counts
    /// The diff image as PNG bytes, when asked for.
    public var diffPNG: [UInt8]?

    /// Differing pixels as a fraction of all pixels.
    public var ratio: Double { width * height == 0 ? 0 : Double(counts.differing) / Double(width * height) }
  }

  /// Compares the PNG files at `a` and `b`.
  /// - Throws: `ImageDiffError` when a file cannot be read or decoded, the
  ///   sizes differ, or a diff image is asked for an image too large.
  public static func compare(_ a: String, _ b: String, match: PixelMatch, diffImage: Bool, threads: Int = 0) throws(ImageDiffError) -> Result {
    for path in [a, b] {
      do throws(PNGError) {
        let header = try PNGHeader.read(path)
        if header.interlaced && header.pixelCount > maximumInterlacedPixels {
          throw PNGError.imageTooLarge(width: header.width, height: header.height, limit: maximumInterlacedPixels)
        }
      } catch {
        throw ImageDiffError(file: path, kind: .unreadable(error))
      }
    }
    let ra: PNGRowReader
    let rb: PNGRowReader
    do {
      ra = try PNGRowReader(path: a)
    } catch {
      throw ImageDiffError(file: a, kind: .unreadable(error))
    }
    do {
      rb = try PNGRowReader(path: b)
    } catch {
      throw ImageDiffError(file: b, kind: .unreadable(error))
    }
    let width = ra.width
    let height = ra.height
    guard rb.width == width, rb.height == height else {
      throw ImageDiffError(file: b, kind: .differentSizes(a: (width, height), b: (rb.width, rb.height)))
    }
    if diffImage && width * height > maximumDiffImagePixels {
      throw ImageDiffError(file: a, kind: .diffImageTooLarge(width: width, height: height))
    }
    // Bands hold at most `bandPixels` pixels per image: fewer rows for wide images.
    let band = max(1, min(bandRows, bandPixels / max(width, 1)))
    var result = Result(width: width, height: height, counts: PixelMatch.Counts())
    guard width > 0, height > 0 else { return result }
    // Each image's buffer holds rows [base, base + capacity): the band, the
    // two rows above it and the two below; the row tables cover the same.
    let capacity = min(band + 4, height)
    let bufA = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity * width)
    let bufB = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity * width)
    let tableA = UnsafeMutablePointer<UnsafePointer<UInt32>>.allocate(capacity: capacity)
    let tableB = UnsafeMutablePointer<UnsafePointer<UInt32>>.allocate(capacity: capacity)
    let diff: UnsafeMutablePointer<UInt32>? = diffImage ? .allocate(capacity: width * height) : nil
    defer {
      diff?.deallocate()
      bufA.deallocate()
      bufB.deallocate()
      tableA.deallocate()
      tableB.deallocate()
    }
    var base = 0  // the row at the start of the buffers
    var loaded = 0  // rows read so far
    var lo = 0
    while lo < height {
      let hi = min(lo + band, height)
      let keepFrom = max(lo - 2, 0)
      // Slide the rows still needed (the two above the band) to the front.
      if keepFrom > base {
        let keep = loaded - keepFrom
        (bufA).update(from: bufA + (keepFrom - base) * width, count: keep * width)
        (bufB).update(from: bufB + (keepFrom - base) * width, count: keep * width)
        base = keepFrom
      }
      let need = min(hi + 2, height)
      if need > loaded {
        let count = need - loaded
        do {
          try ra.read(rows: count, into: UnsafeMutableRawBufferPointer(start: bufA + (loaded - base) * width, count: count * width * 4))
        } catch {
          throw ImageDiffError(file: a, kind: .unreadable(error))
        }
        do {
          try rb.read(rows: count, into: UnsafeMutableRawBufferPointer(start: bufB + (loaded - base) * width, count: count * width * 4))
        } catch {
          throw ImageDiffError(file: b, kind: .unreadable(error))
        }
        loaded = need
      }
      // Where each row in the buffers is now (the slide moved the kept ones).
      for y in base..<loaded {
        tableA[y - base] = UnsafePointer(bufA + (y - base) * width)
        tableB[y - base] = UnsafePointer(bufB + (y - base) * width)
      }
      let counts = match.compareRows(
        lo, hi, width: width, height: height, a: RowTable(UnsafePointer(tableA), base: base),
        b: RowTable(UnsafePointer(tableB), base: base), diff: diff.map { $0 + lo * width }, threads: threads)
      result.counts.differing += counts.differing
      result.counts.antialiased += counts.antialiased
      lo = hi
    }
    if let diff {
      do {
        // Opaque pixels: premultiplied and straight are the same.
        result.diffPNG = try PNGEncoder.encode(
          premultipliedRGBA: UnsafeBufferPointer(start: diff, count: width * height), width: width, height: height)
      } catch {
        throw ImageDiffError(file: a, kind: .encodingFailed(error))
      }
    }
    return result
  }
}
