/// One line of text shaped in ems: glyphs in visual order (left to right on
/// screen), each with its face, glyph id and pen position from the line's
/// start (x right, y down from the baseline), and the line's advance.
struct ShapedLine: Sendable {
  struct Glyph: Sendable {
    var face: Int32
    var glyph: UInt32
    var x: Double
    var y: Double
    /// The pen's advance after the glyph (letter spacing included).
    var advance: Double
  }
  var glyphs: [Glyph] = []
  var width: Double = 0
}

/// Text shaped once per font chain, in ems, so that every size is a scale of
/// it: its lines, and the code points no face in the chain covers.
struct ShapedText: Sendable {
  var lines: [ShapedLine] = []
  var missing: [Unicode.Scalar] = []
}
