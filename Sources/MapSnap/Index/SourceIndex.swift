import Synchronization

internal import _MapSnapRaster

/// A decoded source in one projection (map units), with what frames ask of
/// it worked out once and kept: spatial indexes, so that a frame touches only
/// the features near it, and the dataset-wide counts and names a report
/// gives, which do not depend on the frame.
///
/// - `features(near:reach:)`: a `PackedRTree` over each feature's geometry
///   bounds (features without geometry are left out: nothing of them is drawn).
/// - `annotationPoints(near:)`: a `PackedRTree` over every point of every
///   feature (annotation anchors, one per part).
/// - Aggregates, each per key it depends on: the property names
///   (`propertyNames`), features on another floor (`otherFloorCount`, per
///   floor field and floor), the values of a property (`heldValues`), the largest text of a
///   field (`textExtent`), and the feature ids (`featureIDs`, per id field).
///
/// Everything is built on first use, under the index's lock, so threads that
/// share a `SourceLoader` build each part once and then read it without
/// waiting on one another's queries.
///
/// A transient index (inline `data`, which the scene holds and the loader
/// does not cache) builds no tree: it lives for one layer of one frame, where
/// a scan is cheaper than building one, and its queries return every
/// feature; the resolver's exact test then decides, as it does after a tree.
final class SourceIndex: Sendable {
  /// The features, in map units.
  let collection: FeatureCollection
  /// True when built for one use: queries scan instead of building a tree.
  let isTransient: Bool

  /// The property names of a source: each once, in the order first met
  /// (features, then those without geometry), and as a set.
  struct PropertyNames: Sendable {
    var ordered: [String] = []
    var set: Set<String> = []
  }

  /// One annotation anchor: `collection.features[feature].geometry.points[part]`.
  struct AnchorRef: Sendable {
    var feature: Int
    var part: Int
  }

  private struct FloorKey: Hashable {
    var field: String
    var floor: FloorValue
  }

  /// The point tree and, per entry, which feature and part it is. Entries
  /// are numbered in feature then part order, so sorted numbers are in
  /// drawing order.
  private struct PointIndex: Sendable {
    var tree: PackedRTree
    var feature: [Int32]
    var part: [Int32]
  }

  /// The features with a geometry, in order, and the bounds of them all.
  private struct Located: Sendable {
    var features: [Int32]
    var extent: Rect
  }

  private struct Built: Sendable {
    var located: Located?
    var featureTree: PackedRTree?
    var points: PointIndex?
    var names: PropertyNames?
    var otherFloor: [FloorKey: Int] = [:]
    var texts: [TextTemplate: TextExtent] = [:]
    var ids: [String?: FeatureIDIndex] = [:]
    var values: [String: HeldValues] = [:]
    /// Per set of fields and map, the digest keys made so far, by position.
    var digests: [DigestSet: [Int32: String]] = [:]
  }

  /// What a feature's digest key depends on besides the feature.
  struct DigestSet: Hashable, Sendable {
    var fields: [String]
    var projection: String
  }

  private let built = Mutex<Built>(Built())

  /// The digest key of the feature at `position` over `fields` on a map in
  /// `projection` (`FeatureKeyDigest.key`), made once per index: a batch's
  /// frames over one source hash each feature they name once, not once a
  /// frame.
  func digestKey(_ position: Int, fields: [String], projection: MapProjection) -> String {
    let set = DigestSet(fields: fields, projection: projection.identifier)
    if let hit = built.withLock({ $0.digests[set]?[Int32(position)] }) { return hit }
    let made = FeatureKeyDigest.key(collection.features[position], projection: projection, fields: fields)
    built.withLock { $0.digests[set, default: [:]][Int32(position)] = made }
    return made
  }

  init(_ collection: FeatureCollection, transient: Bool = false) {
    self.collection = collection
    self.isTransient = transient
  }

  // MARK: - Spatial queries

  /// Positions in `collection.features`, ascending (drawing order), of the
  /// features whose geometry bounds grown by `reach` (map units) meet
  /// `frame`, exactly as `bounds.insetBy(-reach).intersects(frame)` decides;
  /// features without geometry are never returned. A transient index, or a
  /// NaN reach (which no bound can be drawn from), returns every feature.
  ///
  /// A frame that holds the bounds of every feature (a small city's data
  /// in a 1:25,000 frame, the world in a world map) meets every feature
  /// grown by any reach: it gets them all without a tree being built or
  /// searched (the tree's sort was a third of resolving helsinki-25000's
  /// layers).
  func features(near frame: Rect, reach: Double) -> [Int32] {
    let n = collection.features.count
    if isTransient || reach.isNaN { return (0..<Int32(n)).map { $0 } }
    let located = built.withLock { b in
      if let l = b.located { return l }
      var l = Located(features: [], extent: .empty)
      l.features.reserveCapacity(n)
      for (i, f) in collection.features.enumerated() where !f.geometry.isEmpty {
        let b = f.geometry.bounds
        l.features.append(Int32(i))
        l.extent.include(Point(b.minX, b.minY))
        l.extent.include(Point(b.maxX, b.maxY))
      }
      b.located = l
      return l
    }
    let e = located.extent
    if reach >= 0, e.isEmpty || (frame.minX <= e.minX && frame.minY <= e.minY && frame.maxX >= e.maxX && frame.maxY >= e.maxY) {
      return located.features
    }
    let tree = built.withLock { b in
      if let t = b.featureTree { return t }
      var entries: [(box: Rect, item: Int32)] = []
      entries.reserveCapacity(located.features.count)
      for i in located.features { entries.append((collection.features[Int(i)].geometry.bounds, i)) }
      let t = PackedRTree(entries)
      b.featureTree = t
      return t
    }
    var out: [Int32] = []
    tree.query(frame, reach: reach, into: &out)
    out.sort()
    return out
  }

  /// True once `features(near:reach:)` has built its tree, for the tests.
  var featureTreeBuilt: Bool { built.withLock { $0.featureTree != nil } }

  /// The annotation anchors that lie in `frame` (boundaries included), in
  /// feature then part order. A transient index, or a frame with a NaN side,
  /// returns every anchor.
  func annotationPoints(near frame: Rect) -> [AnchorRef] {
    if isTransient || frame.minX.isNaN || frame.minY.isNaN || frame.maxX.isNaN || frame.maxY.isNaN {
      var all: [AnchorRef] = []
      for (i, f) in collection.features.enumerated() {
        for part in f.geometry.points.indices { all.append(AnchorRef(feature: i, part: part)) }
      }
      return all
    }
    let index = built.withLock { b in
      if let p = b.points { return p }
      var entries: [(box: Rect, item: Int32)] = []
      var feature: [Int32] = []
      var part: [Int32] = []
      for (i, f) in collection.features.enumerated() {
        for (k, p) in f.geometry.points.enumerated() {
          entries.append((Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y), Int32(feature.count)))
          feature.append(Int32(i))
          part.append(Int32(k))
        }
      }
      let p = PointIndex(tree: PackedRTree(entries), feature: feature, part: part)
      b.points = p
      return p
    }
    var hits: [Int32] = []
    index.tree.query(frame, reach: 0, into: &hits)
    hits.sort()
    var out: [AnchorRef] = []
    out.reserveCapacity(hits.count)
    for h in hits { out.append(AnchorRef(feature: Int(index.feature[Int(h)]), part: Int(index.part[Int(h)]))) }
    return out
  }

  // MARK: - Aggregates

  /// Every property name of the source, features without geometry included.
  func propertyNames() -> PropertyNames {
    built.withLock { b in
      if let names = b.names { return names }
      var names = PropertyNames()
      // A fixed schema's every field is every feature's (null included),
      // read into properties or not.
      if let schema = collection.schema {
        for name in schema where names.set.insert(name).inserted { names.ordered.append(name) }
        b.names = names
        return names
      }
      // Features of one schema list the same keys: a feature whose keys are
      // the previous one's adds nothing, and comparing two keys is cheaper
      // than hashing one (most keys are short strings, compared as 16 bytes).
      var previous: [(key: String, value: JSONValue)] = []
      for list in [collection.features, collection.withoutGeometry] {
        for f in list {
          let pairs = f.properties._pairs
          if pairs.count == previous.count && pairs.indices.allSatisfy({ pairs[$0].key == previous[$0].key }) { continue }
          for pair in pairs where names.set.insert(pair.key).inserted { names.ordered.append(pair.key) }
          previous = pairs
        }
      }
      b.names = names
      return names
    }
  }

  /// How many features (with geometry) have a `field` value that is a floor
  /// other than `floor`. Features without the field are on every floor.
  func otherFloorCount(field: String, floor: FloorValue) -> Int {
    built.withLock { b in
      let key = FloorKey(field: field, floor: floor)
      if let n = b.otherFloor[key] { return n }
      var n = 0
      for f in collection.features where Self.isOnOtherFloor(f, field: field, floor: floor) { n += 1 }
      b.otherFloor[key] = n
      return n
    }
  }

  /// The largest text of `field` over the features with geometry, as
  /// `MapResolver.text` reads it: the longest line of any and the most lines
  /// of any (at least an empty line, so it bounds a missing text too).
  func textExtent(_ template: TextTemplate) -> TextExtent {
    built.withLock { b in
      if let e = b.texts[template] { return e }
      var e = TextExtent.empty
      for f in collection.features {
        if let t = template.text(f.properties) { e.include(TextExtent(t)) }
      }
      b.texts[template] = e
      return e
    }
  }

  /// The values a source's features hold for one property: strings,
  /// numbers and booleans, each once, compared as `Filter` compares them
  /// (`1` equals `1.0`); the strings also in the order first met, for hints.
  struct HeldValues: Sendable {
    var set: Set<HeldValue> = []
    var strings: [String] = []

    /// True when a feature holds `value` (null, a missing property's value,
    /// is held by every source).
    func holds(_ value: JSONValue) -> Bool {
      guard let v = HeldValue(value) else { return true }
      return set.contains(v)
    }
  }

  /// A string, number or boolean property value, hashable.
  enum HeldValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)

    init?(_ value: JSONValue) {
      switch value {
      case .string(let s): self = .string(s)
      // 0 and -0 are equal to `Filter`, and hashed alike here.
      case .number(let n): self = .number(n == 0 ? 0 : n)
      case .bool(let b): self = .bool(b)
      default: return nil
      }
    }
  }

  /// The values of `property` over every feature of the source, features
  /// without geometry included.
  func heldValues(_ property: String) -> HeldValues {
    built.withLock { b in
      if let v = b.values[property] { return v }
      var held = HeldValues()
      for list in [collection.features, collection.withoutGeometry] {
        for f in list {
          guard let value = f.properties[property].flatMap(HeldValue.init), held.set.insert(value).inserted else { continue }
          if case .string(let s) = value { held.strings.append(s) }
        }
      }
      b.values[property] = held
      return held
    }
  }

  /// The feature ids under `idField` (nil: the GeoJSON `id`).
  func featureIDs(field: String?) -> FeatureIDIndex {
    built.withLock { b in
      if let ids = b.ids[field] { return ids }
      let ids = FeatureIDIndex(collection, idField: field)
      b.ids[field] = ids
      return ids
    }
  }

  /// True when `f` has a `field` value naming a floor other than `floor`.
  static func isOnOtherFloor(_ f: Feature, field: String, floor: FloorValue) -> Bool {
    guard let value = f.properties[field].flatMap(FloorValue.init(json:)) else { return false }
    return value != floor
  }

  // MARK: - Memory

  /// Bytes this index will hold, roughly, once its trees are built: the
  /// features (their properties only when `countingProperties`: a projected
  /// copy shares them with the source in degrees) and about 48 bytes per
  /// feature and per point for the trees.
  func approximateBytes(countingProperties: Bool) -> Int {
    var n = 256
    for list in [collection.features, collection.withoutGeometry] {
      for f in list {
        let g = f.geometry
        n += MemoryLayout<Feature>.stride + 48
        n += g.points.count * (MemoryLayout<Point>.stride + 48)
        for l in g.lines { n += 32 + l.count * MemoryLayout<Point>.stride }
        for p in g.polygons {
          n += 32
          for r in p { n += 32 + r.count * MemoryLayout<Point>.stride }
        }
        guard countingProperties else { continue }
        n += 32 + f.properties.count * MemoryLayout<(key: String, value: JSONValue)>.stride
        for pair in f.properties.pairs {
          // Strings of up to 15 UTF-8 bytes are stored inline.
          if pair.key.utf8.count > 15 { n += 32 + pair.key.utf8.count }
          if case .string(let s) = pair.value, s.utf8.count > 15 { n += 32 + s.utf8.count }
        }
      }
    }
    return n
  }
}
