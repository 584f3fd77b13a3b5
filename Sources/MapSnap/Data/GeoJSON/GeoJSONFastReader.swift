import Synchronization
internal import _MapSnapRaster

/// Reads a GeoJSON file's bytes straight into a `FeatureCollection`, reading
/// each `coordinates` array into points without building a `JSONValue` for
/// it, or returns nil. A nil means nothing but "not read here": the caller
/// then reads the file the reference way (`JSONParser.parse`, then
/// `GeoJSONDecoder.decodeDocument`), whose result and error messages are the
/// ones that count.
///
/// The rule: a non-nil result is exactly what the reference way returns
/// (`contentDigest` aside, which the caller sets). To keep it so, the reader
/// takes only the common shape and gives up on anything else:
/// - the document is one object whose `"type"` is the string
///   `"FeatureCollection"` and whose `"features"` is an array, with only
///   whitespace after it (a leading byte-order mark is skipped);
///   its legacy `"crs"` member is read by `GeoJSONDecoder.declaredReference`;
/// - each member of `features` is an object whose `"type"` is the string
///   `"Feature"`, with an optional `"id"` (string, number or null), optional
///   `"properties"` (object or null) and optional `"geometry"` (null, or an
///   object whose `"type"` is Point, MultiPoint, LineString, MultiLineString,
///   Polygon or MultiPolygon, with `"coordinates"` the decoder accepts);
/// - positions are arrays of two or more numbers (more are ignored, as the
///   decoder ignores them, but they take part in a ring's closure test);
/// - every other member of these objects is read with the JSON parser's own
///   `parseValue` (so its syntax, nesting depth and keys are checked as the
///   parser checks them) and ignored, as the decoder ignores it; a key that
///   one of these objects repeats (a syntax error for the parser) is not read
///   here.
/// Anything else gives nil: a syntax error anywhere, a bare Feature or
/// geometry, a GeometryCollection, a feature or geometry the decoder would
/// skip and count as invalid (bad position, short or unclosed ring, wrong
/// type…), a position holding anything but numbers.
///
/// Strings, numbers, literals, `id`, `properties` and ignored members are
/// read by `_JSONByteParser`, the code `JSONParser` runs, so they come out
/// bit for bit the same. On what it reads itself the reader mirrors the
/// decoder: bounds take every position in file order (closing ones
/// included), a ring's closure compares its first and last positions as
/// written (every number of them), the closing position is dropped, outer
/// rings are turned counter-clockwise and holes clockwise by
/// `GeoJSONDecoder.signedArea`, and a feature's `index` counts every member
/// of `features`. A geometry whose `"coordinates"` come before its `"type"`
/// has its coordinates parsed as a `JSONValue` and decoded by
/// `GeoJSONDecoder.decodeGeometry` itself once the type is known.
struct GeoJSONFastReader {
  private(set) var p: _JSONByteParser
  /// The positions of the line or ring being read (reused).
  private var part: [Point] = []
  /// Numbers after lon and lat in the position just read (usually none).
  private var extras: [Double] = []
  /// Numbers after lon and lat in the first position of the ring being read.
  private var firstExtras: [Double] = []
  /// Bounds of the positions of the geometry being read.
  private var bounds = Rect.empty

  /// Thrown (and caught in `read`) where the input leaves the shape read here.
  static let offShape = JSONSyntaxError(line: 0, column: 0, message: "not a shape GeoJSONFastReader reads")

  init(_ parser: _JSONByteParser) {
    p = parser
  }

  /// The features of `bytes`, a GeoJSON file, or nil when the reference way
  /// must read it (see the type's rule).
  static func read(_ bytes: UnsafeRawBufferPointer) -> FeatureCollection? {
    let typed = bytes.bindMemory(to: UInt8.self)
    guard let base = typed.baseAddress, typed.count > 0 else { return nil }
    var reader = GeoJSONFastReader(_JSONByteParser(base: base, count: typed.count))
    do {
      return try reader.readDocument()
    } catch {
      return nil
    }
  }

  /// The features of `bytes`, or nil (see `read(_:)` above).
  static func read(_ bytes: [UInt8]) -> FeatureCollection? {
    bytes.withUnsafeBytes { read($0) }
  }

  // MARK: Tokens

  /// The next byte after whitespace, not consumed; 0 at the end of input
  /// (which no token starts with).
  @inline(__always)
  private mutating func peek() -> UInt8 {
    p.skipWhitespace()
    return p.pos < p.end ? p.byte(p.pos) : 0
  }

  /// Consumes `c` after whitespace, or gives up.
  @inline(__always)
  private mutating func expect(_ c: UInt8) throws(JSONSyntaxError) {
    guard peek() == c else { throw Self.offShape }
    p.pos += 1
  }

  /// A number, read by the parser's `parseNumber`.
  @inline(__always)
  private mutating func number() throws(JSONSyntaxError) -> Double {
    let c = peek()
    guard c == UInt8(ascii: "-") || c &- UInt8(ascii: "0") < 10 else { throw Self.offShape }
    return try p.parseNumber()
  }

  /// A string, read by the parser's `parseString`.
  private mutating func string() throws(JSONSyntaxError) -> String {
    guard peek() == UInt8(ascii: "\"") else { throw Self.offShape }
    return try p.parseString()
  }

  /// Consumes the `{` of an object the reader interprets, counting its
  /// depth as the parser does; the object must have a member.
  private mutating func openObject() throws(JSONSyntaxError) {
    guard peek() == UInt8(ascii: "{") else { throw Self.offShape }
    try p.enter(at: p.pos)
    p.pos += 1
  }

  /// A member's key and its `:`.
  private mutating func key() throws(JSONSyntaxError) -> String {
    let k = try string()
    try expect(UInt8(ascii: ":"))
    return k
  }

  /// After a member: true when a `,` announces another, false when the `}`
  /// closes the object.
  private mutating func nextMember() throws(JSONSyntaxError) -> Bool {
    switch peek() {
    case UInt8(ascii: ","):
      p.pos += 1
      return true
    case UInt8(ascii: "}"):
      p.pos += 1
      p.depth -= 1
      return false
    default:
      throw Self.offShape
    }
  }

  /// Consumes the `[` of a coordinates array; false when the array is empty
  /// (its `]` consumed too). Coordinates nest at most 4 deep inside the
  /// geometry object, far from `JSONParser.maxDepth`, and hold no value the
  /// parser reads, so their depth is not counted.
  @inline(__always)
  private mutating func openArray() throws(JSONSyntaxError) -> Bool {
    guard peek() == UInt8(ascii: "[") else { throw Self.offShape }
    p.pos += 1
    if peek() == UInt8(ascii: "]") {
      p.pos += 1
      return false
    }
    return true
  }

  /// After an element: true when a `,` announces another, false when the
  /// `]` closes the array.
  @inline(__always)
  mutating func nextElement() throws(JSONSyntaxError) -> Bool {
    switch peek() {
    case UInt8(ascii: ","):
      p.pos += 1
      return true
    case UInt8(ascii: "]"):
      p.pos += 1
      return false
    default:
      throw Self.offShape
    }
  }

  /// The value of an object's `"type"` member (member 0 of `names`),
  /// which must be `expected`: an object of any other type is not read here.
  private mutating func readType(_ expected: String, _ names: inout MemberNames) throws(JSONSyntaxError) {
    try names.see(0)
    guard try string() == expected else { throw Self.offShape }
  }

  /// A member the decoder ignores: its key checked against the object's
  /// others (`MemberNames`), its value read by the parser and dropped.
  private mutating func skipMember(_ key: String, _ names: inout MemberNames) throws(JSONSyntaxError) {
    try names.see(key)
    _ = try p.parseValue()
  }

  // MARK: Structure

  private mutating func readDocument() throws(JSONSyntaxError) -> FeatureCollection {
    p.skipByteOrderMark()
    var collection = FeatureCollection()
    var names = MemberNames()
    var isCollection = false
    var hasFeatures = false
    try openObject()
    repeat {
      let k = try key()
      switch k {
      case "type":
        // Any other type (a Feature, a geometry) is the decoder's to read.
        try readType("FeatureCollection", &names)
        isCollection = true
      case "features":
        try names.see(1)
        try readFeatures(into: &collection)
        hasFeatures = true
      case "crs":
        try names.see(2)
        collection.declaredCRS = GeoJSONDecoder.declaredReference(try p.parseValue())
      default:
        try skipMember(k, &names)
      }
    } while try nextMember()
    guard isCollection && hasFeatures else { throw Self.offShape }
    try p.expectEndOfDocument()
    return collection
  }

  private mutating func readFeatures(into c: inout FeatureCollection) throws(JSONSyntaxError) {
    guard peek() == UInt8(ascii: "[") else { throw Self.offShape }
    try p.enter(at: p.pos)
    p.pos += 1
    if peek() == UInt8(ascii: "]") {
      p.pos += 1
      p.depth -= 1
      return
    }
    // A large array is read in two halves side by side (`SplitRead`).
    let split = p.end - p.pos >= Self.splitBytes && activeProcessorCount() > 1 ? SplitRead(self, from: p.pos) : nil
    defer { split?.finish() }
    var index = 0
    repeat {
      try readFeature(index: index, into: &c)
      index += 1
      guard try nextElement() else { break }
      if let split, !split.decided, peek() != 0 && p.pos >= split.offset {
        if p.pos == split.offset, let rest = split.join() {
          Self.splitsJoined.add(1, ordering: .relaxed)
          // The second half began where this one ends: the same features,
          // read by the same code, numbered on from here.
          c.append(rest.features, renumberedFrom: index)
          p.pos = rest.end
          p.depth -= 1
          return
        }
        split.cancel()
      }
    } while true
    p.depth -= 1
  }

  /// Arrays of features at least this large (from their `[` to the end of
  /// the file) are read in two halves (`SplitRead`): below it, handing half
  /// to a thread of its own would cost more than it saves (a megabyte reads
  /// in some 3 ms, a thread starts in some 0.05 ms).
  static let splitBytes = 1 << 20

  /// How many reads took their second half from a thread (for the tests).
  static let splitsJoined = Atomic<Int>(0)

  mutating func readFeature(index: Int, into c: inout FeatureCollection) throws(JSONSyntaxError) {
    var names = MemberNames()
    var isFeature = false
    var id: JSONValue? = nil
    var properties = JSONObject([])
    var geometry: Geometry? = nil
    try openObject()
    repeat {
      let k = try key()
      switch k {
      case "type":
        try readType("Feature", &names)
        isFeature = true
      case "id":
        try names.see(1)
        let v = try p.parseValue()
        switch v {
        case .string, .number: id = v
        case .null: id = nil
        default: throw Self.offShape
        }
      case "properties":
        try names.see(2)
        switch try p.parseValue() {
        case .object(let o): properties = o
        case .null: properties = JSONObject([])
        default: throw Self.offShape
        }
      case "geometry":
        try names.see(3)
        if peek() == UInt8(ascii: "n") {
          try p.parseLiteral("null")
          geometry = nil
        } else {
          geometry = try readGeometry()
        }
      default:
        try skipMember(k, &names)
      }
    } while try nextMember()
    guard isFeature else { throw Self.offShape }
    if let geometry {
      c.features.append(Feature(id: id, properties: properties, geometry: geometry, index: index))
    } else {
      c.unlocatedCount += 1
      c.withoutGeometry.append(Feature(id: id, properties: properties, geometry: Geometry(), index: index))
    }
  }

  /// The geometry kinds read here (a GeometryCollection is not).
  private enum Kind {
    case point, multiPoint, lineString, multiLineString, polygon, multiPolygon

    init?(_ type: String) {
      switch type {
      case "Point": self = .point
      case "MultiPoint": self = .multiPoint
      case "LineString": self = .lineString
      case "MultiLineString": self = .multiLineString
      case "Polygon": self = .polygon
      case "MultiPolygon": self = .multiPolygon
      default: return nil
      }
    }
  }

  private mutating func readGeometry() throws(JSONSyntaxError) -> Geometry {
    var names = MemberNames()
    var type: String? = nil
    var kind: Kind? = nil
    var g = Geometry()
    var hasCoordinates = false
    /// Coordinates met before the type.
    var early: JSONValue? = nil
    try openObject()
    repeat {
      let k = try key()
      switch k {
      case "type":
        try names.see(0)
        let t = try string()
        guard let known = Kind(t) else { throw Self.offShape }
        type = t
        kind = known
      case "coordinates":
        try names.see(1)
        hasCoordinates = true
        if let kind {
          bounds = .empty
          try readCoordinates(kind, into: &g)
          g.bounds = bounds
        } else {
          early = try p.parseValue()
        }
      default:
        try skipMember(k, &names)
      }
    } while try nextMember()
    guard let type, hasCoordinates else { throw Self.offShape }
    if let early {
      // Only "type" and "coordinates" of a geometry other than a
      // GeometryCollection matter to the decoder.
      do {
        return try GeoJSONDecoder.decodeGeometry(.object(JSONObject([("type", .string(type)), ("coordinates", early)])), path: JSONPath())
      } catch {
        throw Self.offShape
      }
    }
    return g
  }

  private mutating func readCoordinates(_ kind: Kind, into g: inout Geometry) throws(JSONSyntaxError) {
    switch kind {
    case .point:
      g.points.append(try position())
    case .multiPoint:
      try readPart()
      g.points = copy(of: part)
    case .lineString:
      g.lines.append(try line())
    case .multiLineString:
      guard try openArray() else { return }
      repeat { g.lines.append(try line()) } while try nextElement()
    case .polygon:
      g.polygons.append(try polygon())
    case .multiPolygon:
      guard try openArray() else { return }
      repeat { g.polygons.append(try polygon()) } while try nextElement()
    }
  }

  // MARK: Coordinates

  /// One position `[lon, lat, …]` of numbers, included in `bounds`; the
  /// numbers after the second are left in `extras`.
  @inline(__always)
  private mutating func position() throws(JSONSyntaxError) -> Point {
    if !extras.isEmpty { extras.removeAll(keepingCapacity: true) }
    try expect(UInt8(ascii: "["))
    let lon = try number()
    try expect(UInt8(ascii: ","))
    let lat = try number()
    while try nextElement() {
      extras.append(try number())
    }
    let q = Point(lon, lat)
    bounds.include(q)
    return q
  }

  /// An array of positions into `part`, the first one's extra numbers into
  /// `firstExtras`; `extras` ends with the last one's.
  private mutating func readPart() throws(JSONSyntaxError) {
    part.removeAll(keepingCapacity: true)
    guard try openArray() else { return }
    part.append(try position())
    firstExtras.removeAll(keepingCapacity: true)
    firstExtras.append(contentsOf: extras)
    while try nextElement() {
      part.append(try position())
    }
  }

  /// `points` in an array of their own, of their size: `part` keeps its
  /// buffer (an array sharing it would take the scratch's capacity with it).
  private func copy(of points: [Point]) -> [Point] {
    var a: [Point] = []
    a.reserveCapacity(points.count)
    a.append(contentsOf: points)
    return a
  }

  /// A LineString's positions: at least 2.
  private mutating func line() throws(JSONSyntaxError) -> [Point] {
    try readPart()
    guard part.count >= 2 else { throw Self.offShape }
    return copy(of: part)
  }

  /// A Polygon's rings: at least one, each of at least 4 positions with the
  /// last equal to the first (every number as written), stored without the
  /// closing position, the outer ring counter-clockwise and holes clockwise.
  private mutating func polygon() throws(JSONSyntaxError) -> [[Point]] {
    guard try openArray() else { throw Self.offShape }
    var rings: [[Point]] = []
    repeat {
      try readPart()
      guard part.count >= 4, part[0] == part[part.count - 1], firstExtras == extras else { throw Self.offShape }
      part.removeLast()
      let area = GeoJSONDecoder.signedArea(part)
      if rings.isEmpty != (area >= 0) { part.reverse() }
      rings.append(copy(of: part))
    } while try nextElement()
    return rings
  }
}

extension FeatureCollection {
  /// Appends the features `other` read from the rest of an array (see
  /// `GeoJSONFastReader.SplitRead`), their indexes counted on from `base`.
  fileprivate mutating func append(_ other: FeatureCollection, renumberedFrom base: Int) {
    features.reserveCapacity(features.count + other.features.count)
    for var f in other.features {
      f.index += base
      features.append(f)
    }
    for var f in other.withoutGeometry {
      f.index += base
      withoutGeometry.append(f)
    }
    unlocatedCount += other.unlocatedCount
  }
}
