/// An sRGB colour of the expression language, straight (not premultiplied)
/// alpha, each channel in 0...1.
package struct StyleColor: Sendable, Equatable, Hashable {
  package var r: Double
  package var g: Double
  package var b: Double
  package var a: Double

  package init(r: Double, g: Double, b: Double, a: Double = 1) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  package static let black = StyleColor(r: 0, g: 0, b: 0)
  package static let transparent = StyleColor(r: 0, g: 0, b: 0, a: 0)
}

extension StyleColor {
  /// A CSS colour as the style specification reads it (CSS Color Module
  /// Level 4): a named colour, `transparent`, `#rgb`, `#rgba`, `#rrggbb`,
  /// `#rrggbbaa`, `rgb()`/`rgba()` and `hsl()`/`hsla()` in the comma or the
  /// space syntax (alpha after `,` or `/`, as a number or a percentage).
  /// Case and surrounding white space are ignored; nil for anything else.
  package init?(css: String) {
    let text = css.lowercased().trimmingSpaces
    if text == "transparent" {
      self = .transparent
      return
    }
    if let rgb = CSSNamedColorTable.rgb(lowercasedName: text) {
      self.init(r: Double(rgb >> 16) / 255, g: Double((rgb >> 8) & 0xFF) / 255, b: Double(rgb & 0xFF) / 255)
      return
    }
    if text.hasPrefix("#") {
      guard let c = StyleColor(hex: text.dropFirst()) else { return nil }
      self = c
      return
    }
    guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
    let function = text[..<open]
    let body = text[text.index(after: open)..<text.index(before: text.endIndex)]
    guard let args = StyleColor.functionArguments(body) else { return nil }
    switch function {
    case "rgb", "rgba":
      // The three channels are all numbers (0–255) or all percentages.
      let percents = args.channels.filter(\.percent).count
      guard percents == 0 || percents == 3 else { return nil }
      let channel = { (a: CSSNumber) in min(max(a.percent ? a.value / 100 : a.value / 255, 0), 1) }
      self.init(r: channel(args.channels[0]), g: channel(args.channels[1]), b: channel(args.channels[2]), a: args.alpha)
    case "hsl", "hsla":
      guard !args.channels[0].percent, args.channels[1].percent, args.channels[2].percent else { return nil }
      let h = args.channels[0].value
      let s = min(max(args.channels[1].value / 100, 0), 1)
      let l = min(max(args.channels[2].value / 100, 0), 1)
      let (r, g, b) = StyleColor.hslToRGB(h: h, s: s, l: l)
      self.init(r: r, g: g, b: b, a: args.alpha)
    default:
      return nil
    }
  }

  /// The colour as CSS `rgba(R,G,B,A)`, channels rounded to 0–255.
  package var cssString: String {
    let c = { (v: Double) in String(Int((v * 255).rounded())) }
    return "rgba(\(c(r)),\(c(g)),\(c(b)),\(StyleValue.javaScriptString(a)))"
  }

  /// `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` without the `#`.
  private init?(hex: Substring) {
    var nibbles: [Double] = []
    for ch in hex {
      guard let v = ch.hexDigitValue else { return nil }
      nibbles.append(Double(v))
    }
    switch nibbles.count {
    case 3, 4:
      let v = nibbles.map { $0 * 17 / 255 }
      self.init(r: v[0], g: v[1], b: v[2], a: v.count == 4 ? v[3] : 1)
    case 6, 8:
      let v = stride(from: 0, to: nibbles.count, by: 2).map { (nibbles[$0] * 16 + nibbles[$0 + 1]) / 255 }
      self.init(r: v[0], g: v[1], b: v[2], a: v.count == 4 ? v[3] : 1)
    default:
      return nil
    }
  }

  private struct CSSNumber {
    var value: Double
    var percent: Bool
  }

  /// Three channels and an alpha (0–1), from `a, b, c[, alpha]` or `a b c[ / alpha]`.
  private static func functionArguments(_ body: Substring) -> (channels: [CSSNumber], alpha: Double)? {
    var parts: [Substring]
    var alphaPart: Substring?
    if body.contains(",") {
      parts = body.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces[...] }
      guard parts.count == 3 || parts.count == 4 else { return nil }
      if parts.count == 4 { alphaPart = parts.removeLast() }
    } else {
      let halves = body.split(separator: "/", omittingEmptySubsequences: false)
      guard halves.count <= 2 else { return nil }
      parts = halves[0].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
      guard parts.count == 3 else { return nil }
      if halves.count == 2 { alphaPart = halves[1].trimmingSpaces[...] }
    }
    var channels: [CSSNumber] = []
    for (i, p) in parts.enumerated() {
      var text = p
      if i == 0, text.hasSuffix("deg") { text = text.dropLast(3) }
      guard let n = number(text) else { return nil }
      channels.append(n)
    }
    var alpha = 1.0
    if let alphaPart {
      guard let n = number(alphaPart) else { return nil }
      alpha = min(max(n.percent ? n.value / 100 : n.value, 0), 1)
    }
    return (channels, alpha)
  }

  private static func number(_ text: Substring) -> CSSNumber? {
    var t = text
    let percent = t.hasSuffix("%")
    if percent { t = t.dropLast() }
    guard !t.isEmpty, t.allSatisfy({ $0.isNumber || "+-.e".contains($0) }), let v = Double(t) else { return nil }
    return CSSNumber(value: v, percent: percent)
  }

  /// CSS's HSL to RGB: hue in degrees (any turn), saturation and lightness 0–1.
  package static func hslToRGB(h: Double, s: Double, l: Double) -> (Double, Double, Double) {
    let hue = ((h.truncatingRemainder(dividingBy: 360)) + 360).truncatingRemainder(dividingBy: 360)
    func f(_ n: Double) -> Double {
      let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
      let a = s * min(l, 1 - l)
      return l - a * max(-1, min(k - 3, 9 - k, 1))
    }
    return (f(0), f(8), f(4))
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and line breaks.
  var trimmingSpaces: String {
    let isSpace = { (c: Character) in c == " " || c == "\t" || c == "\n" || c == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
    return String(self[first...last])
  }
}
