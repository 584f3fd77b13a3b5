/// The `map` block: where the map is, at what scale, and how many pixels.
public struct MapSettings: Sendable, Hashable {
  /// WGS84 longitude and latitude in degrees, or x and y in `viewCrs`.
  public var center: (lon: Double, lat: Double)
  /// Scale denominator (2000 means 1:2000); nil when `zoom` gives the scale or
  /// the caller must supply one.
  public var scale: Double?
  /// ArcGIS/Google 256-px zoom level; `scale = 591657527.591555 / 2^zoom`.
  public var zoom: Double?
  /// Logical pixels.
  public var size: (width: Int, height: Int)
  /// Output pixels per logical pixel.
  public var pixelRatio: Double = 1
  /// Dots per inch that the scale refers to.
  public var dpi: Double = 96
  public var background: Color = .white
  /// The floor being shown (section 5 of the format); nil shows every floor.
  public var floor: FloorValue?
  /// `map.bounds`: fit the view to this box instead of `center` + `scale`.
  public var bounds: MapBounds?
  /// `map.padding`: logical pixels kept free around `bounds` when fitting.
  public var padding: Padding = .zero
  /// `map.spatialReference`: the map's spatial reference when the scene
  /// sets it, as `MapProjection.normalizedName` spells it ("EPSG:3067"); nil
  /// lets the first layer decide (scene format 1.1).
  public var spatialReference: String?
  /// `map.viewCrs`: the reference `center` and `bounds` are given in
  /// ("map", or a name as `spatialReference` spells it); nil: WGS84 degrees.
  public var viewCrs: String?
  /// `map.scaleBar` and `map.northArrow` (scene format 1.3); nil: none.
  public var scaleBar: ScaleBarSettings?
  public var northArrow: NorthArrowSettings?
  /// The attribution line drawn at the bottom right (scene format 3.4).
  public var attribution: Attribution = .none

  /// `map.attribution`: false (nothing), true (the shown layers' own
  /// attributions), or a string drawn as given.
  public enum Attribution: Sendable, Hashable {
    case none
    case fromLayers
    case text(String)
  }

  public init(center: (lon: Double, lat: Double), scale: Double? = nil, zoom: Double? = nil, size: (width: Int, height: Int)) {
    self.center = center
    self.scale = scale
    self.zoom = zoom
    self.size = size
  }

  public static func == (a: MapSettings, b: MapSettings) -> Bool {
    a.center == b.center && a.scale == b.scale && a.zoom == b.zoom && a.size == b.size
      && a.pixelRatio == b.pixelRatio && a.dpi == b.dpi && a.background == b.background && a.floor == b.floor
      && a.attribution == b.attribution && a.spatialReference == b.spatialReference && a.bounds == b.bounds
      && a.padding == b.padding && a.viewCrs == b.viewCrs
      && a.scaleBar == b.scaleBar && a.northArrow == b.northArrow
  }

  public func hash(into h: inout Hasher) {
    h.combine(center.lon)
    h.combine(center.lat)
    h.combine(scale)
  }
}
