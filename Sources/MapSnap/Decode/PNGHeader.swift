/// A PNG file's header (its signature and IHDR), read from its first 33
/// bytes without reading the rest: what bounds a decode before a byte of
/// image data is read. A file that is not a PNG is known from 8 bytes, and
/// a PNG's file size is bounded by its declared pixels (`maximumFileBytes`).
struct PNGHeader: Sendable, Equatable {
  var width: Int
  var height: Int
  var bitDepth: Int
  var colorType: Int
  var interlaced: Bool

  /// Bytes read: the 8-byte signature and the IHDR chunk (4 length, 4 type,
  /// 13 data, 4 CRC).
  static let prefixBytes = 33
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The header of the PNG file at `path`.
  /// - Throws: the errors of `PNGDecoder.read`, `notAPNG` without the
  ///   signature, `decodingFailed` when IHDR does not follow it.
  static func read(_ path: String) throws(PNGError) -> PNGHeader {
    let bytes: [UInt8]
    do {
      bytes = try FileIO.readPrefix(path, count: prefixBytes)
    } catch {
      switch error {
      case .notFound: throw .fileNotFound(path: path)
      case .isDirectory, .failed: throw .fileReadFailed(path: path, reason: error.reason)
      }
    }
    guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw .notAPNG }
    guard bytes.count == prefixBytes, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
      throw .decodingFailed("the IHDR chunk does not follow the signature")
    }
    func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    // The PNG limit: each side 1 … 2^31 − 1 (so `pixelCount` never overflows).
    guard (1...Int(Int32.max)).contains(u32(16)), (1...Int(Int32.max)).contains(u32(20)) else {
      throw .decodingFailed("the image's width and height must be 1 to 2147483647, found \(u32(16))×\(u32(20))")
    }
    return PNGHeader(width: u32(16), height: u32(20), bitDepth: Int(bytes[24]), colorType: Int(bytes[25]), interlaced: bytes[28] != 0)
  }

  /// The most bytes a PNG of this header can take: its filtered rows (one
  /// filter byte each) at the declared depth and channels, grown by an
  /// eighth (deflate's stored blocks add 5 bytes per 65,535, fixed Huffman
  /// codes about 6 % on noise; each IDAT chunk 12 bytes), plus 16 MiB of
  /// other chunks (text, ICC profile, palette). A larger file is not this
  /// image: it is refused before it is read.
  var maximumFileBytes: Int {
    let channels: Int
    switch colorType {
    case 0, 3: channels = 1
    case 4: channels = 2
    case 2: channels = 3
    default: channels = 4
    }
    let rowBytes = (width * channels * max(bitDepth, 1) + 7) / 8 + 1
    let raw = rowBytes * height
    return raw + raw / 8 + (16 << 20)
  }

  var pixelCount: Int { width * height }
}
