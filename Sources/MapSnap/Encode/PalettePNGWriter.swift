internal import _PNGShims

/// Writes a ``QuantizedImage`` as a PNG of colour type 3 (the palette path of
/// ``PNGEncoder``): `PLTE` with every entry, `tRNS` with the alphas of the
/// translucent entries (which come first) only when there are any, and the
/// indices at the smallest bit depth that holds the palette: 1 bit for up
/// to 2 entries, 2 for 4, 4 for 16, else 8.
///
/// **zlib level.** Levels 1 to 7 of ``PNGEncodingOptions/compressionLevel``
/// are raised to ``minimumLevel`` (8); 0 (stored) and 8–9 are kept. Index
/// data is one byte a pixel instead of three or four, in long runs: on the
/// Helsinki frames (1024², 256 colours) level 8 takes 17–70 ms, about what
/// level 2 takes on the true-colour frame, and makes files 8–12 % smaller
/// than level 2 (the difference between about 44 % and 39.5 % of the
/// true-colour file).
enum PalettePNGWriter {
  /// The least zlib level palette data is compressed with (see above).
  static let minimumLevel = 8

  /// The zlib level used for palette data when `level` is asked for.
  static func zlibLevel(for level: Int) -> Int {
    level == 0 ? 0 : max(level, minimumLevel)
  }

  /// The bit depth written for a palette of `count` entries.
  static func bitDepth(forPaletteOf count: Int) -> Int {
    Int(png_shim_palette_bit_depth(UInt32(count)))
  }

  static func write(_ image: QuantizedImage, options: PNGEncodingOptions) throws(PNGError) -> [UInt8] {
    let filter: PNGShimFilter =
      switch options.filter {
      case .none: PNG_SHIM_FILTER_NONE
      case .adaptive: PNG_SHIM_FILTER_ADAPTIVE
      }
    var output = PNGShimBuffer(data: nil, size: 0)
    let (status, message) = withShimErrorMessage { buffer, capacity in
      image.indices.withUnsafeBufferPointer { indices in
        image.palette.withUnsafeBytes { palette in
          png_shim_encode_palette(
            indices.baseAddress, UInt32(image.width), UInt32(image.height), image.width,
            palette.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(image.palette.count),
            UInt32(image.translucentCount), Int32(zlibLevel(for: options.compressionLevel)), Int32(filter.rawValue), &output,
            buffer, capacity)
        }
      }
    }
    return try encodedFile(status, output, message: message)
  }
}
