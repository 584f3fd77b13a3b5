internal import _MapSnapRaster

/// A stretchable sprite image fitted to its text (`icon-text-fit` on an
/// image with `stretchX` / `stretchY`), cut as MapLibre's `getIconQuads`
/// cuts it: along each axis the image is split at its zones' edges into
/// fixed parts, which keep their size in CSS pixels, and stretched parts,
/// which share what is left of the box in proportion to their widths. With
/// `content`, the content rectangle is what fits the text's box, so the
/// fixed parts outside it stand beyond the box. Each piece shows its own
/// texels of the image with the atlas's one-texel border around the whole.
enum IconStretch {
  /// One piece: its rectangle in symbol units about the anchor (before the
  /// symbol is turned) and the texels it shows, in the bordered texel grid
  /// (`SpriteTexels`: the image's pixel (x, y) is texel (x + 1, y + 1)).
  struct Piece: Equatable {
    var box: Rect
    var texture: Rect
  }

  /// A cut across one axis: how far along the image in fixed and in
  /// stretched pixels (MapLibre's `Cut`).
  private struct Cut {
    var fixed: Double
    var stretch: Double
  }

  /// One axis of the image: its size in image pixels, its stretch zones
  /// (the whole axis when it has none), and the content's span on it.
  private struct Axis {
    let zones: [[Double]]
    let stretch: Double
    let fixed: Double
    let stretchOffset: Double
    let stretchContent: Double
    let fixedOffset: Double
    let fixedContent: Double

    init(size: Double, zones given: [[Double]], content: (Double, Double)?) {
      zones = given.isEmpty ? [[0, size]] : given
      stretch = Self.sum(zones, 0, size)
      fixed = size - stretch
      if let (from, to) = content {
        stretchOffset = Self.sum(zones, 0, from)
        stretchContent = Self.sum(zones, from, to)
        fixedOffset = from - stretchOffset
        fixedContent = to - from - stretchContent
      } else {
        (stretchOffset, stretchContent, fixedOffset, fixedContent) = (0, stretch, 0, fixed)
      }
    }

    /// The stretched pixels of `zones` between `from` and `to`.
    static func sum(_ zones: [[Double]], _ from: Double, _ to: Double) -> Double {
      zones.reduce(0) { $0 + (max(from, min(to, $1[1])) - max(from, min(to, $1[0]))) }
    }

    /// The cuts: the border's outer edge, each zone's two edges, the far
    /// border; for an image that does not stretch, its two outer edges
    /// (border included) as one stretched part.
    func cuts(whole: Bool) -> [Cut] {
      if whole { return [Cut(fixed: 0, stretch: -1), Cut(fixed: 0, stretch: stretch + 1)] }
      var out = [Cut(fixed: -1, stretch: 0)]
      for z in zones {
        let last = out[out.count - 1].stretch
        out.append(Cut(fixed: z[0] - last, stretch: last))
        out.append(Cut(fixed: z[0] - last, stretch: last + z[1] - z[0]))
      }
      out.append(Cut(fixed: fixed + 1, stretch: stretch))
      return out
    }

    /// Where `cut` falls, given the box's start and length on this axis:
    /// its stretched part a share of the content's length in the box, its
    /// fixed part in CSS pixels; `emScale` keeps the box at least as long
    /// as the content's fixed pixels (MapLibre's `minFontScale`).
    func position(_ cut: Cut, boxStart: Double, boxLength: Double, pixelRatio: Double, emScale: Double) -> Double {
      let em = boxStart + (stretchContent > 0 ? boxLength * (cut.stretch - stretchOffset) / stretchContent : 0)
      let px = cut.fixed - fixedOffset - (stretch > 0 ? fixedContent * cut.stretch / stretch : 0)
      return em * emScale + px / pixelRatio
    }
  }

  /// The pieces of `image` fitted to `box` (symbol units about the anchor),
  /// or nil when it has neither zones nor content: it is then one quad.
  static func pieces(_ image: StyleSprite.Image, box: Rect) -> [Piece]? {
    guard !image.stretchX.isEmpty || !image.stretchY.isEmpty || image.content != nil else { return nil }
    let whole = image.stretchX.isEmpty && image.stretchY.isEmpty
    let w = Double(image.image.width), h = Double(image.image.height), ratio = image.pixelRatio
    let c = image.content
    let x = Axis(size: w, zones: image.stretchX, content: c.map { ($0[0], $0[2]) })
    let y = Axis(size: h, zones: image.stretchY, content: c.map { ($0[1], $0[3]) })
    let scaleX = box.width > 0 ? max(1, x.fixedContent / ratio / box.width) : 1
    let scaleY = box.height > 0 ? max(1, y.fixedContent / ratio / box.height) : 1
    let xCuts = x.cuts(whole: whole), yCuts = y.cuts(whole: whole)
    var out: [Piece] = []
    for i in 0..<(xCuts.count - 1) {
      let left = xCuts[i], right = xCuts[i + 1]
      let x0 = x.position(left, boxStart: box.minX, boxLength: box.width, pixelRatio: ratio, emScale: scaleX)
      let x1 = x.position(right, boxStart: box.minX, boxLength: box.width, pixelRatio: ratio, emScale: scaleX)
      for j in 0..<(yCuts.count - 1) {
        let top = yCuts[j], bottom = yCuts[j + 1]
        let y0 = y.position(top, boxStart: box.minY, boxLength: box.height, pixelRatio: ratio, emScale: scaleY)
        let y1 = y.position(bottom, boxStart: box.minY, boxLength: box.height, pixelRatio: ratio, emScale: scaleY)
        let texture = Rect(
          minX: left.fixed + left.stretch + 1, minY: top.fixed + top.stretch + 1, maxX: right.fixed + right.stretch + 1,
          maxY: bottom.fixed + bottom.stretch + 1)
        guard texture.width > 0, texture.height > 0 else { continue }
        out.append(Piece(box: Rect(minX: x0, minY: y0, maxX: x1, maxY: y1), texture: texture))
      }
    }
    return out
  }

  /// How far a fitted image with `content` reaches beyond its box on each
  /// side (top, right, bottom, left; CSS pixels): the image outside its
  /// content, which its collision box also covers.
  static func contentPadding(_ image: StyleSprite.Image) -> [Double] {
    guard let c = image.content else { return [0, 0, 0, 0] }
    let r = image.pixelRatio
    return [c[1] / r, (Double(image.image.width) - c[2]) / r, (Double(image.image.height) - c[3]) / r, c[0] / r]
  }
}
