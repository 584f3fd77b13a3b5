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

  /// The transformation from `crs` to WGS84 (longitude, latitude order),
  /// made on first use.
  static func to84(from crs: String) -> Result<CRSTransform, CRSError> {
    made.withLock { made in
      if let hit = made[crs] { return hit }
      let r = make(crs)
      made[crs] = r
      return r
    }
  }

  private static func make(_ crs: String) -> Result<CRSTransform, CRSError> {
    let api: PROJ
    switch PROJ.shared {
    case .failure(let e): return .failure(e)
    case .success(let a): api = a
    }
    guard let ctx = api.contextCreate() else { return .failure(.projUnavailable(reason: "proj_context_create failed")) }
    // PROJ's own messages would go to standard error; mapsnap reports.
    _ = api.logLevel(ctx, 0)
    if let folder = PROJ.installedDataFolder, let set = api.setSearchPaths {
      folder.withCString { path in
        var paths: [UnsafePointer<CChar>?] = [path]
        set(ctx, 1, &paths)
      }
    }
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

  /// `proj_trans_generic` over `points` in place, PJ_FWD (1) or PJ_INV (-1),
  /// under the lock (a PROJ context is not thread-safe).
  private func run(_ points: inout [Point], direction: Int32) {
    guard !points.isEmpty else { return }
    let count = points.count
    lock.withLock { _ in
      points.withUnsafeMutableBytes { raw in
        let base = raw.baseAddress!.assumingMemoryBound(to: Double.self)
        let stride = MemoryLayout<Point>.stride
        _ = api.transGeneric(transform, direction, base, stride, count, base + 1, stride, count, nil, 0, 0, nil, 0, 0)
      }
    }
  }
}

/// The few PROJ entry points mapsnap uses, found with `dlsym`.
private struct PROJ: @unchecked Sendable {
  let contextCreate: @convention(c) () -> OpaquePointer?
  let contextDestroy: @convention(c) (OpaquePointer?) -> Void
  let createCRSToCRS: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, OpaquePointer?) -> OpaquePointer?
  let normalizeForVisualization: @convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?
  let destroy: @convention(c) (OpaquePointer?) -> OpaquePointer?
  let logLevel: @convention(c) (OpaquePointer?, Int32) -> Int32
  let transGeneric:
    @convention(c) (
      OpaquePointer?, Int32, UnsafeMutablePointer<Double>?, Int, Int, UnsafeMutablePointer<Double>?, Int, Int,
      UnsafeMutablePointer<Double>?, Int, Int, UnsafeMutablePointer<Double>?, Int, Int
    ) -> Int

  /// `proj_context_set_search_paths` (optional: mapsnap works without it).
  let setSearchPaths: (@convention(c) (OpaquePointer?, Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> Void)?

  /// PROJ's database beside an installed or unpacked mapsnap
  /// (`../share/proj/proj.db` from the executable's folder, the layout of
  /// `make dist`), used unless `PROJ_DATA` or `PROJ_LIB` names one; nil when
  /// there is none, and PROJ then finds its own (Debian's proj-data).
  static let installedDataFolder: String? = {
    for name in ["PROJ_DATA", "PROJ_LIB"] {
      if let v = getenv(name), v.pointee != 0 { return nil }
    }
    guard let exe = FileIO.canonicalPath("/proc/self/exe") else { return nil }
    let folder = FileIO.directory(of: FileIO.directory(of: exe)) + "/share/proj"
    return access(folder + "/proj.db", R_OK) == 0 ? folder : nil
  }()

  /// The library names tried, newest ABI first: Debian 12's libproj25, then
  /// the development symlink.
  static let names = ["libproj.so.25", "libproj.so"]

  static let shared: Result<PROJ, CRSError> = {
    // PROJ starts SQLite to read proj.db: mapsnap's settings go first.
    GeoPackageReader.configureSQLite()
    var handle: UnsafeMutableRawPointer? = nil
    for n in names {
      handle = dlopen(n, RTLD_NOW | RTLD_LOCAL)
      if handle != nil { break }
    }
    guard let handle else {
      return .failure(.projUnavailable(reason: dlerror().map { String(cString: $0) } ?? "libproj not found"))
    }
    func symbol<T>(_ name: String, as: T.Type) -> T? {
      dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
    }
    guard
      let a = symbol("proj_context_create", as: (@convention(c) () -> OpaquePointer?).self),
      let b = symbol("proj_context_destroy", as: (@convention(c) (OpaquePointer?) -> Void).self),
      let c = symbol(
        "proj_create_crs_to_crs",
        as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, OpaquePointer?) -> OpaquePointer?).self),
      let d = symbol("proj_normalize_for_visualization", as: (@convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?).self),
      let e = symbol("proj_destroy", as: (@convention(c) (OpaquePointer?) -> OpaquePointer?).self),
      let f = symbol("proj_log_level", as: (@convention(c) (OpaquePointer?, Int32) -> Int32).self),
      let h = symbol(
        "proj_trans_generic",
        as: (@convention(c) (
          OpaquePointer?, Int32, UnsafeMutablePointer<Double>?, Int, Int, UnsafeMutablePointer<Double>?, Int, Int,
          UnsafeMutablePointer<Double>?, Int, Int, UnsafeMutablePointer<Double>?, Int, Int
        ) -> Int).self)
    else { return .failure(.projUnavailable(reason: "libproj lacks an entry point mapsnap needs")) }
    return .success(
      PROJ(
        contextCreate: a, contextDestroy: b, createCRSToCRS: c, normalizeForVisualization: d, destroy: e, logLevel: f,
        transGeneric: h,
        setSearchPaths: symbol(
          "proj_context_set_search_paths",
          as: (@convention(c) (OpaquePointer?, Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> Void).self)))
  }()
}
