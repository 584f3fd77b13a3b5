/// A feature style's `label` (scene format 3.1): text, font, halo, anchors
/// and their offsets, placement, collision and edges.
extension SceneDecoder {
  func decodeLabel(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> LabelStyle {
    let r = try ObjectReader(
      value, at: path, file: file, what: "a label",
      allowed: [
        "field", "text", "size", "color", "font", "halo", "anchors", "offset", "radialOffset", "avoidEdges", "allowOverlap", "priority",
        "maxWidth", "letterSpacing", "justify", "placement", "spacing", "maxAngle",
      ])
    var l = LabelStyle(text: try textTemplate(r, field: "field", what: "the label's text"))
    l.maxWidth = try maxWidth(r)
    l.letterSpacing = try letterSpacing(r)
    if let j = try r.choice("justify", TextAlign.allCases.map(\.rawValue)) { l.justify = TextAlign(rawValue: j)! }
    l.size = try r.number("size", "a text size > 0 in logical pixels") { $0 > 0 && $0 <= 1000 } ?? 12
    l.color = try r.color("color") ?? l.color
    l.font = try r.string("font", nonEmpty: true)
    fonts.append((l.font, path.key("font")))
    if let h = r.object["halo"] { l.halo = try decodeHalo(h, at: path.key("halo")) }
    if let av = r.object["anchors"] {
      guard case .array(let list) = av, !list.isEmpty else {
        throw r.invalid("anchors", expected: "a non-empty array of anchors", found: av)
      }
      l.anchors = []
      l.anchorOffsets = []
      for (i, a) in list.enumerated() {
        let (anchor, offset) = try labelAnchor(a, at: path.key("anchors").index(i))
        l.anchors.append(anchor)
        l.anchorOffsets.append(offset)
      }
      if l.anchorOffsets.allSatisfy({ $0 == nil }) { l.anchorOffsets = [] }
    }
    let offsetExpected = "[dx, dy] in logical pixels, each within ±\(format(Self.maxOffsetPixels))"
    if let o = try r.numbers("offset", count: 2, offsetExpected, where: { abs($0) <= Self.maxOffsetPixels }) { l.offset = (o[0], o[1]) }
    if r.has("radialOffset") && r.has("offset") { throw r.conflict("offset", "radialOffset") }
    l.radialOffset = try r.number("radialOffset", "a distance within ±\(format(Self.maxOffsetPixels)) logical pixels") {
      abs($0) <= Self.maxOffsetPixels
    }
    l.avoidEdges = try r.bool("avoidEdges") ?? false
    l.allowOverlap = try r.bool("allowOverlap") ?? false
    l.priority = try r.number("priority", "a finite number") { $0.isFinite } ?? 0
    if let p = try r.choice("placement", LabelPlacement.allCases.map(\.rawValue)) { l.placement = LabelPlacement(rawValue: p)! }
    l.spacing =
      try r.number("spacing", "a distance from \(format(Self.minLabelSpacing)) to 10000 logical pixels between repetitions along a line") {
        $0 >= Self.minLabelSpacing && $0 <= 10000
      } ?? 250
    l.maxAngle = try r.number("maxAngle", "an angle from 0 to 180 degrees") { $0 >= 0 && $0 <= 180 } ?? 45
    return l
  }

  /// The least `spacing` along a line: one logical pixel, MapLibre's
  /// minimum for `symbol-spacing`. Closer repetitions overlap one another
  /// whatever the text, and a spacing near zero would make candidates
  /// without bound.
  static let minLabelSpacing = 1.0

  /// One entry of a label's `anchors`: a name (`"right"`), or an object
  /// with the name and that anchor's own offset (`{"anchor": "right",
  /// "offset": [-6, 0]}`).
  private func labelAnchor(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> (Anchor, (Double, Double)?) {
    let names = Anchor.allCases.map(\.rawValue)
    func anchor(_ v: JSONValue, at p: JSONPath) throws(SceneError) -> Anchor {
      guard case .string(let name) = v, let a = Anchor(rawValue: name) else {
        var hint: String? = nil
        if case .string(let name) = v { hint = closestMatch(to: name, in: names).map { "did you mean \(Echo.quoted($0))?" } }
        throw SceneError(
          file: file, at: p, kind: .invalidValue,
          expected: "one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")), or { \"anchor\", \"offset\" }", found: describe(v),
          hint: hint)
      }
      return a
    }
    guard case .object = value else { return (try anchor(value, at: path), nil) }
    let r = try ObjectReader(value, at: path, file: file, what: "an anchor", allowed: ["anchor", "offset"])
    guard let name = r.object["anchor"] else { throw r.missing("anchor", "the anchor's name") }
    let a = try anchor(name, at: path.key("anchor"))
    let o = try r.numbers(
      "offset", count: 2, "[dx, dy] in logical pixels, each within ±\(format(Self.maxOffsetPixels))", where: { abs($0) <= Self.maxOffsetPixels })
    return (a, o.map { ($0[0], $0[1]) })
  }
}
