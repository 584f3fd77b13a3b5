import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Why a source's `crs` cannot be used.
public enum CRSError: Error, Sendable, Equatable, CustomStringConvertible {
  /// PROJ does not know the reference (its message).
  case unknown(crs: String, reason: String)
  /// PROJ (libproj) could not be loaded on this machine.
  case projUnavailable(reason: String)

  public var description: String {
    switch self {
    case .unknown(let crs, let reason): return "\(crs): not a spatial reference PROJ knows (\(reason))"
    case .projUnavailable(let reason):
      return "PROJ is not available (\(reason)); install Debian's libproj25 and proj-data (make setup does)"
    }
  }
}

/// Re-projects coordinates from a source's spatial reference (`"crs":
/// "EPSG:3067"`, scene format 1.1) to WGS84 longitude and latitude, through
/// PROJ. PROJ is loaded with `dlopen` on first use (it pulls in some 45
/// shared libraries), so a scene without `crs` never pays for it; its
/// database is found where Debian's `proj-data` puts it, with no environment
/// variable. One transformation per reference, made once per process and
/// reused; calls are serialised (a PROJ context is not thread-safe).
final class CRSTransform: @unchecked Sendable {
  private let api: PROJ
  private let context: OpaquePointer
  private let transform: OpaquePointer
  private let lock = Mutex<Void>(())
  let crs: String

  private init(api: PROJ, context: OpaquePointer, transform: OpaquePointer, crs: String) {
    self.api = api
    self.context = context
    self.transform = transform
    self.crs = crs
  }

  private static let made = Mutex<[String: Result<CRSTransform, CRSError>]>([:])

  /// The most references whose transformations (or failures) are kept: far
  /// more than a batch's scenes name, and a bound on what hostile input
  /// naming ever new references can make a process keep (past it, each is
  /// made again when asked for).
  static let keptReferences = 256

  /// The transformation from `crs` to WGS84 (longitude, latitude order),
  /// made on first use.
  static func to84(from crs: String) -> Result<CRSTransform, CRSError> {
    made.withLock { made in
      if let hit = made[crs] { return hit }
      let r = make(crs)
      if made.count < keptReferences { made[crs] = r }
      return r
    }
  }

  deinit {
    _ = api.destroy(transform)
    api.contextDestroy(context)
  }

  private static func make(_ crs: String) -> Result<CRSTransform, CRSError> {
    let api: PROJ
    switch PROJ.shared {
    case .failure(let e): return .failure(e)
    case .success(let a): api = a
    }
    guard let ctx = api.newContext() else { return .failure(.projUnavailable(reason: "proj_context_create failed")) }
    guard let raw = api.createCRSToCRS(ctx, crs, "EPSG:4326", nil) else {
      api.contextDestroy(ctx)
      return .failure(.unknown(crs: crs, reason: "PROJ's database has no such reference, or none that transforms to WGS84"))
    }
    // Longitude, latitude order whatever the authority's axis order.
    let normalized = api.normalizeForVisualization(ctx, raw)
    _ = api.destroy(raw)
    guard let normalized else {
      api.contextDestroy(ctx)
      return .failure(.unknown(crs: crs, reason: "no transformation to WGS84"))
    }
    return .success(CRSTransform(api: api, context: ctx, transform: normalized, crs: crs))
  }

  /// Re-projects WGS84 degrees `points` in place to this reference; false
  /// when any point could not be.
  func fromWGS84(_ points: inout [Point]) -> Bool {
    // PJ_INV: from the target (WGS84) back to the source reference.
    run(&points, direction: -1)
    return points.allSatisfy { $0.x.isFinite && $0.y.isFinite }
  }

  /// Re-projects `points` in place to WGS84 degrees; false when any point
  /// could not be (PROJ gives no finite result).
  func toWGS84(_ points: inout [Point]) -> Bool {
    run(&points, direction: 1)
    return points.allSatisfy { $0.x.isFinite && $0.y.isFinite && abs($0.y) <= 90 && abs($0.x) <= 540 }
  }

  /// Re-projects WGS84 degrees in place to this reference, non-finite
  /// where a point could not be.
  func fromWGS84(_ points: UnsafeMutableBufferPointer<Point>) {
    run(points, direction: -1)
  }

  /// Re-projects points of this reference in place to WGS84 degrees,
  /// non-finite where a point could not be.
  func toWGS84(_ points: UnsafeMutableBufferPointer<Point>) {
    run(points, direction: 1)
  }

  /// `proj_trans_generic` over `points` in place, PJ_FWD (1) or PJ_INV (-1).
  private func run(_ points: inout [Point], direction: Int32) {
    points.withUnsafeMutableBufferPointer { run($0, direction: direction) }
  }

  /// `proj_trans_generic` over `points` in place, under the lock (a PROJ
  /// context is not thread-safe).
  private func run(_ points: UnsafeMutableBufferPointer<Point>, direction: Int32) {
    guard let start = points.baseAddress, !points.isEmpty else { return }
    let count = points.count
    lock.withLock { _ in
      let base = UnsafeMutableRawPointer(start).assumingMemoryBound(to: Double.self)
      let stride = MemoryLayout<Point>.stride
      _ = api.transGeneric(transform, direction, base, stride, count, base + 1, stride, count, nil, 0, 0, nil, 0, 0)
    }
  }
}
