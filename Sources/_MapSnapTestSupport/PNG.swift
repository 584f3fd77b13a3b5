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
}
