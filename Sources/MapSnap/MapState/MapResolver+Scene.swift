#if canImport(Glibc)
  import Glibc
#endif

/// What `MapResolver` works out from the scene alone, before a frame:
/// fonts, the map's projection, and the sources' spatial references.

extension MapResolver {
  /// The fonts a frame draws with, loaded and checked when the map is
  /// resolved, before any layer: `given`, or the bundled ones loaded now,
  /// when the scene has text of any kind (a label style, an annotation layer,
  /// view annotations, or a style naming a font), whatever the scale; nil
  /// when it has none (even when `given`). Every font the scene names is checked.
  /// - Throws: `SceneError` when a named font is not available or no font
  ///   can be loaded.
  static func fonts(for scene: Scene, given: FontLibrary?) throws(SceneError) -> FontLibrary? {
    // Without text no fonts take part, even when given: the frame (and its
    // input digest) is the same whether a caller passes a library or not.
    guard scene.hasText else { return nil }
    let library: FontLibrary
    if let given {
      library = given
    } else {
      do {
        library = try FontLibrary(directories: [FontLibrary.bundledDirectory])
      } catch {
        throw SceneError(file: scene.file, kind: .fontsUnavailable(error))
      }
    }
    try library.check(scene)
    return library
  }
}

extension MapResolver {
  /// The map's spatial reference (scene format 1.1): `map.spatialReference`
  /// when the scene gives it; else, as in ArcGIS, the first layer's when it
  /// is a `tiles` layer (its tile matrix set's reference: the layer's
  /// `tileMatrixSet`, else its source's; an MBTiles file is Web Mercator; a
  /// source or set that cannot be opened counts as Web Mercator and is
  /// reported on its layer); else Web Mercator (3857).
  ///
  /// Zoom levels follow WebMercatorQuad (3857) or WorldCRS84Quad (4326); on
  /// another reference, the tile matrix set of a first `tiles` layer in it
  /// (zoom z is the scale at which a 96-DPI pixel spans level z's cell
  /// size, levels halving from the first), else WorldCRS84Quad's on a
  /// geographic reference; a projected reference without one has none.
  /// - Throws: `SceneError` at `map.spatialReference` when PROJ does not
  ///   know the reference (or is not installed).
  static func projection(for scene: Scene, tiles: TileCache) throws(SceneError) -> MapProjection {
    var basemap: TileMatrixSet? = nil
    if let first = scene.layers.first, case .tiles(let t) = first.content, case .success(let set) = tiles.tileMatrixSet(of: t) {
      basemap = set
    }
    guard let name = scene.map.spatialReference ?? basemap?.crs else { return .webMercator }
    let projection: MapProjection
    switch MapProjection.named(name) {
    case .success(let p): projection = p
    case .failure(let e):
      if scene.map.spatialReference == nil { return .webMercator }
      throw SceneError(
        file: scene.file, path: "map.spatialReference", kind: .invalidValue,
        expected: ViewParameter.spatialReference.expected(.json), found: "\(Echo.quoted(name)) (\(e))")
    }
    // The basemap's levels give the zoom levels when it is in this reference.
    guard projection != .webMercator, projection != .geographic, let set = basemap, let level = set.matrices.first,
      (try? MapProjection.named(set.crs).get()) == projection
    else { return projection }
    let level0Scale = level.cellSize * pow(2, Double(level.level)) * 96 * projection.inchesPerUnit
    return level0Scale.isFinite && level0Scale > 0 ? projection.zoomed(level0Scale: level0Scale) : projection
  }
}

extension MapResolver {
  /// Checks, before anything is drawn, that PROJ knows every source `crs` of
  /// the scene: an unknown reference is an input error naming it (PROJ
  /// missing on the machine is left to the layer, as a source that cannot be
  /// read).
  /// - Throws: `SceneError` at `layers[i].source.crs`.
  static func checkSpatialReferences(of scene: Scene) throws(SceneError) {
    for (i, layer) in scene.layers.enumerated() {
      let source: Source
      switch layer.content {
      case .features(let s, _): source = s
      case .annotation(let a): source = a.source
      default: continue
      }
      let given: String
      switch source {
      case .reprojected(_, let crs): given = crs
      case .ogr(let o) where o.crs != nil: given = o.crs!
      default: continue
      }
      guard !SourceLoader.isWGS84(given), case .failure(.unknown(_, let reason)) = CRSTransform.to84(from: given) else { continue }
      let crs = given
      throw SceneError(
        file: scene.file, path: "layers[\(i)].source.crs", kind: .invalidValue,
        expected: "a spatial reference that PROJ knows, such as \"EPSG:3067\"", found: "\(Echo.quoted(crs)) (\(reason))")
    }
  }
}
