extension SourceLoader {
  /// `raw`, a GeoJSON source as written, in WGS84 degrees: re-projected by
  /// PROJ from the scene's `crs` when given, else from the reference the
  /// file's `crs` member names (`ReferenceNote`'s rule; a WGS84 one is taken
  /// as it is). Features read as degrees without PROJ (no reference, or a
  /// WGS84 one from the file) that have a coordinate that cannot be degrees
  /// (|x| > 180 or |y| > 90) are counted in `notDegreesCount`, for the
  /// layer's warning.
  static func inDegrees(_ raw: FeatureCollection, sceneCRS: String?) -> Result<FeatureCollection, SourceError> {
    let declared = raw.declaredCRS
    var c = raw
    if let crs = sceneCRS ?? declared {
      let overridden = sceneCRS != nil && declared != nil && declared!.uppercased() != crs.uppercased() ? declared : nil
      c.reference = ReferenceNote(crs: crs, from: sceneCRS != nil ? .scene : .file, overridden: overridden)
      // The scene's `crs` always goes through PROJ; a file's WGS84 is read as it is.
      if sceneCRS != nil || !isWGS84(crs) {
        switch CRSTransform.to84(from: crs) {
        case .failure(let e): return .failure(.crs(e))
        case .success(let t): return .success(c.toWGS84(t))
        }
      }
    }
    c.notDegreesCount = c.features.count { f in
      let b = f.geometry.bounds
      guard !f.geometry.isEmpty else { return false }
      return !(abs(b.minX) <= 180 && abs(b.maxX) <= 180 && abs(b.minY) <= 90 && abs(b.maxY) <= 90)
    }
    return .success(c)
  }
}
