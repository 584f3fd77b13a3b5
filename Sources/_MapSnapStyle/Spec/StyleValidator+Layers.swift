internal import _MapSnapJSON

extension ValidationRun {
  func layers(_ value: JSONValue, _ path: JSONPath) {
    guard case .array(let layers) = value else {
      report(.rootMemberType(expected: "array", found: value.typeName), path)
      return
    }
    for index in layers.indices { layer(layers, index, path.index(index)) }
  }

  /// One layer: its type (or `ref`), id, source and members, then its paint
  /// and layout properties by the layer's type.
  private func layer(_ layers: [JSONValue], _ index: Int, _ path: JSONPath) {
    guard case .object(let layer) = layers[index] else {
      report(.layerNotAnObject(found: layers[index].typeName), path)
      return
    }
    let ref = layer["ref"]
    if !Self.truthy(layer["type"]) && !Self.truthy(ref) { report(.layerTypeMissing, path) }
    var type = layer["type"].flatMap(\.stringValue)
    if let id = layer["id"], Self.truthy(id),
      let first = layers.prefix(index).firstIndex(where: { $0["id"] == id })
    {
      report(.layerIdDuplicate(id: id, firstIndex: first), path)
    }
    if let ref {
      for member in ["type", "source", "source-layer", "filter", "layout"] where layer[member] != nil {
        report(.refMemberProhibited(member), path)
      }
      if let parent = layers.first(where: { $0["id"] == ref }) {
        if parent["ref"] != nil {
          report(.refToRef, path)
        } else {
          type = parent["type"].flatMap(\.stringValue)
        }
      } else {
        report(.refNotFound(ref), path)
      }
    } else if type != "background" {
      layerSource(layer, type: type, path)
    }
    if type == "raster", case .object(let paint)? = layer["paint"], Self.truthy(paint["resampling"]),
      Self.truthy(paint["raster-resampling"])
    {
      report(.redundantResampling, path)
    }
    if layer["id"] == nil { report(.layerIdMissing, path) }
    members(of: layer, StyleReference.layer, path, othersAllowed: true, handled: ["type", "id"]) { key, value, at in
      switch key {
      case "type":
        if case .string(let name) = value, StyleReference.layerTypes.contains(name) { return true }
        self.report(.layerTypeUnknown(found: value), at)
      case "filter":
        self.filter(value, at)
      case "paint", "layout":
        self.properties(value, layerType: type, isLayout: key == "layout", at)
      default:
        return false
      }
      return true
    }
  }

  /// A layer's source: given, declared in `sources`, and of a kind the
  /// layer's type draws from.
  private func layerSource(_ layer: JSONObject, type: String?, _ path: JSONPath) {
    guard let name = layer["source"], Self.truthy(name) else {
      report(.layerSourceMissing, path)
      return
    }
    let sources: JSONObject
    if case .object(let object)? = style["sources"] { sources = object } else { sources = JSONObject() }
    guard case .string(let sourceName) = name, case .object(let source)? = sources[sourceName] else {
      report(.layerSourceNotFound(name, candidates: sources.keys), path)
      return
    }
    let sourceType = source["type"].flatMap(\.stringValue)
    let layerType = type ?? "untyped"
    if sourceType == "vector" && type == "raster" {
      report(.layerSourceKind(layerType: layerType, required: "raster"), path)
    } else if sourceType != "raster-dem" && (type == "hillshade" || type == "color-relief") {
      report(.layerSourceKind(layerType: layerType, required: "raster-dem"), path)
    } else if sourceType == "raster" && type != "raster" {
      report(.layerSourceKind(layerType: layerType, required: "vector"), path)
    } else if sourceType == "vector" && !Self.truthy(layer["source-layer"]) {
      report(.sourceLayerMissing, path)
    } else if sourceType == "raster-dem" && type != "hillshade" && type != "color-relief" {
      report(.demSourceMisuse(layerType: layerType), path)
    } else if type == "line", case .object(let paint)? = layer["paint"], Self.truthy(paint["line-gradient"]),
      sourceType != "geojson" || !Self.truthy(source["lineMetrics"])
    {
      report(.lineGradientWithoutLineMetrics, path)
    }
  }

  // MARK: - Paint and layout

  /// The paint or layout object of a layer of `layerType`; nothing is
  /// checked inside it when the type is unknown.
  private func properties(_ value: JSONValue, layerType: String?, isLayout: Bool, _ path: JSONPath) {
    guard case .object(let object) = value else {
      report(.typeMismatch(expected: "object", found: value.typeName), path)
      return
    }
    guard let layerType,
      let table = isLayout
        ? StyleReference.layoutProperties(layerType: layerType) : StyleReference.paintProperties(layerType: layerType)
    else { return }
    for (name, value) in object.pairs {
      property(name, value, table, layerType: layerType, isLayout: isLayout, path.key(name))
    }
  }

  /// Suffix of a paint property's transition: `fill-opacity-transition`.
  static let transitionSuffix = "-transition"

  private func property(
    _ name: String, _ value: JSONValue, _ table: SpecTable<PropertySpec>, layerType: String, isLayout: Bool,
    _ path: JSONPath
  ) {
    if !isLayout, name.hasSuffix(Self.transitionSuffix),
      let base = table[String(name.dropLast(Self.transitionSuffix.count))], base.transition
    {
      transition(value, path)
      return
    }
    guard let spec = table[name] else {
      report(.unknownMember(name, candidates: table.names), path)
      return
    }
    if case .string(let text) = value, spec.supportsDataExpressions, !StyleReference.tokenProperties.contains(name),
      let token = Self.wholeToken(text)
    {
      report(.interpolationSyntax(property: name, token: token), path)
      return
    }
    if layerType == "symbol", name == "text-font", case .object(let function) = value, function["type"] == "identity" {
      report(.identityFontFunction, path)
    }
    self.value(value, spec, path, context: .property(name: name, isLayout: isLayout))
  }

  /// The property name of a string that is one whole `{token}`, or nil.
  static func wholeToken(_ text: String) -> String? {
    guard text.count > 2, text.first == "{", text.last == "}" else { return nil }
    let inner = text.dropFirst().dropLast()
    return inner.contains("}") ? nil : String(inner)
  }
}

extension JSONValue {
  /// The string of a string value, or nil.
  var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }
}
