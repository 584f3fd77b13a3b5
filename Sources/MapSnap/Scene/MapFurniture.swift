/// A corner of the image, where map furniture sits.
public enum Corner: String, Sendable, Hashable, CaseIterable {
  case topLeft, topRight, bottomLeft, bottomRight
}

/// `map.scaleBar` (scene format 1.3): a bar of a round true length at the
/// map's centre, labelled with it.
public struct ScaleBarSettings: Sendable, Hashable {
  /// The units a bar counts in.
  public enum Units: String, Sendable, Hashable, CaseIterable {
    /// Metres, then kilometres from 1 km.
    case metric
    /// Feet, then miles from 1 mi (5280 ft).
    case imperial
    /// Nautical miles (1852 m).
    case nautical
  }

  /// Where it sits; default bottom left.
  public var position: Corner = .bottomLeft
  /// nil: imperial on a map whose unit is a foot, else metric.
  public var units: Units?
  /// The longest bar, in logical pixels; default 100.
  public var maxWidth: Double = 100
  /// The bar's and its label's colour; default dark grey.
  public var color: Color = Color(r: 0x33, g: 0x33, b: 0x33)

  public init() {}
}

/// `map.northArrow` (scene format 1.3): an arrow pointing to true north at
/// the map's centre.
public struct NorthArrowSettings: Sendable, Hashable {
  /// Where it sits; default top right.
  public var position: Corner = .topRight
  /// The arrow's length, in logical pixels; default 28.
  public var size: Double = 28
  /// Its colour; default dark grey.
  public var color: Color = Color(r: 0x33, g: 0x33, b: 0x33)

  public init() {}
}

extension SceneDecoder {
  /// `map.scaleBar`: `true` (the defaults), `false` (none), or an object of
  /// `position`, `units`, `maxWidth` and `color`.
  func decodeScaleBar(_ r: ObjectReader) throws(SceneError) -> ScaleBarSettings? {
    guard let v = r.object["scaleBar"] else { return nil }
    switch v {
    case .bool(let b): return b ? ScaleBarSettings() : nil
    case .object:
      let o = try ObjectReader(v, at: r.path.key("scaleBar"), file: file, what: "a scale bar", allowed: ["position", "units", "maxWidth", "color"])
      var s = ScaleBarSettings()
      if let p = try o.choice("position", Corner.allCases.map(\.rawValue)) { s.position = Corner(rawValue: p)! }
      if let u = try o.choice("units", ScaleBarSettings.Units.allCases.map(\.rawValue)) { s.units = ScaleBarSettings.Units(rawValue: u) }
      s.maxWidth = try o.number("maxWidth", "logical pixels from 20 to 2000") { $0 >= 20 && $0 <= 2000 } ?? s.maxWidth
      s.color = try o.color("color") ?? s.color
      return s
    default:
      throw r.invalid("scaleBar", expected: "true, false, or an object of position, units, maxWidth and color", found: v)
    }
  }

  /// `map.northArrow`: `true` (the defaults), `false` (none), or an object
  /// of `position`, `size` and `color`.
  func decodeNorthArrow(_ r: ObjectReader) throws(SceneError) -> NorthArrowSettings? {
    guard let v = r.object["northArrow"] else { return nil }
    switch v {
    case .bool(let b): return b ? NorthArrowSettings() : nil
    case .object:
      let o = try ObjectReader(v, at: r.path.key("northArrow"), file: file, what: "a north arrow", allowed: ["position", "size", "color"])
      var s = NorthArrowSettings()
      if let p = try o.choice("position", Corner.allCases.map(\.rawValue)) { s.position = Corner(rawValue: p)! }
      s.size = try o.number("size", "logical pixels from 8 to 512") { $0 >= 8 && $0 <= 512 } ?? s.size
      s.color = try o.color("color") ?? s.color
      return s
    default:
      throw r.invalid("northArrow", expected: "true, false, or an object of position, size and color", found: v)
    }
  }
}
