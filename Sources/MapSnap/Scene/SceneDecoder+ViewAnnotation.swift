extension SceneDecoder {
  /// A view annotation: a box tied to a coordinate or to a
  /// feature of a features or graphics layer.
  func decodeViewAnnotation(_ value: JSONValue, at path: JSONPath, index: Int, layers: [Layer]) throws(SceneError) -> ViewAnnotation {
    let r = try ObjectReader(
      value, at: path, file: file, what: "a view annotation",
      allowed: [
        "id", "coordinate", "feature", "text", "size", "style", "anchors", "priority", "selected", "allowOverlap", "visible", "floor",
        "minScale", "maxScale",
      ])
    let id = try r.string("id", nonEmpty: true) ?? "viewAnnotations[\(index)]"
    let target: ViewAnnotation.Target
    switch (r.object["coordinate"], r.object["feature"]) {
    case (.some, .some):
      throw r.conflict("coordinate", "feature")
    case (.none, .none):
      throw SceneError(
        file: file, at: path, kind: .missingKey, expected: "\"coordinate\" ([lon, lat]) or \"feature\" ({ \"layer\", \"id\" })")
    case (.some, .none):
      let c = try r.numbers("coordinate", count: 2, "[lon, lat] in degrees", where: { $0.isFinite })!
      guard c[1] >= -90 && c[1] <= 90 else {
        throw SceneError(
          file: file, at: path.key("coordinate").index(1), kind: .invalidValue, expected: "a latitude within -90…90",
          found: describe(.number(c[1])))
      }
      target = .coordinate(lon: c[0], lat: c[1])
    case (.none, .some(let f)):
      let fr = try ObjectReader(f, at: path.key("feature"), file: file, what: "a feature reference", allowed: ["layer", "id", "styleLayer"])
      guard let layer = try fr.string("layer", nonEmpty: true) else {
        throw fr.missing("layer", "the id of a features or graphics layer")
      }
      guard let target = layers.first(where: { $0.id == layer }) else {
        throw fr.error(
          "layer", expected: "the id of a features or graphics layer", found: "\(Echo.quoted(layer)), which no layer has",
          hint: closestMatch(to: layer, in: layers.map(\.id)).map { "did you mean \(Echo.quoted($0))?" })
      }
      let styleLayer = try fr.string("styleLayer", nonEmpty: true)
      if target.kind == .style || styleLayer != nil {
        guard target.kind == .style else {
          throw fr.error(
            "styleLayer", expected: "no styleLayer: it names a layer of a style layer's style",
            found: "\(Echo.quoted(styleLayer!)) on \(Echo.quoted(layer)), a \(target.kind.rawValue) layer")
        }
        guard let styleLayer else {
          throw fr.missing("styleLayer", "the id of the style's layer that draws the feature (\(Echo.quoted(layer)) is a style layer)")
        }
        guard let idValue = fr.object["id"] else { throw fr.missing("id", "the feature's id (string or number)") }
        guard let fid = FeatureID(json: idValue) else { throw fr.invalid("id", expected: "a feature id (string or number)", found: idValue) }
        return try finishViewAnnotation(r, id: id, target: .styleFeature(layer: layer, styleLayer: styleLayer, id: fid), path: path)
      }
      guard target.kind != .annotation else {
        throw fr.error(
          "layer", expected: "the id of a features or graphics layer (view annotations tie to those)",
          found: "\(Echo.quoted(layer)), an annotation layer")
      }
      guard let idValue = fr.object["id"] else {
        throw fr.missing("id", "the feature's id (string or number)")
      }
      guard let fid = FeatureID(json: idValue) else {
        throw fr.invalid("id", expected: "a feature id (string or number)", found: idValue)
      }
      _ = target
      return try finishViewAnnotation(r, id: id, target: .feature(layer: layer, id: fid), path: path)
    }
    return try finishViewAnnotation(r, id: id, target: target, path: path)
  }

  private func finishViewAnnotation(_ r: ObjectReader, id: String, target: ViewAnnotation.Target, path: JSONPath) throws(SceneError) -> ViewAnnotation {
    guard let text = try r.string("text") else {
      throw r.missing("text", "the box's text (\\n breaks lines)")
    }
    var a = ViewAnnotation(id: id, target: target, text: text)
    if let s = try r.numbers("size", count: 2, "[width, height] in logical pixels, each > 0", where: { $0 > 0 && $0 <= 8192 }) {
      a.size = (s[0], s[1])
    }
    if let sv = r.object["style"] {
      let sr = try ObjectReader(
        sv, at: path.key("style"), file: file, what: "a view annotation style",
        allowed: ["background", "borderColor", "borderWidth", "cornerRadius", "padding", "textColor", "fontSize", "font", "maxWidth", "letterSpacing"])
      a.style.background = try sr.color("background") ?? a.style.background
      a.style.borderColor = try sr.color("borderColor") ?? a.style.borderColor
      a.style.borderWidth = try sr.number("borderWidth", "a width >= 0 in logical pixels") { $0 >= 0 && $0 <= 100 } ?? a.style.borderWidth
      a.style.cornerRadius = try sr.number("cornerRadius", "a radius >= 0 in logical pixels") { $0 >= 0 && $0 <= 1000 } ?? a.style.cornerRadius
      a.style.padding = try sr.number("padding", "a padding >= 0 in logical pixels") { $0 >= 0 && $0 <= 1000 } ?? a.style.padding
      a.style.textColor = try sr.color("textColor") ?? a.style.textColor
      a.style.fontSize = try sr.number("fontSize", "a text size > 0 in logical pixels") { $0 > 0 && $0 <= 1000 } ?? a.style.fontSize
      a.style.font = try sr.string("font", nonEmpty: true)
      a.style.maxWidth = try maxWidth(sr)
      a.style.letterSpacing = try letterSpacing(sr)
      fonts.append((a.style.font, path.key("style").key("font")))
    }
    if let av = r.object["anchors"] {
      guard case .array(let list) = av, !list.isEmpty else {
        throw r.invalid("anchors", expected: "a non-empty array of { \"anchor\", \"offsetX\", \"offsetY\" }", found: av)
      }
      let names = Anchor.allCases.map(\.rawValue)
      a.anchors = []
      for (i, item) in list.enumerated() {
        let ap = path.key("anchors").index(i)
        let ar = try ObjectReader(item, at: ap, file: file, what: "an anchor", allowed: ["anchor", "offsetX", "offsetY"])
        guard let name = try ar.choice("anchor", names) else {
          throw ar.missing("anchor", "one of \(names.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        a.anchors.append(
          ViewAnnotation.AnchorConfig(
            anchor: Anchor(rawValue: name)!,
            offsetX: try ar.number("offsetX", "logical pixels within ±\(format(Self.maxOffsetPixels))") { abs($0) <= Self.maxOffsetPixels } ?? 0,
            offsetY: try ar.number("offsetY", "logical pixels within ±\(format(Self.maxOffsetPixels))") { abs($0) <= Self.maxOffsetPixels } ?? 0))
      }
    }
    a.priority = try r.number("priority", "a finite number") { $0.isFinite } ?? 0
    a.selected = try r.bool("selected") ?? false
    a.allowOverlap = try r.bool("allowOverlap") ?? false
    a.visible = try r.bool("visible") ?? true
    a.floor = try ViewDecoder.floor(r, "floor")
    a.scaleRange = try r.scaleRange()
    return a
  }
}
