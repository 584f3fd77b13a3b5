internal import _MapSnapRaster
internal import _MapSnapStyle

#if canImport(Glibc)
  import Glibc
#endif

/// A feature's text and icon shaped once, before its anchors are known:
/// glyph positions in ems × 24 about the anchor, the icon's box in CSS
/// pixels, and the properties its quads and boxes read.
struct ShapedSymbol {
  struct TextPart {
    var shaping: SymbolShaping
    var string: String
    var paint: SDFPaint
    var padding: Double
    var rotate: Double
    var translate: Point
    var allowOverlap, ignorePlacement, optional, keepUpright, mapAligned: Bool
    /// A line label's text shaped for a vertical line (`SymbolVertical`),
    /// drawn instead where the line is steep.
    var vertical: SymbolShaping? = nil
  }
  struct IconPart {
    var name: String
    var image: StyleSprite.Image
    var texels: SpriteTexels
    /// The image's box about the anchor in CSS pixels, icon-size applied.
    var box: Rect
    /// Stretched over the text's box (`icon-text-fit`).
    var fitted: Bool
    var padding: [Double]
    var rotate: Double
    var translate: Point
    var opacity: Double
    var sdf: SDFPaint?
    var linear: Bool
    var allowOverlap, ignorePlacement, optional, keepUpright, mapAligned: Bool
  }
  var text: TextPart?
  /// Point labels with variable anchors: the text at the anchors after the first, in order.
  var textVariants: [TextPart] = []
  var icon: IconPart?
  /// `text-size` in CSS pixels (also what line anchors measure ems by).
  var textSize: Double
  /// The label's length along a line, CSS pixels (the longer of text and icon).
  var length: Double
  var missing: [String]
  var sortKey: Double?
}

extension StyleSymbolLayout {
  /// One em of the SDF ranges, in their pixels.
  static let em = SymbolShaping.oneEm
  /// The field border plus the atlas padding around each glyph (MapLibre's `rectBuffer`).
  static let glyphRectBuffer = Double(GlyphRange.border) + 1

  /// Shapes `f`'s text and icon; nil when it has neither.
  mutating func shape(_ f: EvaluationFeature) -> ShapedSymbol? {
    let p = properties
    var missing: [String] = []
    let placement = p.placement.string(f) ?? "point"
    let textSize = max(0, p.textSize.number(f))
    var text: ShapedSymbol.TextPart?
    var variants: [ShapedSymbol.TextPart] = []
    // A line label that turns with the line and keeps upright also has a
    // vertical line of its text, for steep lines (MapLibre's vertical
    // shaping of CJK line labels).
    let verticalLine = placement != "point" && p.textTurnsWithMap(f, placement: placement) && p.textKeepUpright.bool(f)
    // A point label's `text-writing-mode`: the orientations placement tries, in order.
    let modes = placement == "point" && layer.layout["text-writing-mode"] != nil ? p.textWritingMode.strings(f) : []
    let (characters, string, verticalCharacters) = characters(f, vertical: verticalLine || modes.contains("vertical"), missing: &missing)
    if !characters.isEmpty {
      for (k, (anchor, offset)) in textAnchors(f, placement: placement).enumerated() {
      let align = SymbolShaping.alignment(anchor)
      let justify: Double
      switch p.textJustify.string(f) ?? "center" {
      case "left": justify = 0
      case "right": justify = 1
      case "auto": justify = align.x
      default: justify = 0.5
      }
      let shaping = SymbolShaping.shape(
        characters, maxWidth: placement == "point" ? max(0, p.textMaxWidth.number(f)) * Self.em : 0,
        lineHeight: p.textLineHeight.number(f) * Self.em, justify: justify, align: align, spacing: p.textLetterSpacing.number(f) * Self.em,
        translate: offset)
      if !shaping.glyphs.isEmpty {
        let paint = SDFPaint(
          color: p.textColor.styleColor(f), haloColor: p.textHaloColor.styleColor(f), haloWidth: max(0, p.textHaloWidth.number(f)),
          haloBlur: max(0, p.textHaloBlur.number(f)), opacity: min(1, max(0, p.textOpacity.number(f))), size: textSize / Self.em,
          pixelRatio: camera.pixelRatio)
        let alignment = p.textTurnsWithMap(f, placement: placement)
        var part = ShapedSymbol.TextPart(
          shaping: shaping, string: string, paint: paint, padding: max(0, p.textPadding.number(f)), rotate: p.textRotate.number(f),
          translate: StylePaint.turned(
            [p.textTranslate.pair(f).x, p.textTranslate.pair(f).y], anchor: p.textTranslateAnchor.string(f), bearing: camera.bearing,
            ratio: camera.pixelRatio),
          allowOverlap: p.textAllowOverlap.bool(f), ignorePlacement: p.textIgnorePlacement.bool(f), optional: p.textOptional.bool(f),
          keepUpright: p.textKeepUpright.bool(f), mapAligned: alignment)
        if k == 0, verticalLine, let verticalCharacters {
          part.vertical = SymbolShaping.shape(
            verticalCharacters, maxWidth: 0, lineHeight: p.textLineHeight.number(f) * Self.em, justify: justify, align: align,
            spacing: p.textLetterSpacing.number(f) * Self.em, translate: offset, vertical: .line)
        }
        if k == 0 { text = part } else { variants.append(part) }
        // Vertical writing: the text shaped left-justified with every
        // character upright, the block turned a quarter clockwise about the
        // anchor (MapLibre's vertical point labels), in the writing modes' order.
        if k == 0, !verticalLine, let verticalCharacters {
          var column = part
          column.shaping = SymbolShaping.shape(
            verticalCharacters, maxWidth: max(0, p.textMaxWidth.number(f)) * Self.em, lineHeight: p.textLineHeight.number(f) * Self.em,
            justify: 0, align: align, spacing: p.textLetterSpacing.number(f) * Self.em, translate: offset, vertical: .point)
          column.rotate += 90
          let horizontal = modes.contains("horizontal")
          if modes.first == "vertical" {
            text = column
            if horizontal { variants.insert(part, at: 0) }
          } else {
            variants.insert(column, at: 0)
          }
        }
      }
      }
    }
    let icon = shapeIcon(f, text: text, textSize: textSize, placement: placement, missing: &missing)
    guard text != nil || icon != nil || !missing.isEmpty else { return nil }
    // MapLibre measures both by the text's scale: an icon's width (without icon-size) as if in ems of 24.
    let textLength = text.map { ($0.shaping.right - $0.shaping.left) * textSize / Self.em } ?? 0
    let iconLength = icon.map { Double($0.image.image.width) / $0.image.pixelRatio * textSize / Self.em } ?? 0
    let sortKey: Double? = layer.layout["symbol-sort-key"] != nil ? p.sortKey.number(f) : nil
    return ShapedSymbol(
      text: text, textVariants: variants, icon: icon, textSize: textSize, length: max(textLength, iconLength), missing: missing, sortKey: sortKey)
  }

  /// The anchors a point label may take, in the order placement tries
  /// them, each with its offset (ems × 24): `text-variable-anchor-offset`;
  /// else `text-variable-anchor` with `text-radial-offset` (or `text-offset`
  /// read as distances from the anchor); else `text-anchor` with
  /// `text-offset`. Along lines, `text-anchor` alone.
  func textAnchors(_ f: EvaluationFeature, placement: String) -> [(String, Point)] {
    let p = properties
    let em = Self.em
    let offset = p.textOffset.pair(f)
    let fixed = [(p.textAnchor.string(f) ?? "center", Point(offset.x * em, offset.y * em))]
    guard placement == "point" else { return fixed }
    if layer.layout["text-variable-anchor-offset"] != nil, case .anchorOffsets(let pairs) = p.textVariableAnchorOffset.value(f), !pairs.isEmpty {
      return pairs.map { a, o in (a, Self.variableOffset(a, textOffset: Point((o.first ?? 0) * em, (o.count > 1 ? o[1] : 0) * em))) }
    }
    guard layer.layout["text-variable-anchor"] != nil else { return fixed }
    let anchors = p.textVariableAnchor.strings(f)
    guard !anchors.isEmpty else { return fixed }
    if layer.layout["text-radial-offset"] != nil {
      let r = max(0, p.textRadialOffset.number(f)) * em
      return anchors.map { ($0, Self.variableOffset($0, radial: r)) }
    }
    return anchors.map { ($0, Self.variableOffset($0, textOffset: Point(offset.x * em, offset.y * em))) }
  }

  /// MapLibre's assumed distance from a line's top to its baseline's
  /// glyph origin less an em (24 − 17), by which vertical offsets of
  /// variable anchors are measured from the baseline.
  static let variableBaseline = 7.0

  /// MapLibre's `evaluateVariableOffset` from a radial offset: the text's
  /// box moved `radial` away from the anchor along the anchor's direction
  /// (a diagonal by radial / √2 on each axis).
  static func variableOffset(_ anchor: String, radial: Double) -> Point {
    let h = radial / 2.0.squareRoot()
    var x = 0.0, y = 0.0
    switch anchor {
    case "top-right", "top-left": y = h - variableBaseline
    case "bottom-right", "bottom-left": y = -h + variableBaseline
    case "bottom": y = -radial + variableBaseline
    case "top": y = radial - variableBaseline
    default: break
    }
    switch anchor {
    case "top-right", "bottom-right": x = -h
    case "top-left", "bottom-left": x = h
    case "left": x = radial
    case "right": x = -radial
    default: break
    }
    return Point(x, y)
  }

  /// MapLibre's `evaluateVariableOffset` from a text offset: its two
  /// distances taken away from the anchor on each axis.
  static func variableOffset(_ anchor: String, textOffset o: Point) -> Point {
    let ax = abs(o.x), ay = abs(o.y)
    var x = 0.0, y = 0.0
    switch anchor {
    case "top-right", "top-left", "top": y = ay - variableBaseline
    case "bottom-right", "bottom-left", "bottom": y = -ay + variableBaseline
    default: break
    }
    switch anchor {
    case "top-right", "bottom-right", "right": x = -ax
    case "top-left", "bottom-left", "left": x = ax
    default: break
    }
    return Point(x, y)
  }

  /// The characters of `f`'s `text-field` with their glyphs (its `format`
  /// sections with their font scale, fontstack and colour; `text-transform`
  /// applied; runs shaped by a `font-faces` file one character per glyph),
  /// the plain string, and, when `verticalLine` (vertical writing asked
  /// for) and some character stands upright in vertical writing, the
  /// characters of its vertical line (`SymbolVertical`: punctuation in the
  /// vertical forms the fontstack has). Code points no glyph has are added
  /// to `missing`.
  private mutating func characters(
    _ f: EvaluationFeature, vertical verticalLine: Bool, missing: inout [String]
  ) -> (characters: [SymbolShaping.Character], string: String, vertical: [SymbolShaping.Character]?) {
    let p = properties
    let sections = textSections(f)
    guard !sections.isEmpty else { return ([], "", nil) }
    var stack = p.textFont.strings(f)
    if stack.isEmpty { stack = Self.defaultFont }
    let font = stack.joined(separator: ",")
    var string = ""
    var codes: [UInt32] = []
    var section: [Int] = []
    for (k, s) in sections.enumerated() {
      string += s.text
      for scalar in s.text.unicodeScalars {
        codes.append(scalar.value)
        section.append(k)
      }
    }
    // Right-to-left text: each paragraph's levels (UAX #9; a newline ends
    // a paragraph, whose first strong letter sets its direction) for each
    // line's visual order, and Arabic joined as presentation forms, as
    // MapLibre's RTL plugin does.
    var levels = [UInt8](repeating: 0, count: codes.count)
    if codes.contains(where: { (0x0590...0x08FF).contains($0) || (0xFB1D...0xFEFC).contains($0) }) {
      var start = 0
      for end in codes.indices.filter({ codes[$0] == 0x0A }).map({ $0 + 1 }) + [codes.count] where end > start {
        let paragraph = Array(codes[start..<end])
        if let bidi = Bidi.levels(paragraph) {
          levels.replaceSubrange(start..<end, with: bidi.levels)
          codes.replaceSubrange(start..<end, with: Bidi.arabicPresentationForms(paragraph, levels: bidi.levels))
        }
        start = end
      }
    }
    var out: [SymbolShaping.Character] = []
    let verticalCodes = verticalLine && SymbolVertical.allows(codes) ? SymbolVertical.punctuated(codes) : nil
    var vertical: [SymbolShaping.Character] = []
    var absent: [String] = []
    var next = 0
    for (i, code) in codes.enumerated() {
      guard i >= next else { continue }
      let s = sections[section[i]]
      // A run of a script that needs a shaping engine, drawn from a
      // `font-faces` file: shaped whole by HarfBuzz.
      if glyphs.hasFontFaces, StyleGlyphSource.needsShaping(code) {
        var end = i + 1
        while end < codes.count, section[end] == section[i], StyleGlyphSource.needsShaping(codes[end]) || codes[end] == 0x200C || codes[end] == 0x200D {
          end += 1
        }
        if let run = glyphs.shapedRun(Array(codes[i..<end]), fontstack: s.font ?? font) {
          for g in run {
            let c = SymbolShaping.Character(code: code, glyph: g, scale: s.scale, color: s.color, level: levels[i])
            out.append(c)
            if verticalCodes != nil { vertical.append(c) }
          }
          next = end
          continue
        }
      }
      // The second letter of a lam-alef ligature, and the invisible bidi
      // controls, draw nothing.
      if code == 0xFEFF || code == 0x200E || code == 0x200F || (0x202A...0x202E).contains(code) || (0x2066...0x2069).contains(code) { continue }
      let glyph = glyphs.glyph(code, fontstack: s.font ?? font)
      if glyph == nil && code >= 0x20 && !SymbolShaping.isWhitespace(code), let scalar = Unicode.Scalar(code) {
        absent.append(codePointName(scalar))
      }
      let c = SymbolShaping.Character(code: code, glyph: glyph, scale: s.scale, color: s.color, level: levels[i])
      out.append(c)
      if let v = verticalCodes?[i] {
        let form = v != code ? glyphs.glyph(v, fontstack: s.font ?? font) : nil
        vertical.append(form.map { SymbolShaping.Character(code: v, glyph: $0, scale: s.scale, color: s.color, level: levels[i]) } ?? c)
      }
    }
    if !absent.isEmpty {
      var seen = Set<String>()
      let unique = absent.filter { seen.insert($0).inserted }
      missing.append("text \(Echo.quoted(string)): no glyph for \(unique.prefix(5).joined(separator: ", "))\(unique.count > 5 ? " (and \(unique.count - 5) more)" : "")")
    }
    return (out, string, verticalCodes == nil ? nil : vertical)
  }
}

extension StyleSymbolProperties {
  /// Whether text turns with the map (`text-rotation-alignment` `map`, or
  /// `auto` along a line) rather than staying upright on the screen.
  func textTurnsWithMap(_ f: EvaluationFeature, placement: String) -> Bool {
    switch textRotationAlignment.string(f) ?? "auto" {
    case "map": return true
    case "viewport": return false
    default: return placement != "point"
    }
  }
}

extension StyleSymbolLayout {
  /// True when layout property `name` is a plain string (not an expression
  /// or function) holding `{…}`: its tokens are the feature's properties.
  func hasTokens(_ name: String) -> Bool {
    if case .string(let s)? = layer.layout[name] { return s.contains("{") }
    return false
  }

  /// `s` with each `{name}` replaced by the feature's property `name` as
  /// text (empty when it has none), as MapLibre's `resolveTokens`.
  static func resolveTokens(_ s: String, _ f: EvaluationFeature) -> String {
    guard s.contains("{") else { return s }
    var out = ""
    var i = s.startIndex
    while i < s.endIndex {
      if s[i] == "{", let close = s[s.index(after: i)...].firstIndex(where: { $0 == "}" || $0 == "{" }), s[close] == "}",
        close > s.index(after: i)
      {
        out += f.properties[String(s[s.index(after: i)..<close])]?.displayString ?? ""
        i = s.index(after: close)
      } else {
        out.append(s[i])
        i = s.index(after: i)
      }
    }
    return out
  }

  /// The sections of `f`'s `text-field`: each run's text (legacy tokens
  /// resolved, `text-transform` applied), font scale, fontstack and colour;
  /// empty when it has no text.
  func textSections(_ f: EvaluationFeature) -> [(text: String, scale: Double, font: String?, color: StyleColor?)] {
    let p = properties
    var sections: [(text: String, scale: Double, font: String?, color: StyleColor?)] = []
    let tokens = hasTokens("text-field")
    switch p.textField.value(f) {
    case .formatted(let fm):
      for s in fm.sections where s.image == nil {
        sections.append((tokens ? Self.resolveTokens(s.text, f) : s.text, s.scale ?? 1, s.fontStack, s.textColor))
      }
    case .null: return []
    case let v: sections.append((tokens ? Self.resolveTokens(v.displayString, f) : v.displayString, 1, nil, nil))
    }
    let transform = p.textTransform.string(f) ?? "none"
    if transform != "none" {
      for i in sections.indices {
        sections[i].text = transform == "uppercase" ? sections[i].text.uppercased() : transform == "lowercase" ? sections[i].text.lowercased() : sections[i].text
      }
    }
    return sections.filter { !$0.text.isEmpty }
  }
}
