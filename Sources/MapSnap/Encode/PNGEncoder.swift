internal import _PNGShims
internal import _MapSnapRaster

/// Encodes premultiplied RGBA8 pixel buffers as PNG files through libpng.
///
/// **The colour-type rule.** Given `opaque`, the caller decides (a map
/// frame is opaque when its background is: scene format section 6, decided
/// before drawing). Otherwise the encoder first scans the alpha of every pixel
/// (a vectorisable AND over the `UInt32`s that stops at the first block that
/// is not fully opaque):
///
/// - If **every** pixel has alpha 255, it writes an 8-bit **RGB** PNG (colour
///   type 2) straight from the caller's buffer: libpng drops the alpha byte of
///   each pixel itself, so no copy of the image is made.
/// - Otherwise it writes an 8-bit **RGBA** PNG (colour type 6) with *straight*
///   (un-premultiplied) alpha, as PNG requires, computed into a temporary copy:
///   each colour channel becomes `min(255, (c * 255 + a / 2) / a)` in exact
///   integer arithmetic, and pixels with `a == 0` become `0, 0, 0, 0`.
///
/// With ``PNGEncodingOptions/palette`` set, the rule is instead: an
/// 8-bit-or-less **palette** PNG (colour type 3) with the colours
/// ``PaletteQuantizer`` chooses, written by ``PalettePNGWriter`` (`PLTE`,
/// and `tRNS` only when an entry is translucent).
///
/// No ancillary chunks (gamma, sRGB, text, time) are written, so equal input
/// and options always produce byte-identical files.
public enum PNGEncoder {
  /// Encodes an image to PNG bytes.
  ///
  /// - Parameters:
  ///   - pixels: `width * height` pixels, row-major with no padding, each a
  ///     `UInt32` whose bytes in memory are R, G, B, A (little-endian: R is the
  ///     low byte), with colour premultiplied by alpha. Extra trailing pixels
  ///     are ignored.
  ///   - width: Image width in pixels, `1...2147483647`.
  ///   - height: Image height in pixels, `1...2147483647`.
  ///   - options: Compression level and filter; ``PNGEncodingOptions/fast`` by default.
  /// - Returns: The complete PNG file.
  /// - Throws: ``PNGError/invalidDimensions(width:height:)``,
  ///   ``PNGError/pixelBufferTooSmall(required:actual:)``,
  ///   ``PNGError/invalidCompressionLevel(_:)``,
  ///   ``PNGError/invalidPaletteColors(_:)``, ``PNGError/outOfMemory`` or
  ///   ``PNGError/encodingFailed(_:)``.
  ///
  /// Opaque images (all alpha 255) are written as RGB without copying;
  /// anything else is un-premultiplied into a copy and written as RGBA. See
  /// ``PNGEncoder`` for the exact rule.
  public static func encode(
    premultipliedRGBA pixels: UnsafeBufferPointer<UInt32>,
    width: Int,
    height: Int,
    options: PNGEncodingOptions = .fast
  ) throws(PNGError) -> [UInt8] {
    let image = try checked(pixels, width: width, height: height, options: options)
    return try encode(image, width: width, height: height, opaque: isOpaque(image), options: options)
  }

  /// Encodes an image to PNG bytes with the colour type chosen by the
  /// caller: RGB when `opaque` (the alpha bytes are dropped, so every pixel
  /// must have alpha 255 for the image to be what was drawn), RGBA with
  /// straight alpha otherwise. A map frame's colour type is decided before
  /// it is drawn, from its background (`FramePlan.isOpaque`, scene format
  /// section 6), so that it can be streamed (`PNGStreamWriter`).
  /// - Throws: as ``encode(premultipliedRGBA:width:height:options:)``.
  public static func encode(
    premultipliedRGBA pixels: UnsafeBufferPointer<UInt32>,
    width: Int,
    height: Int,
    opaque: Bool,
    options: PNGEncodingOptions = .fast
  ) throws(PNGError) -> [UInt8] {
    try encode(checked(pixels, width: width, height: height, options: options), width: width, height: height, opaque: opaque, options: options)
  }

  /// Encodes pixels as an 8-bit RGBA PNG with their bytes as given (no
  /// un-premultiplying, no palette): for images whose bytes are to be kept
  /// as they are, such as a premultiplied frame shown beside an expected
  /// image that stores premultiplied colour.
  /// - Throws: as ``encode(premultipliedRGBA:width:height:options:)``.
  public static func encode(
    rgbaAsStored pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int, options: PNGEncodingOptions = .fast
  ) throws(PNGError) -> [UInt8] {
    let image = try checked(pixels, width: width, height: height, options: options)
    return try writePNG(UnsafeRawPointer(image.baseAddress!), width: width, height: height, writeRGB: false, options: options)
  }

  private static func encode(
    _ image: UnsafeBufferPointer<UInt32>, width: Int, height: Int, opaque: Bool, options: PNGEncodingOptions
  ) throws(PNGError) -> [UInt8] {
    // Palette output (PNG8) chooses its colour type itself: type 3, with
    // tRNS when an entry is translucent (PalettePNGWriter).
    if let palette = options.palette {
      let quantized = try PaletteQuantizer.quantize(
        premultipliedRGBA: image, width: width, height: height, options: palette, threads: options.threads)
      return try PalettePNGWriter.write(quantized, options: options)
    }
    if opaque {
      return try writePNG(
        UnsafeRawPointer(image.baseAddress!), width: width, height: height, writeRGB: true, options: options)
    }
    let straight = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: image.count)
    defer { straight.deallocate() }
    unpremultiply(image, into: straight)
    return try writePNG(
      UnsafeRawPointer(straight.baseAddress!), width: width, height: height, writeRGB: false,
      options: options)
  }

  /// The first `width * height` pixels, after checking the arguments.
  static func checked(
    _ pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int, options: PNGEncodingOptions
  ) throws(PNGError) -> UnsafeBufferPointer<UInt32> {
    let maxSide = Int(PNG_SHIM_MAX_DIMENSION)
    guard (1...maxSide).contains(width), (1...maxSide).contains(height) else {
      throw .invalidDimensions(width: width, height: height)
    }
    let (count, countOverflow) = width.multipliedReportingOverflow(by: height)
    let (_, strideOverflow) = width.multipliedReportingOverflow(by: 4)
    guard !countOverflow, !strideOverflow, !count.multipliedReportingOverflow(by: 4).overflow
    else {
      throw .invalidDimensions(width: width, height: height)
    }
    guard pixels.count >= count, let base = pixels.baseAddress else {
      throw .pixelBufferTooSmall(required: count, actual: pixels.count)
    }
    guard options.effectiveDeflater.levels.contains(options.compressionLevel) else {
      throw .invalidCompressionLevel(options.compressionLevel)
    }

    return UnsafeBufferPointer(start: base, count: count)
  }

  // MARK: - Implementation

  /// The alpha byte (4th in memory) of an RGBA8 pixel read as a `UInt32`.
  private static let alphaMask = UInt32(0xFF00_0000).littleEndian

  /// True if every pixel has alpha 255. ANDs blocks of pixels together (a
  /// loop the compiler vectorises) and checks once per block, so a
  /// translucent image is rejected after at most one block past its first
  /// translucent pixel.
  static func isOpaque(_ pixels: UnsafeBufferPointer<UInt32>) -> Bool {
    guard let base = pixels.baseAddress else { return true }
    let count = pixels.count
    let blockSize = 4096
    var start = 0
    while start < count {
      let end = min(start &+ blockSize, count)
      var all: UInt32 = ~0
      var index = start
      while index < end {
        all &= base[index]
        index &+= 1
      }
      if all & alphaMask != alphaMask { return false }
      start = end
    }
    return true
  }

  /// `ceil(2^24 / a)` for `a` in `1...255` (index 0 unused). For every
  /// numerator `n < 2^16` and `a <= 255`, `(n * table[a]) >> 24 == n / a`
  /// exactly: the rounding error is below `n / 2^24 < 1/256 < 1/a`.
  private static let reciprocals: [UInt64] = (0..<256).map { (alpha: Int) -> UInt64 in
    if alpha == 0 { return 0 }
    let numerator: Int = (1 << 24) + alpha - 1
    return UInt64(numerator / alpha)
  }

  /// Converts premultiplied RGBA8 to straight RGBA8:
  /// `c' = min(255, (c * 255 + a / 2) / a)`; `a == 0` gives all zeros.
  package static func unpremultiply(
    _ source: UnsafeBufferPointer<UInt32>, into destination: UnsafeMutableBufferPointer<UInt32>
  ) {
    precondition(destination.count >= source.count)
    guard let src = source.baseAddress, let dst = destination.baseAddress else { return }
    reciprocals.withUnsafeBufferPointer { table in
      let reciprocal = table.baseAddress!
      for index in 0..<source.count {
        let stored = src[index]
        let pixel = UInt32(littleEndian: stored)
        let alpha = pixel >> 24
        if alpha == 255 {
          dst[index] = stored
          continue
        }
        if alpha == 0 {
          dst[index] = 0
          continue
        }
        let scale = reciprocal[Int(alpha)]
        let half = alpha >> 1
        @inline(__always) func straight(_ channel: UInt32) -> UInt32 {
          let numerator = UInt64(channel &* 255 &+ half)
          return min(255, UInt32(truncatingIfNeeded: (numerator &* scale) >> 24))
        }
        let r = straight(pixel & 0xFF)
        let g = straight((pixel >> 8) & 0xFF)
        let b = straight((pixel >> 16) & 0xFF)
        dst[index] = (r | g << 8 | b << 16 | alpha << 24).littleEndian
      }
    }
  }

  /// Hands 4-byte-per-pixel rows to the C shim and copies out the file.
  private static func writePNG(
    _ rows: UnsafeRawPointer, width: Int, height: Int, writeRGB: Bool,
    options: PNGEncodingOptions
  ) throws(PNGError) -> [UInt8] {
    let filter: PNGShimFilter =
      switch options.filter {
      case .none: PNG_SHIM_FILTER_NONE
      case .adaptive: PNG_SHIM_FILTER_ADAPTIVE
      }
    var output = PNGShimBuffer(data: nil, size: 0)
    let threads = options.threads > 0 ? options.threads : activeProcessorCount()
    let (status, message) = withShimErrorMessage { buffer, capacity in
      if options.filter == .none {
        // Segmented zlib stream compressed on several threads (png_parallel.c).
        png_shim_encode_parallel(
          rows, UInt32(width), UInt32(height), width * 4, writeRGB ? 1 : 0, options.deflater.shim,
          Int32(options.compressionLevel), Int32(threads), &output, buffer, capacity)
      } else {
        png_shim_encode_rgba8(
          rows, UInt32(width), UInt32(height), width * 4, writeRGB ? 1 : 0,
          Int32(options.compressionLevel), PNG_SHIM_STRATEGY_DEFAULT, Int32(filter.rawValue),
          &output, buffer, capacity)
      }
    }
    return try encodedFile(status, output, message: message)
  }
}

extension PNGDeflater {
  /// The shim's constant.
  var shim: Int32 { Int32((self == .igzip ? PNG_SHIM_DEFLATE_IGZIP : PNG_SHIM_DEFLATE_ZLIB).rawValue) }
}
