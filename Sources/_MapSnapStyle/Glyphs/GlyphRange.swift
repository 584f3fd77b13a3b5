/// One SDF glyph range file (`{fontstack}/{start}-{end}.pbf`, the format of
/// node-fontnik and every MapLibre glyph server): protocol buffers holding
/// `glyphs { repeated fontstack stacks = 1 }`, `fontstack { name = 1;
/// range = 2; repeated glyph glyphs = 3 }` and `glyph { id = 1; bitmap = 2;
/// width = 3; height = 4; left = 5 (sint32); top = 6 (sint32); advance = 7 }`.
///
/// A glyph's bitmap is a signed distance field of `(width + 6) × (height + 6)`
/// bytes (a border of `GlyphRange.border` on each side); the edge of the shape
/// is at 192 (`SDFGlyph.edge`). Glyphs whose bitmap is not that size are
/// dropped (and counted in `dropped`); at most `maxGlyphs` are read, and none
/// wider or taller than `maxGlyphSide`.
package struct GlyphRange: Sendable {
  /// The border of empty field around each glyph's bitmap, in pixels.
  package static let border = 3
  /// A range holds 256 code points; a few more tolerate duplicates.
  package static let maxGlyphs = 1024
  /// The largest glyph side read, in field pixels (glyphs are cut at 24 px
  /// em; 256 leaves room for any real font).
  package static let maxGlyphSide = 256

  /// The glyphs by code point.
  package private(set) var glyphs: [UInt32: SDFGlyph] = [:]
  /// The fontstack's name as the file gives it (the first stack's).
  package private(set) var name: String?
  /// Glyphs left out: a bitmap of the wrong size, a side over `maxGlyphSide`,
  /// or more than `maxGlyphs`.
  package private(set) var dropped = 0

  /// Reads `bytes`; throws on bytes that are not the format.
  package init(_ bytes: [UInt8]) throws(VectorTileError) {
    try bytes.withUnsafeBufferPointer { (buffer) throws(VectorTileError) in
      var reader = ProtobufReader(buffer, start: 0, end: buffer.count)
      while !reader.isAtEnd {
        let (field, wire) = try reader.key()
        guard field == 1 else {
          try reader.skip(wire)
          continue
        }
        try reader.expect(wire, .lengthDelimited, field: field)
        let stack = try reader.lengthDelimited()
        try readStack(buffer, stack)
      }
    }
  }

  private mutating func readStack(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(VectorTileError) {
    var reader = ProtobufReader(buffer, start: range.lowerBound, end: range.upperBound)
    while !reader.isAtEnd {
      let (field, wire) = try reader.key()
      switch field {
      case 1:
        try reader.expect(wire, .lengthDelimited, field: field)
        let r = try reader.lengthDelimited()
        if name == nil { name = reader.string(r) }
      case 3:
        try reader.expect(wire, .lengthDelimited, field: field)
        let r = try reader.lengthDelimited()
        let glyph = try Self.readGlyph(buffer, r)
        guard let glyph, glyphs.count < Self.maxGlyphs else {
          dropped += 1
          continue
        }
        glyphs[glyph.id] = glyph
      default:
        try reader.skip(wire)
      }
    }
  }

  /// One glyph, or nil when its bitmap or size cannot be drawn.
  private static func readGlyph(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(VectorTileError) -> SDFGlyph? {
    var reader = ProtobufReader(buffer, start: range.lowerBound, end: range.upperBound)
    var id: UInt64?
    var bitmap: Range<Int>?
    var width: UInt64 = 0, height: UInt64 = 0, advance: UInt64 = 0
    var left: Int64 = 0, top: Int64 = 0
    while !reader.isAtEnd {
      let (field, wire) = try reader.key()
      switch (field, wire) {
      case (1, .varint): id = try reader.varint()
      case (2, .lengthDelimited): bitmap = try reader.lengthDelimited()
      case (3, .varint): width = try reader.varint()
      case (4, .varint): height = try reader.varint()
      case (5, .varint): left = ProtobufReader.zigzag(try reader.varint())
      case (6, .varint): top = ProtobufReader.zigzag(try reader.varint())
      case (7, .varint): advance = try reader.varint()
      default: try reader.skip(wire)
      }
    }
    let side = UInt64(maxGlyphSide)
    guard let id, id <= 0x10FFFF, width <= side, height <= side, advance <= side * 4, abs(left) <= Int64(side) * 4, abs(top) <= Int64(side) * 4
    else { return nil }
    let w = Int(width), h = Int(height)
    var pixels: [UInt8] = []
    if w > 0 && h > 0 {
      guard let bitmap, bitmap.count == (w + 2 * border) * (h + 2 * border) else { return nil }
      pixels = Array(UnsafeBufferPointer(rebasing: buffer[bitmap]))
    }
    return SDFGlyph(id: UInt32(id), field: pixels, width: w, height: h, left: Int(left), top: Int(top), advance: Int(advance))
  }
}

/// One glyph of a glyph range: its signed distance field and metrics, in
/// the range's pixels (24 to the em).
package struct SDFGlyph: Sendable {
  /// The field value at the shape's edge (inside above it): 192 of 255,
  /// the 0.75 MapLibre's shader reads as the edge.
  package static let edge = 192
  package let id: UInt32
  /// `(width + 6) × (height + 6)` bytes, rows top to bottom; empty for a
  /// glyph without ink (a space).
  package let field: [UInt8]
  package let width: Int
  package let height: Int
  /// From the pen to the ink's left edge.
  package let left: Int
  /// From the baseline up to the ink's top, less the font's ascent (as
  /// node-fontnik writes it: usually negative).
  package let top: Int
  package let advance: Int

  package init(id: UInt32, field: [UInt8], width: Int, height: Int, left: Int, top: Int, advance: Int) {
    self.id = id
    self.field = field
    self.width = width
    self.height = height
    self.left = left
    self.top = top
    self.advance = advance
  }
}
