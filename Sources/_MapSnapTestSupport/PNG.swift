/// The bytes of a PNG file, read without decoding it.
public enum PNG {
  /// The 8-byte signature every PNG starts with.
  public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// True when `bytes` start with the PNG signature.
  public static func hasSignature(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 8 && Array(bytes[0..<8]) == signature
  }

  /// Width and height from the IHDR chunk (bytes 16–23, big-endian), or nil
  /// when the bytes do not start like a PNG.
  public static func size(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
    guard hasSignature(bytes), bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
    func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (be32(16), be32(20))
  }

  /// True when the stream ends with an IEND chunk (the file is complete).
  public static func endsWithIEND(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 12 && Array(bytes[(bytes.count - 8)..<(bytes.count - 4)]) == Array("IEND".utf8)
  }

  /// `value` as 4 big-endian bytes, as PNG stores lengths and sizes.
  public static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  /// One chunk: length, type, data, CRC-32 of type and data; for PNGs built
  /// by hand in tests (written here independently of the library's own).
  public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typeAndData = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
  }

  /// CRC-32 as PNG defines it (reflected polynomial 0xEDB88320), bit by bit.
  public static func crc32(_ data: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
    }
    return ~crc
  }
}
