/// A PNG `tEXt` chunk (PNG specification 11.3.4.3): a Latin-1 keyword, a
/// zero byte, and the text. mapsnap writes one, `mapsnap-inputs`, right
/// after `IHDR`, holding the digest of everything a frame's bytes depend on
/// (`InputDigest`); `mapsnap batch --resume` reads it back without decoding
/// the image, as it comes before any image data.
package enum PNGTextChunk {
  /// The keyword of the chunk that holds a frame's input digest.
  public static let inputsKeyword = "mapsnap-inputs"

  /// `png` with a `tEXt` chunk of `keyword` and `text` inserted after the
  /// `IHDR` chunk. Both must be printable ASCII (the keyword 1–79
  /// characters, no leading, trailing or double spaces, as PNG requires).
  public static func inserting(keyword: String, text: String, into png: [UInt8]) -> [UInt8] {
    precondition(isValidKeyword(keyword), "invalid PNG keyword")
    precondition(text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "text must be printable ASCII")
    // Signature (8 bytes), then IHDR: length (4), type (4), 13 data bytes, CRC (4).
    let afterHeader = 8 + 12 + 13
    precondition(png.count >= afterHeader && Array(png[12..<16]) == Array("IHDR".utf8), "not a PNG from PNGEncoder")
    var out = png
    out.insert(contentsOf: chunk(keyword: keyword, text: text), at: afterHeader)
    return out
  }

  /// The bytes of a `tEXt` chunk of `keyword` and `text` (length, type,
  /// data, CRC), as `inserting` places it; `PNGStreamWriter` writes the same
  /// bytes right after `IHDR`, so a streamed file is byte-identical.
  public static func chunk(keyword: String, text: String) -> [UInt8] {
    precondition(isValidKeyword(keyword), "invalid PNG keyword")
    precondition(text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "text must be printable ASCII")
    let data = Array(keyword.utf8) + [0] + Array(text.utf8)
    var chunk: [UInt8] = []
    chunk.reserveCapacity(data.count + 12)
    appendBigEndian(UInt32(data.count), to: &chunk)
    let typeAndData = Array("tEXt".utf8) + data
    chunk += typeAndData
    appendBigEndian(crc32(typeAndData), to: &chunk)
    return chunk
  }

  /// The text of the first `tEXt` chunk named `keyword` before the image
  /// data, or nil when there is none, the bytes are not a PNG, or the
  /// chunk's CRC is wrong. Reads only the chunk headers it passes, so the
  /// first few kilobytes of a file are enough.
  public static func text(keyword: String, in png: [UInt8]) -> String? {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard png.count >= 8, Array(png[0..<8]) == signature else { return nil }
    var at = 8
    while at + 12 <= png.count {
      let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
      let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
      guard length <= png.count - at - 12 else { return nil }
      if type == "IDAT" || type == "IEND" { return nil }
      if type == "tEXt" {
        let typeAndData = Array(png[(at + 4)..<(at + 8 + length)])
        let stored = UInt32(png[at + 8 + length]) << 24 | UInt32(png[at + 9 + length]) << 16
          | UInt32(png[at + 10 + length]) << 8 | UInt32(png[at + 11 + length])
        let data = typeAndData.dropFirst(4)
        if stored == crc32(typeAndData), let zero = data.firstIndex(of: 0),
          String(decoding: data[data.startIndex..<zero], as: UTF8.self) == keyword
        {
          return String(decoding: data[(zero + 1)...], as: UTF8.self)
        }
      }
      at += 12 + length
    }
    return nil
  }

  /// PNG keywords: 1–79 printable Latin-1 characters, no leading, trailing
  /// or consecutive spaces (ASCII here).
  static func isValidKeyword(_ k: String) -> Bool {
    let b = Array(k.utf8)
    guard (1...79).contains(b.count), b.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), b.first != 0x20, b.last != 0x20 else { return false }
    return !zip(b, b.dropFirst()).contains { $0 == 0x20 && $1 == 0x20 }
  }

  private static func appendBigEndian(_ v: UInt32, to out: inout [UInt8]) {
    out += [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
  }

  /// CRC-32 as PNG defines it (ISO 3309, the reflected polynomial 0xEDB88320).
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }

  private static let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }
}
