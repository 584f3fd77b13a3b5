internal import _MapSnapRaster

/// A GeoPackage geometry blob (OGC 12-128r18, 2.1.3): `GP`, a version, a
/// flags byte (bit 0 byte order of the header, bits 1–3 the envelope's
/// kind: none, xy, xyz, xym, xyzm; bit 4 empty; bit 5 an extension type,
/// not read), the srs_id, the envelope, then the geometry as WKB.
enum GeoPackageGeometry {
  /// The blob's geometry (nil for GeoPackage's empty flag) and bounds (the
  /// header's envelope, or the geometry's), returned as made: a reader
  /// that took them from a struct copied the geometry (a retain and a
  /// release per array) for every row.
  static func parse(_ blob: UnsafeRawBufferPointer) throws(WKBReader.Issue) -> (Geometry?, Rect?) {
    let h = try header(blob)
    var bounds = h.envelope
    if h.empty { return (nil, bounds) }
    let g = try WKBReader.geometry(UnsafeRawBufferPointer(rebasing: blob[h.start...]))
    if bounds == nil && !g.isEmpty { bounds = g.bounds }
    return (g, bounds)
  }

  /// The header's envelope, read without the geometry: nil when the blob
  /// has none (GeoPackage writers leave it out of points) or is not a
  /// GeoPackage geometry (`parse` says why).
  static func envelope(_ blob: UnsafeRawBufferPointer) -> Rect? {
    do throws(WKBReader.Issue) { return try header(blob).envelope } catch { return nil }
  }

  /// What the header says: the envelope (xy; nil when absent), whether the
  /// geometry is empty, and where its WKB starts.
  private static func header(_ blob: UnsafeRawBufferPointer) throws(WKBReader.Issue) -> (envelope: Rect?, empty: Bool, start: Int) {
    guard blob.count >= 8, blob[0] == 0x47, blob[1] == 0x50 else { throw WKBReader.Issue(message: "not a GeoPackage geometry (no GP header)") }
    let flags = blob[3]
    guard flags & 0x20 == 0 else { throw WKBReader.Issue(message: "an extended GeoPackage geometry type") }
    let little = flags & 1 == 1
    let envelopeDoubles: Int
    switch (flags >> 1) & 7 {
    case 0: envelopeDoubles = 0
    case 1: envelopeDoubles = 4
    case 2, 3: envelopeDoubles = 6
    case 4: envelopeDoubles = 8
    default: throw WKBReader.Issue(message: "an unknown GeoPackage envelope kind")
    }
    let start = 8 + 8 * envelopeDoubles
    guard blob.count >= start else { throw WKBReader.Issue(message: "a GeoPackage geometry shorter than its header") }
    var envelope: Rect? = nil
    if envelopeDoubles > 0 {
      func d(_ k: Int) -> Double {
        let v = blob.loadUnaligned(fromByteOffset: 8 + 8 * k, as: UInt64.self)
        return Double(bitPattern: little ? UInt64(littleEndian: v) : UInt64(bigEndian: v))
      }
      envelope = Rect(minX: d(0), minY: d(2), maxX: d(1), maxY: d(3))
    }
    return (envelope, flags & 0x10 != 0, start)
  }
}
