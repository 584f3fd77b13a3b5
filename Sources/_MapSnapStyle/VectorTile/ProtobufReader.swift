/// A cursor over protocol buffer bytes (the wire format Mapbox Vector Tiles
/// and nothing else here use): varints, zigzag integers, fixed-width numbers
/// and length-delimited fields, each bounds-checked against `end`.
///
/// Only valid while the buffer it reads is alive: callers make one inside
/// `withUnsafeBufferPointer` and never let it escape.
struct ProtobufReader {
  /// The protocol buffer wire types (the low 3 bits of a field key).
  enum WireType: UInt8 {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
  }

  /// The longest varint: 64 bits in 7-bit groups.
  static let maxVarintBytes = 10

  let base: UnsafePointer<UInt8>
  /// The index of the next byte to read.
  var position: Int
  /// One past the last byte this reader may read.
  let end: Int

  init(_ buffer: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
    // An empty array's buffer has no base address: any valid pointer serves,
    // since a reader with start == end reads nothing.
    self.base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
    self.position = start
    self.end = end
  }

  var isAtEnd: Bool { position >= end }

  /// A varint of up to 64 bits. A varint that runs past `end`, or longer than
  /// ten bytes, is `truncatedVarint`.
  @inline(__always)
  mutating func varint() throws(VectorTileError) -> UInt64 {
    // The common case: one byte.
    if position < end {
      let b = base[position]
      if b < 0x80 {
        position += 1
        return UInt64(b)
      }
    }
    return try longVarint()
  }

  mutating func longVarint() throws(VectorTileError) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    let start = position
    while position < end {
      let b = base[position]
      position += 1
      result |= UInt64(b & 0x7f) << shift
      if b < 0x80 { return result }
      shift += 7
      if position - start >= Self.maxVarintBytes { break }
    }
    throw .truncatedVarint(offset: start)
  }

  /// A varint that must fit 32 bits (lengths, counts, indices, commands).
  @inline(__always)
  mutating func varint32() throws(VectorTileError) -> UInt32 {
    let start = position
    let v = try varint()
    guard v <= UInt64(UInt32.max) else { throw .valueTooLarge(offset: start) }
    return UInt32(truncatingIfNeeded: v)
  }

  /// The zigzag decoding of a varint (`sint32`/`sint64`, geometry parameters).
  @inline(__always)
  static func zigzag(_ v: UInt64) -> Int64 {
    Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
  }

  /// A field key: its number and wire type. An unknown wire type (3, 4: the
  /// deprecated groups; 6, 7) is `wrongWireType`.
  mutating func key() throws(VectorTileError) -> (field: UInt64, wire: WireType) {
    let start = position
    let k = try varint()
    guard let wire = WireType(rawValue: UInt8(k & 7)) else {
      throw .wrongWireType(field: k >> 3, wire: UInt8(k & 7), offset: start)
    }
    return (k >> 3, wire)
  }

  /// The bounds of a length-delimited field's payload (the reader moves past it).
  mutating func lengthDelimited() throws(VectorTileError) -> Range<Int> {
    let start = position
    let length = try varint()
    guard length <= UInt64(end - position) else { throw .lengthPastEnd(offset: start, length: length) }
    let from = position
    position += Int(length)
    return from..<position
  }

  mutating func fixed32() throws(VectorTileError) -> UInt32 {
    guard end - position >= 4 else { throw .lengthPastEnd(offset: position, length: 4) }
    var v: UInt32 = 0
    for i in 0..<4 { v |= UInt32(base[position + i]) << (8 * UInt32(i)) }
    position += 4
    return v
  }

  mutating func fixed64() throws(VectorTileError) -> UInt64 {
    guard end - position >= 8 else { throw .lengthPastEnd(offset: position, length: 8) }
    var v: UInt64 = 0
    for i in 0..<8 { v |= UInt64(base[position + i]) << (8 * UInt64(i)) }
    position += 8
    return v
  }

  /// Moves past a field's value of the given wire type.
  mutating func skip(_ wire: WireType) throws(VectorTileError) {
    switch wire {
    case .varint: _ = try varint()
    case .fixed64:
      guard end - position >= 8 else { throw .lengthPastEnd(offset: position, length: 8) }
      position += 8
    case .fixed32:
      guard end - position >= 4 else { throw .lengthPastEnd(offset: position, length: 4) }
      position += 4
    case .lengthDelimited: _ = try lengthDelimited()
    }
  }

  /// The payload as a string (UTF-8; invalid sequences become U+FFFD, as
  /// every MVT reader does rather than drop the tile).
  func string(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
  }

  /// Requires the wire type a field of the schema has.
  @inline(__always)
  func expect(_ wire: WireType, _ wanted: WireType, field: UInt64) throws(VectorTileError) {
    if wire != wanted { throw .wrongWireType(field: field, wire: wire.rawValue, offset: position) }
  }
}
