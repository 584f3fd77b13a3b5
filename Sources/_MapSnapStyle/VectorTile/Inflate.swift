import CZlib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why compressed bytes could not be inflated.
package enum InflateError: Error, Sendable, Equatable {
  /// The inflated bytes would pass the caller's limit (a gzip bomb, or a
  /// tile far larger than any real one).
  case tooLarge(limit: Int)
  /// The compressed stream ends before its end marker.
  case truncated
  /// zlib found the stream corrupt; its own words.
  case corrupt(String)

  /// The message a report shows.
  package var message: String {
    switch self {
    case .tooLarge(let limit):
      return "compressed data inflates past \(Inflate.describe(limit)) (the limit of what one tile or directory may inflate to)"
    case .truncated:
      return "compressed data is truncated: the gzip/zlib stream ends early"
    case .corrupt(let why):
      return "compressed data is corrupt: \(why)"
    }
  }
}

extension InflateError: CustomStringConvertible {
  package var description: String { message }
}

/// gzip and zlib inflation through zlib, for gzip'd vector tiles and
/// PMTiles' compressed directories and metadata, always with a limit on
/// the output.
package enum Inflate {
  /// The most one vector tile may inflate to: 64 MiB. Real tiles inflate to
  /// well under 2 MiB (MapLibre and Mapbox recommend under 500 KiB), so
  /// only a broken tile or a gzip bomb (deflate reaches ~1000:1) reaches it.
  package static let tileLimit = 64 << 20

  /// The output buffer's first size before it doubles towards the limit:
  /// four times the input, as tiles compress 3–5:1, and at least 64 KiB.
  static let minimumFirstOutput = 64 << 10

  /// gzip's magic bytes (RFC 1952).
  package static func isGzip(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
  }

  /// A zlib header (RFC 1950): deflate with a window of at most 32 KiB, no
  /// preset dictionary, and the header's check bits. A protocol buffer tile
  /// never starts so (its first byte is a field key, 0x1a for layers).
  package static func isZlib(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 2 else { return false }
    let cmf = UInt16(bytes[0])
    let flg = UInt16(bytes[1])
    return cmf & 0x0f == 8 && cmf >> 4 <= 7 && flg & 0x20 == 0 && (cmf << 8 | flg) % 31 == 0
  }

  /// The bytes inflated when they start with a gzip or zlib header, and the
  /// bytes as they are otherwise.
  package static func ifCompressed(_ bytes: [UInt8], limit: Int) throws(InflateError) -> [UInt8] {
    guard isGzip(bytes) || isZlib(bytes) else { return bytes }
    return try inflate(bytes, limit: limit)
  }

  /// Inflates a gzip or zlib stream (zlib tells them apart by their header)
  /// to at most `limit` bytes. Concatenated gzip members are inflated one
  /// after the other, as gunzip does; bytes after the last stream are ignored.
  package static func inflate(_ bytes: [UInt8], limit requested: Int) throws(InflateError) -> [UInt8] {
    // A limit past any real memory is the largest the buffer arithmetic
    // below (doubling, one byte past the limit) keeps without overflow.
    let limit = max(0, min(requested, Int.max / 4))
    guard bytes.count <= Int(UInt32.max) else { throw .tooLarge(limit: limit) }
    var stream = z_stream()
    // 15: a 32 KiB window; +32: detect a gzip or a zlib header.
    guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw .corrupt("zlib could not start")
    }
    defer { inflateEnd(&stream) }
    // The output grows by doubling in a malloc'd buffer (realloc moves it
    // without zero-filling), one byte past the limit at most: a full buffer
    // at that size means the output passes the limit.
    var capacity = min(limit, max(minimumFirstOutput, bytes.count * 4)) + 1
    guard var output = malloc(capacity)?.assumingMemoryBound(to: UInt8.self) else { throw .tooLarge(limit: limit) }
    defer { free(output) }
    var produced = 0
    try bytes.withUnsafeBufferPointer { (input) throws(InflateError) in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = UInt32(input.count)
      while true {
        if produced == capacity {
          guard capacity <= limit else { throw .tooLarge(limit: limit) }
          let grown = min(capacity * 2, limit + 1)
          guard let moved = realloc(output, grown) else { throw .tooLarge(limit: limit) }
          output = moved.assumingMemoryBound(to: UInt8.self)
          capacity = grown
        }
        stream.next_out = output + produced
        // zlib counts in 32 bits: a larger free space is given a part at a time.
        stream.avail_out = UInt32(min(capacity - produced, Int(UInt32.max)))
        let status = CZlib.inflate(&stream, Z_NO_FLUSH)
        produced = stream.next_out - output
        switch status {
        case Z_OK:
          continue
        case Z_STREAM_END:
          let consumed = input.count - Int(stream.avail_in)
          // Another gzip member follows: inflate it too.
          if stream.avail_in >= 2 && input[consumed] == 0x1f && input[consumed + 1] == 0x8b {
            guard inflateReset(&stream) == Z_OK else { throw .corrupt("zlib could not restart") }
            continue
          }
          if produced > limit { throw .tooLarge(limit: limit) }
          return
        case Z_BUF_ERROR:
          // No progress possible: the input ran out before the stream's end,
          // unless the output is what is full (it grows above).
          if produced == capacity { continue }
          throw .truncated
        default:
          let why = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
          throw .corrupt(why)
        }
      }
    }
    let result = [UInt8](unsafeUninitializedCapacity: produced) { buffer, count in
      if produced > 0 { buffer.baseAddress!.update(from: output, count: produced) }
      count = produced
    }
    return result
  }

  /// A byte count as a report writes it: "64 MiB", "512 KiB", "100 bytes".
  package static func describe(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}
