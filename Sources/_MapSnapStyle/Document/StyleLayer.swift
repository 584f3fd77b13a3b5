public import _MapSnapJSON

/// One entry of a style's `layers`: what it draws (its type), from which
/// source and source layer, in which zoom range, with which filter, layout
/// and paint properties (kept as JSON: they are compiled by the renderer,
/// once per layer, into `compiled`; so they never change after parsing).
package struct StyleLayer: Sendable {
  /// The layer types of the specification v8.
  package enum Kind: String, Sendable, CaseIterable {
    case background, fill, line, symbol, circle, heatmap, raster, hillshade
    case fillExtrusion = "fill-extrusion"
    case colorRelief = "color-relief"
  }

  package var id: String
  /// Nil for a type the specification does not define (`typeName` holds it).
  package var kind: Kind?
  package var typeName: String
  package var source: String?
  package var sourceLayer: String?
  package var minzoom: Double?
  package var maxzoom: Double?
  package let filter: JSONValue?
  /// The filter's compact JSON text (nil without a filter): what tells two
  /// layers' filters apart, written once when the style is parsed.
  package let filterText: String?
  package let layout: JSONObject
  package let paint: JSONObject
  /// Position in the style's `layers` (paint order, bottom first).
  package var index: Int
  /// Its filter and properties once compiled (`CompiledLayerProperties`).
  package let compiled = CompiledLayerProperties()
  /// The layer's JSON path, `layers[3]`.
  package var path: String { "layers[\(index)]" }

  /// `layout.visibility` is `none`.
  package var isHidden: Bool {
    if case .string("none") = layout["visibility"] { return true }
    return false
  }

  /// Whether `zoom` lies in the layer's range: at least `minzoom`, below `maxzoom`
  /// (the specification: "at zoom levels equal to or greater than maxzoom,
  /// the layer will be hidden").
  package func shows(atZoom zoom: Double) -> Bool {
    if let lo = minzoom, zoom < lo { return false }
    if let hi = maxzoom, zoom >= hi { return false }
    return true
  }
}
