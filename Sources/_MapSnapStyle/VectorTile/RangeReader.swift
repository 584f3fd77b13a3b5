/// Reads byte ranges of one resource (a PMTiles archive): a local file, an
/// HTTP resource through range requests, or bytes in memory.
package protocol RangeReader: Sendable {
  /// `length` bytes from `offset`. Fewer only at the end of the resource;
  /// an error when the range cannot be read at all.
  func read(offset: UInt64, length: Int) throws -> [UInt8]
  /// The resource's size, when known.
  var size: UInt64? { get }
}

/// Why a range read failed (the readers here; an HTTP reader has its own).
package struct RangeReadError: Error, Sendable, Equatable, CustomStringConvertible {
  package var message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}

/// A resource held in memory (fuzz targets, tests, a small file read whole).
package struct MemoryRangeReader: RangeReader {
  package let bytes: [UInt8]

  package init(bytes: [UInt8]) { self.bytes = bytes }

  package var size: UInt64? { UInt64(bytes.count) }

  package func read(offset: UInt64, length: Int) throws -> [UInt8] {
    guard length >= 0 else { throw RangeReadError("a read of \(length) bytes") }
    guard offset < UInt64(bytes.count) else { return [] }
    let start = Int(offset)
    return Array(bytes[start..<(start + min(length, bytes.count - start))])
  }
}
