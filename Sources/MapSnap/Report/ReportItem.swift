/// What a `ReportChange` is about: a layer, a sublayer, a label, an
/// annotation text, a view annotation, or a count of a layer or sublayer.
///
/// Features are named as the report names them (`FeatureKey`): by id when
/// the feature has one, else by its digest key.
public enum ReportItem: Sendable, Hashable {
  /// A layer, by id.
  case layer(String)
  /// A sublayer (class) of an annotation layer.
  case sublayer(layer: String, id: String)
  /// A label candidate: a position (`part`) of a feature of a `features` layer, with its text.
  case label(layer: String, feature: FeatureKey, part: Int, text: String)
  /// An annotation text of a sublayer.
  case annotationText(layer: String, sublayer: String, feature: FeatureKey, part: Int, text: String)
  /// A symbol of a style's symbol layer (`style.layers[].symbols.entries`):
  /// the style layer, the symbol's key and its text (or icon name).
  case styleSymbol(layer: String, styleLayer: String, key: String, text: String)
  /// A view annotation, by id.
  case viewAnnotation(String)
  /// A count of a layer (or of one of its sublayers) by its path in the
  /// report: `features.drawn`, `labels.placed`, `labels.hidden.collision`.
  case count(layer: String, sublayer: String?, name: String)

  /// The layer the item belongs to; nil for a view annotation.
  public var layer: String? {
    switch self {
    case .layer(let l), .sublayer(let l, _), .label(let l, _, _, _), .annotationText(let l, _, _, _, _), .count(let l, _, _),
      .styleSymbol(let l, _, _, _): return l
    case .viewAnnotation: return nil
    }
  }

  /// How a line of the text rendering names the item: `layer roads`,
  /// `sublayer valve-anno/Open`, `label pois kiosk "Kiosk"`, `label pois #2
  /// (part 1) "Bravo"`, `annotation text valve-anno/Open #0 "V-101"`, `view
  /// annotation shop-12`, `count pois labels.placed`, `count valve-anno/Open
  /// features.drawn`. Texts are quoted as JSON strings.
  public var text: String {
    func feature(_ k: FeatureKey, _ part: Int) -> String { k.text + (part > 0 ? " (part \(part))" : "") }
    func quoted(_ s: String) -> String { JSONWriter(compact: true).write(.string(s)) }
    switch self {
    case .layer(let id): return "layer \(id)"
    case .sublayer(let layer, let id): return "sublayer \(layer)/\(id)"
    case .label(let layer, let k, let part, let text): return "label \(layer) \(feature(k, part)) \(quoted(text))"
    case .annotationText(let layer, let sub, let k, let part, let text):
      return "annotation text \(layer)/\(sub) \(feature(k, part)) \(quoted(text))"
    case .viewAnnotation(let id): return "view annotation \(id)"
    case .styleSymbol(let layer, let styleLayer, let key, let text): return "symbol \(layer)/\(styleLayer) \(key) \(quoted(text))"
    case .count(let layer, let sub, let name): return "count \(layer)\(sub.map { "/" + $0 } ?? "") \(name)"
    }
  }

  /// `item` (`layer`, `sublayer`, `label`, `annotationText`,
  /// `viewAnnotation`, `count`) and the keys that name it, as in the report:
  /// `layer`, `sublayer`, `id`, `index`, `part`, `text`, `count`.
  var jsonPairs: [(String, JSONValue)] {
    func key(_ k: FeatureKey) -> [(String, JSONValue)] { k.reportPairs }
    switch self {
    case .layer(let id): return [("item", "layer"), ("layer", .string(id))]
    case .sublayer(let layer, let id): return [("item", "sublayer"), ("layer", .string(layer)), ("sublayer", .string(id))]
    case .label(let layer, let k, let part, let text):
      return [("item", "label"), ("layer", .string(layer))] + key(k) + [("part", .number(Double(part))), ("text", .string(text))]
    case .annotationText(let layer, let sub, let k, let part, let text):
      return [("item", "annotationText"), ("layer", .string(layer)), ("sublayer", .string(sub))] + key(k)
        + [("part", .number(Double(part))), ("text", .string(text))]
    case .viewAnnotation(let id): return [("item", "viewAnnotation"), ("id", .string(id))]
    case .styleSymbol(let layer, let styleLayer, let key, let text):
      return [("item", "styleSymbol"), ("layer", .string(layer)), ("styleLayer", .string(styleLayer)), ("key", .string(key)), ("text", .string(text))]
    case .count(let layer, let sub, let name):
      return [("item", "count"), ("layer", .string(layer)), ("sublayer", sub.map(JSONValue.string) ?? .null), ("count", .string(name))]
    }
  }
}
