internal import _MapSnapRaster

/// What resolving a frame loaded beside its decisions: the pixels of marker
/// icons and tile mosaics, the digests of every input read, timings and
/// counters. `MapResolver` writes it with the `MapState` it returns, and
/// nothing changes it after. The display list reads the pixels, the input
/// digest the digests, benchmarks the timings and tests the counters; the
/// report and `mapsnap explain` never read it (they print decisions only).
package struct ResolvedInputs: Sendable {
  /// Marker icons that loaded, by resolved path; a failed one is a layer
  /// problem.
  let icons: [String: RasterImage]
  /// The SHA-256 of each marker icon file looked up, by path (`missing` or
  /// the error when it could not be decoded): part of the `InputDigest`.
  package let iconDigests: [String: String]
  /// Per layer, in the order of `MapState.layers`.
  package let layers: [LayerInputs]

  /// The icon a marker draws, when it names one that loaded.
  func icon(of m: MarkerStyle) -> RasterImage? {
    m.icon.flatMap { icons[$0] }
  }
}

/// What resolving one layer loaded beside its `LayerState`.
package struct LayerInputs: Sendable {
  /// What the layer's source was, for the frame's `InputDigest`, as kept
  /// (`ContentDigest`): the SHA-256 of the file bytes decoded, or the load
  /// error; nil for layers without a file source. An `ogr` read's is hashed
  /// when first asked, or by `FramePlan.make` while the text is placed.
  var sourceContent: ContentDigest?
  /// For tiles layers: the mosaic, its digest and timings.
  package var tiles: TileInputs?
  /// Features (annotation features, for annotation layers) that resolution
  /// looked at one by one in this frame: those the source's index returned
  /// near the frame. For tests: it must not grow with the source.
  package var examinedFeatures = 0

  /// The digest of the layer's source (`sourceContent`), hashed now if it
  /// is not yet.
  package var sourceDigest: String? { sourceContent?.value }
}

/// What a tiles layer read for one frame beside its `TileLayerState`.
package struct TileInputs: Sendable {
  /// The tiles stitched into one image (seamless resampling across tile
  /// edges), and the map-unit rectangle it covers; nil when nothing is
  /// drawn (`TileLayerState.hasImage`).
  var mosaic: RasterImage?
  var mosaicBounds = Rect.empty
  /// The digest of the tiles read for this frame: each tile's level,
  /// column, row and the SHA-256 of its bytes (or that it was absent),
  /// parents included; empty when no tile was read. Part of the frame's
  /// `InputDigest`.
  package var inputDigest = ""
  /// Wall time, in seconds, spent reading and decoding tiles (nearly
  /// nothing when the cache has them) and stitching the mosaic: for
  /// benchmarks, not written to the report.
  package var readSeconds = 0.0
  package var stitchSeconds = 0.0
}
