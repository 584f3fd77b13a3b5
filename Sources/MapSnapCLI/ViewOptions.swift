import ArgumentParser
import MapSnap

/// The options that choose the frame, shared by `render` and `explain`; they
/// override the scene's map block. What they ask for is `settings`.
struct ViewOptions: ParsableArguments {
  @Option(parsing: .unconditional, help: ArgumentHelp("Map scale denominator: 2000 means 1:2000.", valueName: "denominator"))
  var scale: Double?

  @Option(parsing: .unconditional, help: "Zoom level of the 256-px tiling scheme (scale = 591657527.591555 / 2^zoom); for a style, MapLibre's zoom (512-px tiles, one less).")
  var zoom: Double?

  @Option(parsing: .unconditional, help: ArgumentHelp("A style's bearing: degrees clockwise from north that the map is turned (the style's own by default).", valueName: "degrees"))
  var bearing: Double?

  @Option(parsing: .unconditional, help: ArgumentHelp("Map centre as lon,lat in degrees (a negative longitude is fine: --center -73.98,40.71).", valueName: "lon,lat"))
  var center: String?

  @Option(
    name: .customLong("view-crs"),
    help: ArgumentHelp(
      "The reference --center, --bounds and --marker are given in: EPSG:4326 (degrees, the default), map (the map's own units) or another PROJ knows (EPSG:3067).",
      valueName: "crs"))
  var viewCrs: String?

  @Option(help: ArgumentHelp("Image size in logical pixels.", valueName: "WxH"))
  var size: String?

  @Option(name: .customLong("pixel-ratio"), parsing: .unconditional, help: "Output pixels per logical pixel (2 = @2x).")
  var pixelRatio: Double?

  @Option(parsing: .unconditional, help: ArgumentHelp("Fit the view to this box (degrees): the centre is its centre, and the scale the most zoomed-in at which it fits (unless --scale or --zoom is given).", valueName: "west,south,east,north"))
  var bounds: String?

  @Option(parsing: .unconditional, help: ArgumentHelp("Logical pixels kept free around the fitted box: one number, or top,right,bottom,left.", valueName: "pixels"))
  var padding: String?

  @Option(help: ArgumentHelp("Fit the view to one feature's bounds: a layer id and a feature id, split at the first ':'.", valueName: "layer:id"))
  var fit: String?

  @Option(
    parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "A marker on top: lon,lat, then any of |label:TEXT |color:C |shape:pin|circle|… |size:PX |icon:FILE (repeatable; a negative longitude is fine: --marker -74.0,40.7).",
      valueName: "lon,lat[|key:value…]"))
  var marker: [String] = []

  @Option(help: ArgumentHelp("Draw one feature again on top, highlighted: LAYER:ID (split at the first ':'), then any of |color:C |width:PX (repeatable).", valueName: "layer:id[|key:value…]"))
  var highlight: [String] = []

  @Option(help: ArgumentHelp("Draw a GeoJSON file on top, then any of |color:C |width:PX (repeatable).", valueName: "file[|key:value…]"))
  var geojson: [String] = []

  @Option(help: "The floor to show; things on other floors are hidden.")
  var floor: String?

  @Option(
    name: .customLong("max-pixels"), parsing: .unconditional,
    help: ArgumentHelp(
      "The most device pixels (width × height × pixel ratio²) a frame may have: a guard on time and memory. Default 1073741824 (2^30, 32768×32768); at most 68719476736 (2^36).",
      valueName: "pixels"))
  var maxPixels: Int = FrameSizeLimit.defaultMaxPixels

  @Option(name: .customLong("font-dir"), help: ArgumentHelp("A folder of .ttf/.otf fonts to use before the bundled ones (repeatable).", valueName: "folder"))
  var fontDirs: [String] = []

  func validate() throws { try settings.validate() }

  /// The values given, as plain data.
  var settings: ViewSettings {
    ViewSettings(
      scale: scale, zoom: zoom, center: center, size: size, pixelRatio: pixelRatio, bounds: bounds, padding: padding,
      fit: fit, marker: marker, highlight: highlight, geojson: geojson, floor: floor, maxPixels: maxPixels, fontDirs: fontDirs,
      bearing: bearing, viewCrs: viewCrs)
  }
}

/// The numbers of a comma-separated value (`--bounds`, `--padding`): the
/// parts that are numbers, spaces around them ignored.
private func numbers(_ s: String) -> [Double] {
  s.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0.trimmingSpaces) }
}

/// `west,south,east,north` in degrees, checked by `ViewParameter.bounds`.
func boundsCheck(_ s: String, viewCrs: String? = nil) -> ViewParameter.BoundsCheck {
  ViewParameter.isDegrees(viewCrs: viewCrs) ? ViewParameter.bounds(numbers(s)) : ViewParameter.boundsInMapUnits(numbers(s))
}

/// The box of `--bounds`, nil when `boundsCheck` refuses it.
func parseBounds(_ s: String, viewCrs: String? = nil) -> MapBounds? {
  guard case .box(let b) = boundsCheck(s, viewCrs: viewCrs) else { return nil }
  return b
}

/// One number, or `top,right,bottom,left`, in logical pixels ≥ 0
/// (`ViewParameter.padding`).
func parsePadding(_ s: String) -> Padding? { ViewParameter.padding(numbers(s)) }

/// `LAYER:ID`, split at the first `:` (so ids may contain colons).
func parseFit(_ s: String) -> (layer: String, id: FeatureID)? {
  OverlayDecoder.featureReference(s).map { ($0.layer, FeatureID($0.id)) }
}
