public import _MapSnapRaster

/// Parses the CSS colour syntaxes a scene accepts.
///
/// Accepted, with surrounding whitespace ignored and names, hex digits and
/// function names case-insensitive:
/// - `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` (a short digit `d` means `dd`);
/// - `rgb(r, g, b)` and `rgba(r, g, b, a)` (the two names are aliases, so
///   either takes three or four arguments), where r, g, b are all numbers
///   0...255 or all percentages 0%...100%, and the alpha is a number 0...1 or
///   a percentage;
/// - the space-separated form `rgb(r g b)` / `rgb(r g b / a)`, where numbers
///   and percentages may be mixed and `none` means 0;
/// - `transparent` (black at alpha 0) and the 148 CSS Color Module Level 4
///   named colours.
///
/// Channels may have a fraction (`rgb(127.5, 0, 0)`) and are rounded to the
/// nearest 8-bit step (half away from zero). Unlike a browser, a value out of
/// range is rejected rather than clamped: in a scene it is almost always a
/// mistake.
package enum ColorParser {
  /// What a colour value must look like, for "expected …" error messages.
  public static let expectedDescription =
    "a colour: #rgb, #rrggbb, #rrggbbaa, rgb(…), rgba(…) or a CSS colour name"

  /// The colour `text` denotes, or nil when it is not one of the accepted
  /// syntaxes or a value is out of range.
  public static func parse(_ text: String) -> Color? {
    let trimmed = trimWhitespace(Substring(text))
    guard let first = trimmed.first else { return nil }
    if first == "#" { return parseHex(trimmed.dropFirst()) }
    let lower = trimmed.lowercased()
    if lower.hasSuffix(")") {
      if lower.hasPrefix("rgba(") {
        return parseFunctionArguments(lower.dropFirst(5).dropLast())
      }
      if lower.hasPrefix("rgb(") {
        return parseFunctionArguments(lower.dropFirst(4).dropLast())
      }
      return nil
    }
    if lower == "transparent" { return .transparent }
    return CSSNamedColors.color(lowercasedName: lower)
  }

  /// The named colour (or `transparent`) closest to `text`, for a "did you
  /// mean" hint, when `text` is not a valid colour but looks like a misspelt
  /// name: only letters, spaces, hyphens and underscores, within edit
  /// distance 2 of the name (so "light blue", "dark-grey" and "rebeccapurpel"
  /// get hints but "#ff00zz" does not).
  public static func suggestion(for text: String) -> String? {
    guard parse(text) == nil else { return nil }
    let trimmed = trimWhitespace(Substring(text))
    guard !trimmed.isEmpty,
      trimmed.unicodeScalars.allSatisfy({
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == " " || $0 == "-" || $0 == "_"
      })
    else { return nil }
    return closestMatch(to: String(trimmed), in: CSSNamedColors.names + ["transparent"], maxDistance: 2)
  }

  // MARK: - Implementation

  private static func isWhitespace(_ c: Character) -> Bool {
    c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" || c == "\r\n"
  }

  private static func trimWhitespace(_ s: Substring) -> Substring {
    guard let start = s.firstIndex(where: { !isWhitespace($0) }) else { return s[s.endIndex...] }
    let end = s.lastIndex(where: { !isWhitespace($0) })!
    return s[start...end]
  }

  private static func parseHex(_ digits: Substring) -> Color? {
    var values: [UInt8] = []
    values.reserveCapacity(8)
    for scalar in digits.unicodeScalars {
      let v: UInt8
      switch scalar {
      case "0"..."9": v = UInt8(scalar.value - 48)
      case "a"..."f": v = UInt8(scalar.value - 97 + 10)
      case "A"..."F": v = UInt8(scalar.value - 65 + 10)
      default: return nil
      }
      values.append(v)
    }
    switch values.count {
    case 3, 4:
      return Color(
        r: values[0] * 17, g: values[1] * 17, b: values[2] * 17,
        a: values.count == 4 ? values[3] * 17 : 255)
    case 6, 8:
      return Color(
        r: values[0] << 4 | values[1], g: values[2] << 4 | values[3], b: values[4] << 4 | values[5],
        a: values.count == 8 ? values[6] << 4 | values[7] : 255)
    default:
      return nil
    }
  }

  /// A channel or alpha argument as written.
  private enum Component {
    case number(Double)
    case percentage(Double)
    case none
  }

  /// `digits[.digits]` or `.digits`, optionally followed by `%`; or `none`.
  private static func parseComponent(_ token: Substring) -> Component? {
    if token == "none" { return Component.none }
    var body = token
    let isPercentage = body.last == "%"
    if isPercentage { body = body.dropLast() }
    var sawDigit = false
    var sawDot = false
    for c in body {
      if c == "." {
        if sawDot { return nil }
        sawDot = true
      } else if c.isASCII && c.isNumber {
        sawDigit = true
      } else {
        return nil
      }
    }
    guard sawDigit, body.last != ".", let value = Double(body) else { return nil }
    return isPercentage ? .percentage(value) : .number(value)
  }

  /// A colour channel: a number 0–255 or a percentage.
  private static func channel(_ component: Component) -> UInt8? { byte(component, numberLimit: 255, numberScale: 1) }

  /// An alpha: a number 0–1 or a percentage.
  private static func alpha(_ component: Component) -> UInt8? { byte(component, numberLimit: 1, numberScale: 255) }

  /// The rule both follow: a number up to `numberLimit` times `numberScale`,
  /// a percentage up to 100 of 255, rounded; `none` is 0; beyond the limit nil.
  private static func byte(_ component: Component, numberLimit: Double, numberScale: Double) -> UInt8? {
    switch component {
    case .number(let v):
      guard v <= numberLimit else { return nil }
      return UInt8((v * numberScale).rounded())
    case .percentage(let p):
      guard p <= 100 else { return nil }
      return UInt8((p * 255 / 100).rounded())
    case .none:
      return 0
    }
  }

  /// The text between `rgb(` or `rgba(` and `)`, lowercased.
  private static func parseFunctionArguments(_ arguments: Substring) -> Color? {
    var channelTokens: [Substring]
    var alphaToken: Substring? = nil
    if arguments.contains(",") {
      // Legacy syntax: commas, no `none`, channels all numbers or all
      // percentages.
      let parts = arguments.split(separator: ",", omittingEmptySubsequences: false).map(trimWhitespace)
      guard parts.count == 3 || parts.count == 4 else { return nil }
      channelTokens = Array(parts[0..<3])
      if parts.count == 4 { alphaToken = parts[3] }
      guard !parts.contains("none") else { return nil }
      let kinds = channelTokens.map { $0.last == "%" }
      guard kinds.allSatisfy({ $0 == kinds[0] }) else { return nil }
    } else {
      let halves = arguments.split(separator: "/", omittingEmptySubsequences: false)
      guard halves.count <= 2 else { return nil }
      channelTokens = halves[0].split(whereSeparator: isWhitespace)
      guard channelTokens.count == 3 else { return nil }
      if halves.count == 2 {
        let alphaTokens = halves[1].split(whereSeparator: isWhitespace)
        guard alphaTokens.count == 1 else { return nil }
        alphaToken = alphaTokens[0]
      }
    }
    var rgb: [UInt8] = []
    for token in channelTokens {
      guard let component = parseComponent(token), let value = channel(component) else { return nil }
      rgb.append(value)
    }
    var a: UInt8 = 255
    if let alphaToken {
      guard let component = parseComponent(alphaToken), let value = alpha(component) else { return nil }
      a = value
    }
    return Color(r: rgb[0], g: rgb[1], b: rgb[2], a: a)
  }
}
