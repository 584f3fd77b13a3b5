import Testing
import _MapSnapTestSupport

@testable import MapSnap

// GeoJSONFastReader: the features of a GeoJSON file read straight from its
// bytes, or nil, when the reference way (JSONParser.parse, then
// GeoJSONDecoder.decodeDocument) must read it. Whenever it reads, it must
// read exactly what the reference reads.

// MARK: - Helpers

extension GeoJSONFastReaderTests {
  /// The reference way's error (syntax or GeoJSON), as text.
  struct ReferenceError: Error, CustomStringConvertible {
    var description: String
  }

  /// The reference way's collection, or its error.
  func reference(_ bytes: [UInt8]) -> Result<FeatureCollection, ReferenceError> {
    do {
      return .success(try GeoJSONDecoder.decodeDocument(try JSONParser.parse(bytes)))
    } catch {
      return .failure(ReferenceError(description: "\(error)"))
    }
  }

  /// Expects two lists of features to be the same, field by field.
  func expectSameFeatures(_ a: [Feature], _ b: [Feature], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.count == b.count, "\(what): \(a.count) and \(b.count) features", sourceLocation: sourceLocation)
    for (i, (f, g)) in zip(a, b).enumerated() {
      let at = "\(what)[\(i)]"
      #expect(f.id == g.id, "\(at).id", sourceLocation: sourceLocation)
      #expect(f.properties == g.properties, "\(at).properties", sourceLocation: sourceLocation)
      #expect(f.index == g.index, "\(at).index", sourceLocation: sourceLocation)
      #expect(f.geometry.points == g.geometry.points, "\(at).geometry.points", sourceLocation: sourceLocation)
      #expect(f.geometry.lines == g.geometry.lines, "\(at).geometry.lines", sourceLocation: sourceLocation)
      #expect(f.geometry.polygons == g.geometry.polygons, "\(at).geometry.polygons", sourceLocation: sourceLocation)
      #expect(f.geometry.bounds == g.geometry.bounds, "\(at).geometry.bounds", sourceLocation: sourceLocation)
      // Bit for bit, which == on doubles is not (-0.0 == 0.0).
      #expect(bits(f.geometry) == bits(g.geometry), "\(at).geometry (bit patterns)", sourceLocation: sourceLocation)
      if f != g { return }  // one feature's report is enough
    }
  }

  /// Every coordinate of `g` and its bounds, as bit patterns.
  func bits(_ g: Geometry) -> [UInt64] {
    var out: [UInt64] = []
    func add(_ p: Point) { out += [p.x.bitPattern, p.y.bitPattern] }
    g.points.forEach(add)
    for l in g.lines { l.forEach(add) }
    for p in g.polygons { for r in p { r.forEach(add) } }
    out += [g.bounds.minX, g.bounds.minY, g.bounds.maxX, g.bounds.maxY].map(\.bitPattern)
    return out
  }

  /// Expects `fast` to be the reference's collection, field by field.
  func expectSame(_ fast: FeatureCollection, _ ref: FeatureCollection, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectSameFeatures(fast.features, ref.features, "\(name): features", sourceLocation: sourceLocation)
    expectSameFeatures(fast.withoutGeometry, ref.withoutGeometry, "\(name): withoutGeometry", sourceLocation: sourceLocation)
    #expect(fast.invalidCount == ref.invalidCount, "\(name): invalidCount", sourceLocation: sourceLocation)
    #expect(fast.invalidSamples == ref.invalidSamples, "\(name): invalidSamples", sourceLocation: sourceLocation)
    #expect(fast.unlocatedCount == ref.unlocatedCount, "\(name): unlocatedCount", sourceLocation: sourceLocation)
    #expect(fast.unprojectableCount == ref.unprojectableCount, "\(name): unprojectableCount", sourceLocation: sourceLocation)
    #expect(fast == ref, "\(name): the collections", sourceLocation: sourceLocation)
  }

  /// Reads `text` both ways: expects the fast reader to read it, and to read
  /// what the reference reads.
  @discardableResult
  func expectRead(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> FeatureCollection? {
    let bytes = Array(text.utf8)
    guard let fast = GeoJSONFastReader.read(bytes) else {
      Issue.record("the fast reader gave up on \(text)", sourceLocation: sourceLocation)
      return nil
    }
    switch reference(bytes) {
    case .success(let ref): expectSame(fast, ref, text, sourceLocation: sourceLocation)
    case .failure(let error): Issue.record("the reference fails (\(error)) on \(text)", sourceLocation: sourceLocation)
    }
    #expect(SourceLoader._fastReaderDisagreement(bytes) == nil, sourceLocation: sourceLocation)
    return fast
  }

  /// Expects the fast reader to give up on `text` (the reference decides).
  func expectFallBack(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectFallBack(Array(text.utf8), text, sourceLocation: sourceLocation)
  }

  func expectFallBack(_ bytes: [UInt8], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(GeoJSONFastReader.read(bytes) == nil, "the fast reader read \(name)", sourceLocation: sourceLocation)
  }

  /// A FeatureCollection of one feature with `geometry` (JSON).
  func one(_ geometry: String, properties: String = "{}") -> String {
    #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": \#(properties), "geometry": \#(geometry)}]}"#
  }
}

/// Every `.geojson` file of the repository (examples, fixtures, golden
/// cases, fuzz seeds and corpus), relative to its root.
private let geoJSONFiles: [String] = {
  var files: [String] = []
  for folder in ["Examples", "Tests/Fixtures", "Golden", "Fuzz", "Benchmarks"] {
    for name in Files.listRecursively(Repository.root + "/" + folder) where name.hasSuffix(".geojson") {
      files.append(folder + "/" + name)
    }
  }
  return files
}()

private let square = "[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]"
private let squareClockwise = "[[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]"
private let hole = "[[0.25, 0.25], [0.75, 0.25], [0.75, 0.75], [0.25, 0.75], [0.25, 0.25]]"
private let holeClockwise = "[[0.25, 0.25], [0.25, 0.75], [0.75, 0.75], [0.75, 0.25], [0.25, 0.25]]"

// MARK: - Tests

@Suite struct GeoJSONFastReaderTests {
  // MARK: Every file of the repository

  @Test func findsTheRepositorysGeoJSONFiles() {
    #expect(geoJSONFiles.count >= 30, "\(geoJSONFiles)")
    #expect(geoJSONFiles.contains("Examples/data/nyc_boroughs.geojson"))
  }

  @Test(arguments: geoJSONFiles)
  func readsEveryFileAsTheReferenceDoes(_ file: String) throws {
    let bytes = try Files.read(Repository.root + "/" + file)
    let ref = reference(bytes)
    guard let fast = GeoJSONFastReader.read(bytes) else {
      // Giving up is always allowed; the reference then decides.
      return
    }
    switch ref {
    case .success(let r): expectSame(fast, r, file)
    case .failure(let error): Issue.record("\(file): the fast reader read a file the reference rejects: \(error)")
    }
    #expect(SourceLoader._fastReaderDisagreement(bytes) == nil, "\(file)")
  }

  /// The files the fast reader is for: it must not quietly give up on them.
  @Test(arguments: [
    "nyc_boroughs", "helsinki_areas", "helsinki_buildings", "helsinki_pois", "helsinki_pois_3067", "helsinki_roads",
    "ne_110m_cities", "ne_110m_countries",
  ])
  func readsTheExampleData(_ stem: String) throws {
    let bytes = try Files.read(Repository.root + "/Examples/data/\(stem).geojson")
    let fast = try #require(GeoJSONFastReader.read(bytes), "the fast reader gave up on \(stem).geojson")
    #expect(!fast.features.isEmpty)
    expectSame(fast, try reference(bytes).get(), stem)
  }

  /// The fuzz seeds written for the fast reader: two it reads, two it
  /// leaves to the reference.
  @Test func fuzzSeedsForTheFastReader() throws {
    let folder = Repository.root + "/Fuzz/seeds/geojson/"
    for (name, read) in [
      ("fast-key-order", true), ("fast-all-kinds", true),
      ("fast-falls-back-repeated-key", false), ("fast-falls-back-invalid-ring", false),
    ] {
      let bytes = try Files.read(folder + name + ".geojson")
      #expect((GeoJSONFastReader.read(bytes) != nil) == read, "\(name)")
      #expect(try Files.read(Repository.root + "/Fuzz/corpus/geojson/\(name).geojson") == bytes, "\(name) is in the corpus")
    }
  }

  /// A file source goes the fast way with the same result and digest as
  /// the reference way.
  @Test func sourceLoaderReadsTheSameWithTheSameDigest() throws {
    let path = Repository.root + "/Examples/data/nyc_boroughs.geojson"
    let bytes = try Files.read(path)
    let loaded = try SourceLoader().load(.file(path: "nyc_boroughs.geojson", resolved: path)).get()
    var ref = try reference(bytes).get()
    ref.contentDigest = SHA256.hex(of: bytes)
    #expect(loaded.contentDigest == ref.contentDigest && !loaded.contentDigest.isEmpty)
    expectSame(loaded, ref, "nyc_boroughs.geojson")
    #expect(loaded.features.count == 5)
    #expect(loaded.features.reduce(0) { $0 + $1.geometry.pointCount } > 70_000)
  }

  /// A file the fast reader gives up on is read and reported as before.
  @Test func sourceLoaderFallsBackWithTheReferenceErrors() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-fast-reader")
    defer { folder.cleanUp() }
    let cases = [
      ("dup.geojson", #"{"type": "FeatureCollection", "type": "FeatureCollection", "features": []}"#),
      ("feature.geojson", #"{"type": "Feature", "properties": {"a": 1}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#),
      ("unclosed.geojson", one(#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}"#)),
      ("nan.geojson", one(#"{"type": "Point", "coordinates": [NaN, 1]}"#)),
      ("kind.geojson", #"{"type": "FeatureSet", "features": []}"#),
    ]
    for (name, text) in cases {
      try Files.write(text, to: folder.path + "/" + name)
      let bytes = Array(text.utf8)
      #expect(GeoJSONFastReader.read(bytes) == nil, "\(name)")
      let loaded = SourceLoader().load(.file(path: name, resolved: folder.path + "/" + name))
      switch (loaded, reference(bytes)) {
      case (.success(let l), .success(var r)):
        r.contentDigest = SHA256.hex(of: bytes)
        expectSame(l, r, name)
      case (.failure(let e), .failure(let r)):
        // The loader's message carries the reference's (syntax or GeoJSON).
        let message = e.description
        #expect(message.contains(name), "\(message)")
        if name == "dup.geojson" { #expect(message.contains("duplicate key \"type\""), "\(message)") }
        if name == "kind.geojson" { #expect(message.contains("FeatureSet") && r.description.contains("FeatureSet"), "\(message)") }
      default:
        Issue.record("\(name): the loader and the reference disagree: \(loaded) and \(reference(bytes))")
      }
    }
  }

  /// Small documents mutated at random, token by token (a number, a
  /// bracket, a key or a literal replaced, dropped or repeated): whatever
  /// the fast reader reads, it reads as the reference does.
  @Test func mutatedDocumentsReadAsTheReferenceDoes() throws {
    let documents = [
      try Files.read(Repository.root + "/Fuzz/seeds/geojson/fast-key-order.geojson"),
      try Files.read(Repository.root + "/Fuzz/seeds/geojson/fast-all-kinds.geojson"),
      Array(one(#"{"type": "Polygon", "coordinates": [\#(square), \#(holeClockwise)]}"#, properties: #"{"a": 1, "b": "x"}"#).utf8),
    ].map(tokens)
    let replacements = [
      "0", "1", "-0", "0.0", "1e2", "[", "]", "{", "}", ",", ":", "null", "true", "\"type\"", "\"Feature\"", "\"Point\"",
      "\"Polygon\"", "\"coordinates\"", "\"geometry\"", "\"properties\"", "\"id\"", "\"features\"", "[0, 0]", "[0, 0, 1]",
    ]
    var random = SplitMix64(seed: 0x6E_6A_73_6F_6E)
    var read = 0
    var disagreements = 0
    for round in 0..<4000 {
      var t = documents[round % documents.count]
      for _ in 0..<(1 + Int(random.next() % 3)) {
        let i = Int(random.next() % UInt64(t.count))
        switch random.next() % 4 {
        case 0: t[i] = replacements[Int(random.next() % UInt64(replacements.count))]
        case 1: t.remove(at: i)
        case 2: t.insert(t[Int(random.next() % UInt64(t.count))], at: i)
        default:
          // A number changed a little: rings open, orientations and bounds move.
          if let x = Double(t[i]) { t[i] = String(x + Double(Int(random.next() % 3)) - 1) }
        }
      }
      let bytes = Array(t.joined().utf8)
      guard GeoJSONFastReader.read(bytes) != nil else { continue }
      read += 1
      if let d = SourceLoader._fastReaderDisagreement(bytes) {
        disagreements += 1
        if disagreements <= 3 { Issue.record("\(d): \(t.joined())") }
      }
    }
    #expect(disagreements == 0)
    // Enough of them stay on the fast path for the comparison to mean something.
    #expect(read > 300, "\(read) read")
  }

  // MARK: What it reads

  // MARK: Large arrays, read in two halves

  /// A collection of `count` features larger than `GeoJSONFastReader.splitBytes`,
  /// whose properties hold what looks like the start of a feature to the
  /// split's guess: `,{"` in strings (escaped and not), arrays of objects,
  /// nested objects; some features have no geometry, some an id. `pad`
  /// lengthens the first feature, so that the middle falls elsewhere.
  private func large(count: Int, pad: Int, after: String = "", lastGeometry: String? = nil) -> String {
    var features: [String] = []
    for i in 0..<count {
      let x = Double(i % 360) - 180 + Double(i) / 1e4
      let geometry = i == count - 1 && lastGeometry != nil ? lastGeometry! : i % 17 == 5 ? "null" : "{\"type\": \"Polygon\", \"coordinates\": [[[\(x), 0], [\(x + 0.5), 0], [\(x + 0.5), 0.5], [\(x), 0]]]}"
      let id = i % 3 == 0 ? "\"id\": \(i), " : ""
      let text = i == 0 ? String(repeating: "p", count: pad) : "a,{\\\"type\\\": \\\"Feature\\\"},{\\\"b\\\": 1}"
      features.append(
        "{\(id)\"type\": \"Feature\", \"properties\": {\"name\": \"\(text)\", \"list\": [{\"k\": \(i)}, {\"type\": \"Feature\"}], \"n\": {\"m\": {\"o\": [1, {\"p\": 2}]}}}, \"geometry\": \(geometry)}")
    }
    return "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "]\(after)}"
  }

  @Test func largeArraysReadInTwoHalvesAsTheReferenceDoes() throws {
    let before = GeoJSONFastReader.splitsJoined.load(ordering: .relaxed)
    // The middle falls in a string, an array of objects, a nested object,
    // between features, as the first feature grows (every third of those
    // places under a sanitizer, whose unsafe loops are the same in each).
    for pad in stride(from: 0, through: 400, by: Sanitizer.count(plain: 23, sanitized: 69)) {
      let text = large(count: 4_000, pad: pad)
      #expect(text.utf8.count >= GeoJSONFastReader.splitBytes)
      guard let fast = expectRead(text) else { continue }
      #expect(fast.features.count + fast.unlocatedCount == 4_000)
      #expect(fast.withoutGeometry.map(\.index) == Array(stride(from: 5, to: 4_000, by: 17)))
    }
    // Some of those reads took their second half from the thread.
    #expect(GeoJSONFastReader.splitsJoined.load(ordering: .relaxed) > before)
  }

  @Test func aGuessAfterTheArrayIsAbandoned() throws {
    // The features are a small part; the middle falls in a member after
    // them that holds objects after commas.
    let tail = (0..<40_000).map { "{\"k\": \($0)}" }.joined(separator: ",")
    expectRead(large(count: 20, pad: 0, after: ", \"extra\": [\(tail)]"))
  }

  @Test func aSecondHalfTheReaderDoesNotTakeFallsBack() throws {
    // A GeometryCollection late in the array: the reference reads it.
    expectFallBack(large(count: 4_000, pad: 0, lastGeometry: "{\"type\": \"GeometryCollection\", \"geometries\": []}"))
  }

  @Test func keysInAnyOrder() throws {
    expectRead(
      #"{"features": [{"geometry": {"coordinates": [1, 2], "type": "Point"}, "properties": {"b": 2, "a": 1}, "id": 7, "type": "Feature"}], "type": "FeatureCollection"}"#
    )
    expectRead(
      #"{"features": [{"geometry": {"type": "Point", "coordinates": [1, 2]}, "type": "Feature", "properties": null}], "name": "x", "type": "FeatureCollection"}"#
    )
    // Coordinates before the type, for every kind, polygons with holes either way.
    for g in [
      #"{"coordinates": [[1, 2], [3, 4]], "type": "LineString"}"#,
      #"{"coordinates": [[[1, 2], [3, 4]], [[5, 6], [7, 8, 9]]], "type": "MultiLineString"}"#,
      #"{"coordinates": [\#(squareClockwise), \#(hole)], "type": "Polygon"}"#,
      #"{"coordinates": [[\#(square), \#(holeClockwise)], [\#(squareClockwise)]], "bbox": [0, 0, 1, 1], "type": "MultiPolygon"}"#,
      #"{"coordinates": [], "type": "MultiPoint"}"#,
    ] {
      expectRead(one(g))
    }
  }

  @Test func propertiesAndIDs() throws {
    let c = try #require(
      expectRead(
        #"""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": 12, "properties": null, "geometry": {"type": "Point", "coordinates": [1, 2]}},
          {"type": "Feature", "id": "w1", "geometry": {"type": "Point", "coordinates": [1, 2]}},
          {"type": "Feature", "id": null, "properties": {"name": "Kallio", "nested": {"a": [1, {"b": null}]}, "n": -0.0}, "geometry": {"type": "Point", "coordinates": [1, 2]}},
          {"type": "Feature", "id": 1.5e3, "properties": {}, "geometry": null},
          {"type": "Feature", "id": -3, "properties": {"k": "v"}}
        ]}
        """#))
    #expect(c.features.map(\.id) == [.number(12), .string("w1"), nil])
    #expect(c.features.map(\.index) == [0, 1, 2])
    #expect(c.withoutGeometry.map(\.index) == [3, 4])
    #expect(c.withoutGeometry.map(\.id) == [.number(1500), .number(-3)])
    #expect(c.unlocatedCount == 2)
    #expect(c.features[0].properties.isEmpty && c.features[1].properties.isEmpty)
  }

  @Test func everyGeometryKind() throws {
    let c = try #require(
      expectRead(
        collection([
          #"{"type": "Point", "coordinates": [180, -90]}"#,
          #"{"type": "MultiPoint", "coordinates": [[1, 2], [3, 4, 5]]}"#,
          #"{"type": "LineString", "coordinates": [[1, 2], [3, 4]]}"#,
          #"{"type": "MultiLineString", "coordinates": [[[1, 2], [3, 4]], [[5, 6], [7, 8], [9, 10]]]}"#,
          #"{"type": "Polygon", "coordinates": [\#(square)]}"#,
          #"{"type": "MultiPolygon", "coordinates": [[\#(square), \#(hole)], [\#(square)]]}"#,
          #"{"type": "MultiPoint", "coordinates": []}"#,
          #"{"type": "MultiLineString", "coordinates": []}"#,
          #"{"type": "MultiPolygon", "coordinates": []}"#,
        ])))
    #expect(c.features.count == 9)
    #expect(c.features[1].geometry.points == [Point(1, 2), Point(3, 4)])
    #expect(c.features[5].geometry.polygons.map { $0.map(\.count) } == [[4, 4], [4]])
    #expect(c.features[6].geometry.isEmpty && c.features[6].geometry.bounds == .empty)
  }

  @Test func threeDimensionalPositions() throws {
    let c = try #require(
      expectRead(
        one(#"{"type": "Polygon", "coordinates": [[[0, 0, 5], [1, 0, 6], [1, 1, 7, 8], [0, 1], [0, 0, 5]]]}"#)))
    #expect(c.features[0].geometry.polygons[0][0].count == 4)
    expectRead(one(#"{"type": "LineString", "coordinates": [[0, 0, 1e2], [1, 1, 2, 3, 4]]}"#))
    // Closure compares the numbers as written: 0 and 0.0 and -0 are equal numbers.
    expectRead(one(#"{"type": "Polygon", "coordinates": [[[0, 0, 1], [1, 0], [1, 1], [0.0, -0, 1.0]]]}"#))
  }

  @Test func ringOrientation() throws {
    for (outer, inner) in [(square, hole), (squareClockwise, holeClockwise), (square, holeClockwise), (squareClockwise, hole)] {
      let c = try #require(expectRead(one(#"{"type": "Polygon", "coordinates": [\#(outer), \#(inner)]}"#)))
      let rings = c.features[0].geometry.polygons[0]
      #expect(GeoJSONDecoder.signedArea(rings[0]) > 0)
      #expect(GeoJSONDecoder.signedArea(rings[1]) < 0)
    }
    // A degenerate ring (zero area) stays as written when outer, turns when a hole.
    expectRead(one(#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [2, 2], [0, 0]], [[0, 0], [1, 1], [2, 2], [0, 0]]]}"#))
  }

  @Test func signedZerosAndBoundsInFileOrder() throws {
    expectRead(one(#"{"type": "MultiPoint", "coordinates": [[0, -0.0], [-0, 0], [0.0, -0]]}"#))
    expectRead(one(#"{"type": "MultiPoint", "coordinates": [[-0, 0], [0, -0.0]]}"#))
  }

  @Test func whitespaceEscapesAndByteOrderMark() throws {
    expectRead(
      " \n\t{ \"typ\\u0065\" :\r\n \"FeatureCollection\" , \"features\" : [ { \"type\" : \"Feature\" , \"geometry\" : { \"type\" : \"LineString\" , \"coordinates\" : [ [ 1 , 2 ] , [ 3 , 4 ] ] } } ] } \n"
    )
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(one(#"{"type": "Point", "coordinates": [1, 2]}"#).utf8)
    let fast = try #require(GeoJSONFastReader.read(bom))
    expectSame(fast, try reference(bom).get(), "with a byte-order mark")
    expectRead(#"{"type": "FeatureCollection", "features": []}"#)
  }

  @Test func otherMembersAreIgnored() throws {
    expectRead(
      #"""
      {"type": "FeatureCollection", "crs": {"type": "name", "properties": {"name": "EPSG:4326"}}, "bbox": [0, 0, 1, 1],
       "features": [{"type": "Feature", "bbox": [1, 2, 1, 2], "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "j": [true, false],
         "geometry": {"type": "Point", "geometries": [], "coordinates": [1, 2], "crs": null}, "properties": {"x": "ä\u00e4"}}],
       "features2": "x"}
      """#)
  }
}

/// `bytes` (JSON) cut into tokens: strings, runs of number characters or
/// letters, and single other characters (whitespace dropped, a space kept
/// between tokens so that joined they read the same).
private func tokens(_ bytes: [UInt8]) -> [String] {
  var out: [String] = []
  var i = 0
  func isWord(_ c: UInt8) -> Bool {
    (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "+") || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A)
  }
  while i < bytes.count {
    let c = bytes[i]
    var j = i + 1
    if c == UInt8(ascii: "\"") {
      while j < bytes.count && bytes[j] != UInt8(ascii: "\"") { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
      j = min(j + 1, bytes.count)
    } else if isWord(c) {
      while j < bytes.count && isWord(bytes[j]) { j += 1 }
    }
    if c != 0x20 && c != 0x0A && c != 0x0D && c != 0x09 {
      out.append(String(decoding: bytes[i..<j], as: UTF8.self) + " ")
    }
    i = j
  }
  return out
}

/// A FeatureCollection of features with these geometries (JSON).
private func collection(_ geometries: [String]) -> String {
  let features = geometries.enumerated().map { i, g in #"{"type": "Feature", "id": \#(i), "properties": {"i": \#(i)}, "geometry": \#(g)}"# }
  return #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ",\n"))]}"#
}
