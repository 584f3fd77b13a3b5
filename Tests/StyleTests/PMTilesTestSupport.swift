@testable import _MapSnapStyle

/// PMTiles archives written for the tests: directories serialized by hand,
/// uncompressed unless the test says, with any header field overridden.
enum TestPMTiles {
  static func directory(_ entries: [PMTilesEntry], contiguousOffsets: Bool = true) -> [UInt8] {
    var out = TestProtobuf.varint(UInt64(entries.count))
    var last: UInt64 = 0
    for e in entries {
      out += TestProtobuf.varint(e.tileID - last)
      last = e.tileID
    }
    for e in entries { out += TestProtobuf.varint(UInt64(e.runLength)) }
    for e in entries { out += TestProtobuf.varint(UInt64(e.length)) }
    for (i, e) in entries.enumerated() {
      if contiguousOffsets && i > 0 && e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) {
        out += [0]
      } else {
        out += TestProtobuf.varint(e.offset + 1)
      }
    }
    return out
  }

  /// Header, root directory, metadata, leaves, tile data, in that order.
  static func archive(
    root: [UInt8], metadata: [UInt8] = [], leaves: [UInt8] = [], tiles: [UInt8] = [], internalCompression: UInt8 = 1,
    tileCompression: UInt8 = 1, rootLength: UInt64? = nil
  ) -> [UInt8] {
    var header = Array("PMTiles".utf8) + [3]
    func u64(_ v: UInt64) { header += withUnsafeBytes(of: v.littleEndian, Array.init) }
    func i32(_ v: Int32) { header += withUnsafeBytes(of: v.littleEndian, Array.init) }
    let rootOffset = UInt64(PMTilesHeader.length)
    let metadataOffset = rootOffset + UInt64(root.count)
    let leavesOffset = metadataOffset + UInt64(metadata.count)
    let tilesOffset = leavesOffset + UInt64(leaves.count)
    u64(rootOffset)
    u64(rootLength ?? UInt64(root.count))
    u64(metadataOffset)
    u64(UInt64(metadata.count))
    u64(leavesOffset)
    u64(UInt64(leaves.count))
    u64(tilesOffset)
    u64(UInt64(tiles.count))
    u64(0)
    u64(0)
    u64(0)
    header += [1, internalCompression, tileCompression, 1, 0, 14]
    i32(-1_800_000_000)
    i32(-850_000_000)
    i32(1_800_000_000)
    i32(850_000_000)
    header += [0]
    i32(0)
    i32(0)
    return header + root + metadata + leaves + tiles
  }

  static func entry(_ tileID: UInt64, offset: UInt64, length: UInt32, run: UInt32 = 1) -> PMTilesEntry {
    PMTilesEntry(tileID: tileID, offset: offset, length: length, runLength: run)
  }
}
