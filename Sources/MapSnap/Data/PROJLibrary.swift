#if canImport(Glibc)
  import Glibc
#endif

/// The few PROJ entry points mapsnap uses, found with `dlsym` in libproj,
/// which is opened on first use (it pulls in some 45 shared libraries, so a
/// map that needs no PROJ never pays for it).
struct PROJ: @unchecked Sendable {
  typealias Context = OpaquePointer
  typealias Object = OpaquePointer

  let contextCreate: @convention(c) () -> Context?
  let contextDestroy: @convention(c) (Context?) -> Void
  let create: @convention(c) (Context?, UnsafePointer<CChar>?) -> Object?
  let createCRSToCRS: @convention(c) (Context?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, OpaquePointer?) -> Object?
  let normalizeForVisualization: @convention(c) (Context?, Object?) -> Object?
  let destroy: @convention(c) (Object?) -> Object?
  let logLevel: @convention(c) (Context?, Int32) -> Int32
  let transGeneric:
    @convention(c) (
      Object?, Int32, UnsafeMutablePointer<Double>?, Int, Int, UnsafeMutablePointer<Double>?, Int, Int,
      UnsafeMutablePointer<Double>?, Int, Int, UnsafeMutablePointer<Double>?, Int, Int
    ) -> Int
  let getType: @convention(c) (Object?) -> Int32
  let getName: @convention(c) (Object?) -> UnsafePointer<CChar>?
  let getIDAuthority: @convention(c) (Object?, Int32) -> UnsafePointer<CChar>?
  let getIDCode: @convention(c) (Object?, Int32) -> UnsafePointer<CChar>?
  let getSourceCRS: @convention(c) (Context?, Object?) -> Object?
  let coordinateSystem: @convention(c) (Context?, Object?) -> Object?
  let axisCount: @convention(c) (Context?, Object?) -> Int32
  let axisInfo:
    @convention(c) (
      Context?, Object?, Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?,
      UnsafeMutablePointer<UnsafePointer<CChar>?>?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?,
      UnsafeMutablePointer<UnsafePointer<CChar>?>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?
    ) -> Int32

  /// `proj_context_set_search_paths` (optional: mapsnap works without it).
  let setSearchPaths: (@convention(c) (Context?, Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> Void)?

  /// `PJ_TYPE` values of proj.h (PROJ 6 and later) that mapsnap tells apart.
  enum ObjectType: Int32 {
    case geographic2D = 12
    case geographic3D = 13
    case projected = 15
    case compound = 16
    case bound = 19
  }

  /// A context with PROJ's own logging off (mapsnap reports) and the
  /// installed database, if any; nil when PROJ cannot make one.
  func newContext() -> Context? {
    guard let ctx = contextCreate() else { return nil }
    _ = logLevel(ctx, 0)
    if let folder = Self.installedDataFolder, let set = setSearchPaths {
      folder.withCString { path in
        var paths: [UnsafePointer<CChar>?] = [path]
        set(ctx, 1, &paths)
      }
    }
    return ctx
  }

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
    func symbol<T>(_ name: String, as: T.Type = T.self) -> T? {
      dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
    }
    guard let contextCreate: @convention(c) () -> Context? = symbol("proj_context_create"),
      let contextDestroy: @convention(c) (Context?) -> Void = symbol("proj_context_destroy"),
      let create: @convention(c) (Context?, UnsafePointer<CChar>?) -> Object? = symbol("proj_create"),
      let createCRSToCRS: @convention(c) (Context?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, OpaquePointer?) -> Object? = symbol(
        "proj_create_crs_to_crs"),
      let normalize: @convention(c) (Context?, Object?) -> Object? = symbol("proj_normalize_for_visualization"),
      let destroy: @convention(c) (Object?) -> Object? = symbol("proj_destroy"),
      let logLevel: @convention(c) (Context?, Int32) -> Int32 = symbol("proj_log_level"),
      let transGeneric:
        @convention(c) (
          Object?, Int32, UnsafeMutablePointer<Double>?, Int, Int, UnsafeMutablePointer<Double>?, Int, Int,
          UnsafeMutablePointer<Double>?, Int, Int, UnsafeMutablePointer<Double>?, Int, Int
        ) -> Int = symbol("proj_trans_generic"),
      let getType: @convention(c) (Object?) -> Int32 = symbol("proj_get_type"),
      let getName: @convention(c) (Object?) -> UnsafePointer<CChar>? = symbol("proj_get_name"),
      let getIDAuthority: @convention(c) (Object?, Int32) -> UnsafePointer<CChar>? = symbol("proj_get_id_auth_name"),
      let getIDCode: @convention(c) (Object?, Int32) -> UnsafePointer<CChar>? = symbol("proj_get_id_code"),
      let getSourceCRS: @convention(c) (Context?, Object?) -> Object? = symbol("proj_get_source_crs"),
      let coordinateSystem: @convention(c) (Context?, Object?) -> Object? = symbol("proj_crs_get_coordinate_system"),
      let axisCount: @convention(c) (Context?, Object?) -> Int32 = symbol("proj_cs_get_axis_count"),
      let axisInfo:
        @convention(c) (
          Context?, Object?, Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?,
          UnsafeMutablePointer<UnsafePointer<CChar>?>?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?,
          UnsafeMutablePointer<UnsafePointer<CChar>?>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?
        ) -> Int32 = symbol("proj_cs_get_axis_info")
    else { return .failure(.projUnavailable(reason: "libproj lacks an entry point mapsnap needs")) }
    return .success(
      PROJ(
        contextCreate: contextCreate, contextDestroy: contextDestroy, create: create, createCRSToCRS: createCRSToCRS,
        normalizeForVisualization: normalize, destroy: destroy, logLevel: logLevel, transGeneric: transGeneric, getType: getType,
        getName: getName, getIDAuthority: getIDAuthority, getIDCode: getIDCode, getSourceCRS: getSourceCRS,
        coordinateSystem: coordinateSystem, axisCount: axisCount, axisInfo: axisInfo,
        setSearchPaths: symbol("proj_context_set_search_paths")))
  }()
}
