/// One entry of a PMTiles directory: a run of `runLength` tiles from
/// `tileID` that share one stored tile, or (`runLength` 0) a leaf directory
/// covering the ids from `tileID` to the next entry's.
package struct PMTilesEntry: Sendable, Equatable {
  package var tileID: UInt64
  /// From the start of the tile data section (tiles), or of the leaf
  /// directories section (leaves).
  package var offset: UInt64
  package var length: UInt32
  package var runLength: UInt32

  package var isLeaf: Bool { runLength == 0 }
}

/// A decoded PMTiles directory: its entries in tile id order.
///
/// Encoded (after the archive's internal compression is undone) as varints:
/// the entry count, then each column in turn: tile ids as deltas from the
/// previous id, run lengths, lengths, and offsets, where 0 means "just after
/// the previous entry's bytes" and any other value is the offset plus one.
package struct PMTilesDirectory: Sendable {
  package let entries: [PMTilesEntry]

  /// Decodes the directory bytes (inflated) read at `offset` (for messages).
  package init(bytes: [UInt8], offset: UInt64) throws(PMTilesError) {
    do {
      entries = try Self.decode(bytes)
    } catch let error as PMTilesDirectoryFault {
      throw .malformedDirectory(offset: offset, why: error.why)
    } catch {
      throw .malformedDirectory(offset: offset, why: (error as? VectorTileError)?.message ?? "\(error)")
    }
  }

  struct PMTilesDirectoryFault: Error { var why: String }

  static func decode(_ bytes: [UInt8]) throws -> [PMTilesEntry] {
    try bytes.withUnsafeBufferPointer { buffer in
      var reader = ProtobufReader(buffer, start: 0, end: buffer.count)
      let count = try reader.varint()
      // Every entry takes at least one byte in each of the four columns.
      guard count <= UInt64(buffer.count - reader.position) / 4 else {
        throw PMTilesDirectoryFault(why: "it claims \(count) entries in \(buffer.count) bytes")
      }
      guard count <= UInt64(PMTilesLimits.maxDirectoryEntries) else {
        throw PMTilesDirectoryFault(why: "\(count) entries is more than \(PMTilesLimits.maxDirectoryEntries), the limit per directory")
      }
      let n = Int(count)
      var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
      var id: UInt64 = 0
      for i in 0..<n {
        let (next, overflow) = id.addingReportingOverflow(try reader.varint())
        guard !overflow else { throw PMTilesDirectoryFault(why: "tile ids overflow 64 bits") }
        id = next
        entries[i].tileID = id
      }
      for i in 0..<n { entries[i].runLength = try reader.varint32() }
      for i in 0..<n {
        entries[i].length = try reader.varint32()
        guard entries[i].length > 0 else { throw PMTilesDirectoryFault(why: "entry \(i) has a length of 0") }
      }
      for i in 0..<n {
        let v = try reader.varint()
        if v == 0 {
          guard i > 0 else { throw PMTilesDirectoryFault(why: "the first entry's offset is 'after the previous entry'") }
          let (next, overflow) = entries[i - 1].offset.addingReportingOverflow(UInt64(entries[i - 1].length))
          guard !overflow else { throw PMTilesDirectoryFault(why: "offsets overflow 64 bits") }
          entries[i].offset = next
        } else {
          entries[i].offset = v - 1
        }
      }
      return entries
    }
  }

  /// The entry that holds `tileID`: the last entry at or before it, when it
  /// is a leaf (which covers the ids up to the next entry) or a run that
  /// reaches it; nil otherwise.
  package func find(_ tileID: UInt64) -> PMTilesEntry? {
    var low = 0
    var high = entries.count - 1
    while low <= high {
      let mid = (low + high) >> 1
      let id = entries[mid].tileID
      if id < tileID {
        low = mid + 1
      } else if id > tileID {
        high = mid - 1
      } else {
        return entries[mid]
      }
    }
    guard high >= 0 else { return nil }
    let entry = entries[high]
    if entry.isLeaf || tileID - entry.tileID < UInt64(entry.runLength) { return entry }
    return nil
  }

  /// The bytes the entries take in memory (for the cache's budget).
  var memoryBytes: Int { entries.count * MemoryLayout<PMTilesEntry>.stride }
}
