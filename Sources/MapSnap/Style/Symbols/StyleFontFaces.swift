internal import _MapSnapJSON

/// The style's `font-faces`: for a font name of `text-font`, the font files
/// (`.ttf`, `.otf`) that draw its characters, each for its `unicode-range`
/// (CSS's syntax: `U+26`, `U+0-7F`, `U+4??`; every code point when
/// absent). A name's value is a URL, or an array of a URL or
/// `{"url", "unicode-range"}` objects, tried in order. URLs follow the
/// style's URL rules (a path relative to the style, `file:`, `http(s):`).
/// A member that is not of that shape is a problem with its JSON path;
/// the others stay.
struct StyleFontFaces: Sendable {
  /// One font file and the code points it is used for.
  struct Face: Sendable, Equatable {
    let url: String
    let ranges: [ClosedRange<UInt32>]

    func covers(_ code: UInt32) -> Bool { ranges.contains { $0.contains(code) } }
  }

  private(set) var fonts: [String: [Face]] = [:]
  private(set) var problems: [String] = []

  /// Whether the style names any font file.
  var isEmpty: Bool { fonts.isEmpty }

  init(_ value: JSONValue?) {
    guard let value else { return }
    guard case .object(let members) = value else {
      problems.append("font-faces: expected an object of font names, found \(value.typeName)")
      return
    }
    for (name, v) in members.pairs {
      let path = "font-faces[\(Echo.quoted(name))]"
      let entries: [JSONValue]
      switch v {
      case .string: entries = [v]
      case .array(let items): entries = items
      default:
        problems.append("\(path): expected a URL or an array of font faces, found \(v.typeName)")
        continue
      }
      var faces: [Face] = []
      for (i, entry) in entries.enumerated() {
        switch Self.face(entry) {
        case .success(let f): faces.append(f)
        case .failure(let why): problems.append("\(path)\(v.isArray ? "[\(i)]" : ""): \(why.message)")
        }
      }
      if !faces.isEmpty { fonts[name] = faces }
    }
  }

  private struct Problem: Error { let message: String }

  private static func face(_ entry: JSONValue) -> Result<Face, Problem> {
    switch entry {
    case .string(let url) where !url.isEmpty:
      return .success(Face(url: url, ranges: [0...0x10FFFF]))
    case .object(let o):
      guard case .string(let url)? = o["url"], !url.isEmpty else { return .failure(Problem(message: "expected \"url\": a font file's URL")) }
      guard let r = o["unicode-range"] else { return .success(Face(url: url, ranges: [0...0x10FFFF])) }
      guard case .array(let items) = r, !items.isEmpty else {
        return .failure(Problem(message: "\"unicode-range\": expected an array of ranges such as \"U+0-7F\""))
      }
      var ranges: [ClosedRange<UInt32>] = []
      for item in items {
        guard case .string(let s) = item, let range = Self.range(s) else {
          return .failure(Problem(message: "\"unicode-range\": \(Echo.escaped(item.text)) is not a range such as \"U+0-7F\", \"U+26\" or \"U+4??\""))
        }
        ranges.append(range)
      }
      return .success(Face(url: url, ranges: ranges))
    default:
      return .failure(Problem(message: "expected a URL or {\"url\", \"unicode-range\"}, found \(entry.typeName)"))
    }
  }

  /// A CSS `unicode-range` item: `U+` then a hexadecimal code point, a
  /// range `start-end`, or a prefix ending in `?` wildcards; nil when not
  /// one, or past U+10FFFF, or backwards.
  static func range(_ text: String) -> ClosedRange<UInt32>? {
    var s = Substring(text.uppercased())
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    guard s.hasPrefix("U+") else { return nil }
    s = s.dropFirst(2)
    func hex(_ t: Substring) -> UInt32? {
      guard !t.isEmpty, t.count <= 6 else { return nil }
      return UInt32(t, radix: 16)
    }
    let out: ClosedRange<UInt32>
    if let dash = s.firstIndex(of: "-") {
      guard let a = hex(s[..<dash]), let b = hex(s[s.index(after: dash)...]), a <= b else { return nil }
      out = a...b
    } else if s.contains("?") {
      let digits = s.prefix { $0 != "?" }
      let wild = s.count - digits.count
      guard s.dropFirst(digits.count).allSatisfy({ $0 == "?" }), s.count <= 6, wild > 0 else { return nil }
      let base = digits.isEmpty ? 0 : (UInt32(digits, radix: 16) ?? UInt32.max)
      guard base != UInt32.max else { return nil }
      let shift = UInt32(4 * wild)
      out = (base << shift)...((base << shift) | ((1 << shift) - 1))
    } else {
      guard let a = hex(s) else { return nil }
      out = a...a
    }
    return out.upperBound <= 0x10FFFF ? out : nil
  }

  /// The faces of `font` that cover `code`, in order.
  func faces(_ font: String, covering code: UInt32) -> [Face] {
    fonts[font]?.filter { $0.covers(code) } ?? []
  }
}

extension JSONValue {
  fileprivate var isArray: Bool {
    if case .array = self { return true }
    return false
  }

  /// The value as JSON text, for messages.
  fileprivate var text: String { JSONWriter(compact: true).write(self) }
}
