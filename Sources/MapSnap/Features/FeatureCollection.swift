import Dispatch
internal import _MapSnapRaster

/// The spatial reference a GeoJSON source's coordinates are read in.
///
/// Rule: the scene's `crs` when it gives one, else the file's legacy `crs`
/// member (as GDAL, QGIS and ArcGIS read it), else WGS84 degrees. When both
/// are given and differ, the scene's wins and the report says which
/// it overrode.
public struct ReferenceNote: Sendable, Equatable {
  /// Who named the reference.
  public enum Origin: String, Sendable {
    /// The source's `crs` in the scene.
    case scene
    /// The file's `crs` member.
    case file
  }
  /// AUTHORITY:CODE.
  public var crs: String
  /// Who named it: the scene wins over the file.
  public var from: Origin
  /// The file's `crs` member, when the scene's `crs` overrode a different one.
  public var overridden: String?

  /// A reference `crs` named by `from`, overriding the file's `overridden`.
  public init(crs: String, from: Origin, overridden: String? = nil) {
    self.crs = crs
    self.from = from
    self.overridden = overridden
  }
}

/// The valid features of a source, in file order, and what was skipped.
public struct FeatureCollection: Sendable, Equatable {
  /// The features with a geometry to draw, in source order.
  public var features: [Feature] = []
  /// Features skipped because their geometry was invalid.
  public var invalidCount: Int = 0
  /// The first few reasons, as `features[12]: a ring needs at least 4 positions`.
  public var invalidSamples: [String] = []
  /// The same samples quoting none of the file's content (where and what
  /// was expected): what messages under `--root` show.
  public var invalidSamplesWithoutContent: [String] = []
  /// Features with a null geometry (valid GeoJSON, nothing to draw).
  public var unlocatedCount: Int = 0
  /// The features with a null or invalid geometry whose id and properties
  /// could be read (their geometry empty): kept so that names and ids are
  /// checked against every feature of the source.
  public var withoutGeometry: [Feature] = []
  /// Features skipped because their coordinates could not be re-projected
  /// from the source's `crs`.
  public var unprojectableCount: Int = 0
  /// The spatial reference the file's legacy `crs` member names, as
  /// AUTHORITY:CODE (`GeoJSONDecoder.declaredReference`), or nil.
  public var declaredCRS: String? = nil
  /// The spatial reference the features were read in and re-projected
  /// from, and who named it; nil when nothing named one.
  public var reference: ReferenceNote? = nil
  /// Features with a coordinate that cannot be degrees (|x| > 180 or
  /// |y| > 90) in a source that names no spatial reference; 0 otherwise.
  public var notDegreesCount: Int = 0
  /// SHA-256 of the file bytes these features were decoded from (kept
  /// through projection); empty for inline data, which the scene holds.
  /// Part of a frame's `InputDigest`: the bytes actually drawn, even when the
  /// file changes while a batch runs.
  public internal(set) var contentDigest: String {
    get { content.value }
    set { content = ContentDigest(newValue) }
  }
  /// The same digest as kept: an `ogr` read's is hashed when first asked
  /// (`ContentDigest`).
  var content = ContentDigest.none
  /// The names of the source's fields when it has a fixed schema (an `ogr`
  /// layer's columns, in their order), whether or not the read made
  /// properties of them all (a frame's read takes only the fields its layers
  /// use: `SourceLoader.ogr`); nil when the names are those its
  /// features have (GeoJSON).
  var schema: [String]? = nil
  /// True when the features' `id` is an `ogr` layer's FID: the driver's
  /// numbering of its rows, which names a feature for view annotations and
  /// `--fit` but keys no report entry (`FeatureKey`).
  var idsAreFIDs = false

  /// A collection with no feature and nothing skipped.
  public init() {}

  /// The features re-projected from `transform`'s reference to WGS84
  /// degrees; those with a coordinate PROJ cannot transform are skipped and
  /// counted in `unprojectableCount`.
  func toWGS84(_ transform: CRSTransform) -> FeatureCollection {
    var c = self
    c.features = []
    c.features.reserveCapacity(features.count)
    for var f in features {
      var g = Geometry()
      var ok = true
      var points = f.geometry.points
      ok = transform.toWGS84(&points) && ok
      g.points = points
      for var line in f.geometry.lines where ok {
        ok = transform.toWGS84(&line) && ok
        g.lines.append(line)
      }
      for polygon in f.geometry.polygons where ok {
        var rings: [[Point]] = []
        for var ring in polygon where ok {
          ok = transform.toWGS84(&ring) && ok
          rings.append(ring)
        }
        g.polygons.append(rings)
      }
      guard ok else {
        // Kept for its id and properties, as features without geometry are.
        c.unprojectableCount += 1
        f.geometry = Geometry()
        c.withoutGeometry.append(f)
        continue
      }
      for p in g.points { g.bounds.include(p) }
      for l in g.lines { for p in l { g.bounds.include(p) } }
      for poly in g.polygons { for r in poly { for p in r { g.bounds.include(p) } } }
      f.geometry = g
      c.features.append(f)
    }
    return c
  }

  /// The features in `projection`'s map units; a feature PROJ cannot
  /// project into it is kept without geometry and counted in
  /// `unprojectableCount`.
  public func projected(to projection: MapProjection) -> FeatureCollection {
    guard !projection.isWGS84Degrees else { return self }
    var c = self
    // Features with no position at all stay as they are, not unprojectable.
    let wereEmpty = projection.usesPROJ ? Set(features.indices.filter { features[$0].geometry.isEmpty }) : []
    let workers = min(activeProcessorCount(), features.count)
    let weights = workers > 1 ? features.map(\.geometry.pointCount) : []
    let points = weights.reduce(0, +)
    c.features.withUnsafeMutableBufferPointer { out in
      let job = ProjectionJob(features: out, projection: projection)
      guard points >= Self.parallelProjectionPoints else { return job.run(0..<out.count) }
      // Runs of features of about equal points, one per worker, each
      // projected into its own elements: a run ends before the feature
      // whose middle lies past the run's share.
      var ranges: [Range<Int>] = []
      var start = 0
      var sum = 0
      for i in out.indices {
        sum += weights[i]
        let next = i + 1 < weights.count ? weights[i + 1] : 0
        if i == out.count - 1 || (ranges.count < workers - 1 && (2 * sum + next) * workers >= 2 * points * (ranges.count + 1)) {
          ranges.append(start..<(i + 1))
          start = i + 1
        }
      }
      let cut = ranges
      DispatchQueue.concurrentPerform(iterations: cut.count) { k in job.run(cut[k]) }
    }
    if projection.usesPROJ {
      let lost = c.features.indices.filter { c.features[$0].geometry.isEmpty && !wereEmpty.contains($0) }
      if !lost.isEmpty {
        let gone = Set(lost)
        c.withoutGeometry += lost.map { c.features[$0] }
        c.features = c.features.indices.filter { !gone.contains($0) }.map { c.features[$0] }
        c.unprojectableCount += lost.count
      }
    }
    return c
  }

  /// Positions from which `projected(to:)` spreads a collection over the
  /// processors: some 50 ns each (a tangent and a logarithm), so about
  /// 3 ms of work, far above the cost of handing it out.
  static let parallelProjectionPoints = 1 << 16

  /// Projects features in place; each range is given to one thread.
  private struct ProjectionJob: @unchecked Sendable {
    let features: UnsafeMutableBufferPointer<Feature>
    let projection: MapProjection

    func run(_ range: Range<Int>) {
      for i in range { features[i].geometry = features[i].geometry.projected(to: projection) }
    }
  }
}
