/// A parameter of the view (scene format section 1): where the map is, at
/// what scale, how many pixels, and the box it fits. Each parameter's rule
/// (what a valid value is, and the words an error uses for it) is written
/// here once, for the three readers of a view: the scene's map block
/// (`SceneDecoder`), a manifest line (`ManifestReader`) and the command
/// line (the CLI's view options). A parameter the format adds (a bearing, a
/// style's zoom convention) is one more case with its check and its words.
package enum ViewParameter: String, CaseIterable, Sendable {
  case center, scale, zoom, size, pixelRatio, bounds, padding, spatialReference, bearing, viewCrs

  /// The largest `size` side in logical pixels (the device pixels a frame
  /// may have are `FrameSizeLimit`'s rule).
  package static let maxSide = 32768
  /// The zoom levels of the 256-px tiling scheme a view may ask for.
  package static let zoomRange = 0.0...30.0
  /// The most device pixels per logical pixel: 16 is far beyond any screen
  /// (4 is the densest) and keeps a view's device size inside `Int`.
  package static let maxPixelRatio = 16.0

  /// How a value is spelt: a JSON value (scene and manifest) or a
  /// command-line argument.
  package enum Syntax: Sendable {
    case json, commandLine
  }

  /// The key in a map block or manifest line.
  package var key: String { rawValue }

  /// The command-line option that sets it (nil: none does).
  package var option: String? {
    switch self {
    case .pixelRatio: "--pixel-ratio"
    case .viewCrs: "--view-crs"
    case .spatialReference: nil
    default: "--" + rawValue
    }
  }

  /// What a valid value is, as an error's `expected` (after "must be" on
  /// the command line).
  package func expected(_ syntax: Syntax) -> String {
    let json = syntax == .json
    switch self {
    case .center:
      return (json ? "[lon, lat]" : "lon,lat") + " in degrees, longitude within ±180 and latitude within ±90"
    case .scale:
      return "a scale denominator from 0.000001 to 1e12 (2000 means 1:2000)"
    case .zoom:
      return "a zoom level between \(format(Self.zoomRange.lowerBound)) and \(format(Self.zoomRange.upperBound))"
    case .size:
      return (json ? "[width, height]" : "WxH") + " in logical pixels, whole numbers from 1 to \(Self.maxSide)"
    case .pixelRatio:
      return "a pixel ratio > 0 and <= \(format(Self.maxPixelRatio))"
    case .bounds:
      return (json ? "[west, south, east, north]" : "west,south,east,north")
        + " in degrees, longitudes within ±180 and latitudes within ±90"
    case .padding:
      return "logical pixels ≥ 0: one number, or " + (json ? "[top, right, bottom, left]" : "top,right,bottom,left")
    case .spatialReference:
      return "a spatial reference PROJ knows: an EPSG code (3067) or \"AUTHORITY:CODE\" (\"EPSG:3067\", \"ESRI:102100\")"
    case .bearing:
      return "degrees clockwise from north, from -360 to 360 (a style's map only)"
    case .viewCrs:
      return "the reference the view's coordinates are in: \"EPSG:4326\" (degrees, the default), \"map\" (the map's own units) "
        + "or another that PROJ knows (\"EPSG:3067\")"
    }
  }

  /// What a valid `center` or `bounds` is when the view's reference is not
  /// WGS84 degrees.
  package func expectedInMapUnits(_ syntax: Syntax) -> String {
    let json = syntax == .json
    switch self {
    case .center: return (json ? "[x, y]" : "x,y") + " in the units of the view's reference (viewCrs), x east and y north"
    case .bounds: return (json ? "[xmin, ymin, xmax, ymax]" : "xmin,ymin,xmax,ymax") + " in the units of the view's reference (viewCrs)"
    default: return expected(syntax)
    }
  }

  /// `viewCrs`: "map", or a reference by name as `spatialReference` reads
  /// one (a number is an EPSG code); nil when it is neither.
  package static func viewCrs(_ v: JSONValue) -> String? {
    if case .string(let s) = v, s.trimmedOfSpaces.lowercased() == mapUnits { return mapUnits }
    return spatialReference(v)
  }

  /// The `viewCrs` that means the map's own reference.
  package static let mapUnits = "map"

  /// True when coordinates in `viewCrs` (nil: the default) are WGS84 degrees.
  package static func isDegrees(viewCrs: String?) -> Bool {
    viewCrs.map { MapProjection.wgs84Names.contains($0) } ?? true
  }

  /// The largest magnitude of a coordinate in map units (a planet in
  /// millimetres is under 1e11).
  package static let maximumCoordinate = 1e12

  /// `center` in a reference other than degrees: two finite numbers.
  package static func centerInMapUnits(_ n: [Double]) -> (lon: Double, lat: Double)? {
    guard n.count == 2, n.allSatisfy({ abs($0) <= maximumCoordinate }) else { return nil }
    return (n[0], n[1])
  }

  /// `bounds` in a reference other than degrees: four finite numbers,
  /// xmin ≤ xmax and ymin ≤ ymax.
  package static func boundsInMapUnits(_ n: [Double]) -> BoundsCheck {
    guard n.count == 4, n.allSatisfy({ abs($0) <= maximumCoordinate }) else { return .outOfRange }
    guard n[0] <= n[2], n[1] <= n[3] else { return .wrongOrder }
    return .box(MapBounds(west: n[0], south: n[1], east: n[2], north: n[3]))
  }

  /// The second rule of `bounds`: a box the right way round.
  package static let boundsOrder = "west ≤ east and south ≤ north (a box across the antimeridian is not supported)"

  // MARK: - the checks

  /// `scale`: a denominator in `Viewport.scaleRange`.
  package static func isScale(_ v: Double) -> Bool { Viewport.scaleRange.contains(v) }

  /// `zoom`: a level in `zoomRange`.
  package static func isZoom(_ v: Double) -> Bool { zoomRange.contains(v) }

  /// A bearing in degrees (either way round, at most one turn).
  package static func isBearing(_ v: Double) -> Bool { abs(v) <= 360 }

  /// One side of `size`: a whole number from 1 to `maxSide`.
  package static func isSide(_ v: Double) -> Bool { v >= 1 && v <= Double(maxSide) && v == v.rounded() }

  /// `pixelRatio`: > 0 and at most `maxPixelRatio`.
  package static func isPixelRatio(_ v: Double) -> Bool { v > 0 && v <= maxPixelRatio }

  /// A longitude (±180) or latitude (±90) in degrees.
  package static func isLongitude(_ v: Double) -> Bool { abs(v) <= 180 }
  package static func isLatitude(_ v: Double) -> Bool { abs(v) <= 90 }

  /// `center`: longitude and latitude in range.
  package static func center(_ n: [Double]) -> (lon: Double, lat: Double)? {
    guard n.count == 2, isLongitude(n[0]), isLatitude(n[1]) else { return nil }
    return (n[0], n[1])
  }

  /// `size`: two sides, each `isSide`.
  package static func size(_ n: [Double]) -> (width: Int, height: Int)? {
    guard n.count == 2, isSide(n[0]), isSide(n[1]) else { return nil }
    return (Int(n[0]), Int(n[1]))
  }

  /// Why four numbers are not a `bounds`, or the box.
  package enum BoundsCheck {
    case box(MapBounds)
    /// Not four finite numbers, or a longitude or latitude out of range.
    case outOfRange
    /// West after east, or south after north.
    case wrongOrder
  }

  /// `bounds`: [west, south, east, north] in degrees, in range, west ≤ east
  /// and south ≤ north.
  package static func bounds(_ n: [Double]) -> BoundsCheck {
    guard n.count == 4, n.allSatisfy(\.isFinite), isLongitude(n[0]), isLongitude(n[2]), isLatitude(n[1]), isLatitude(n[3]) else {
      return .outOfRange
    }
    guard n[0] <= n[2], n[1] <= n[3] else { return .wrongOrder }
    return .box(MapBounds(west: n[0], south: n[1], east: n[2], north: n[3]))
  }

  /// `padding`: one number or four (top, right, bottom, left), each finite
  /// and ≥ 0.
  package static func padding(_ n: [Double]) -> Padding? {
    guard n.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
    switch n.count {
    case 1: return Padding(n[0])
    case 4: return Padding(top: n[0], right: n[1], bottom: n[2], left: n[3])
    default: return nil
    }
  }

  /// `spatialReference`: a whole positive number (an EPSG code) or a
  /// non-empty name of at most `maximumReferenceName` characters, as
  /// `MapProjection.normalizedName` spells it; whether PROJ knows it is
  /// decided when the map is resolved.
  package static func spatialReference(_ v: JSONValue) -> String? {
    switch v {
    case .number(let n) where n >= 1 && n <= Double(Int32.max) && n == n.rounded(): return "EPSG:\(Int(n))"
    case .string(let s) where !s.trimmedOfSpaces.isEmpty && s.count <= maximumReferenceName: return MapProjection.normalizedName(s)
    default: return nil
    }
  }

  /// The longest spatial reference name read (a URL of an OGC definition
  /// is under 100 characters).
  package static let maximumReferenceName = 256
}
