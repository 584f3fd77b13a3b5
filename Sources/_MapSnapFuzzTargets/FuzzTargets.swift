import MapSnap

/// Every fuzz target, by name.
public enum FuzzTargets {
  public static let all: [FuzzTarget] = [
    FuzzTarget(
      name: "scene", summary: "a scene file: SceneLoader.decode (JSON parser and SceneDecoder)",
      maxLength: 32_768, run: SceneFuzzTarget.run),
    FuzzTarget(
      name: "geojson", summary: "a GeoJSON source file: SourceLoader.load (FileIO, JSON parser, GeoJSONDecoder)",
      maxLength: 16_384, run: GeoJSONFuzzTarget.run),
    FuzzTarget(
      name: "png", summary: "a PNG icon or tile: PNGDecoder.decode", maxLength: 65_536, run: PNGFuzzTarget.run),
    FuzzTarget(
      name: "jpeg", summary: "a JPEG tile: JPEGDecoder.decode", maxLength: 65_536, run: JPEGFuzzTarget.run),
    FuzzTarget(
      name: "mbtiles", summary: "an MBTiles file's metadata (name=value lines), drawn as a tiles layer at 64×64",
      maxLength: 4_096, run: MBTilesFuzzTarget.run),
    FuzzTarget(
      name: "tilejson", summary: "an XYZ folder's tiles.json, drawn as a tiles layer at 64×64",
      maxLength: 4_096, run: TileJSONFuzzTarget.run),
    FuzzTarget(
      name: "manifest", summary: "a batch manifest (JSON Lines): ManifestReader.validate and forEachFrame",
      maxLength: 16_384, run: ManifestFuzzTarget.run),
    FuzzTarget(
      name: "case", summary: "a `mapsnap test` case's golden.json: CaseLoader.load",
      maxLength: 8_192, run: CaseFuzzTarget.run),
    FuzzTarget(
      name: "report", summary: "a report read by `mapsnap diff --reports`: ReportDiff.compare (ParsedReport)",
      maxLength: 32_768, run: ReportFuzzTarget.run),
    FuzzTarget(
      name: "pngrows", summary: "a PNG read by `mapsnap diff`: ImageDiff.compare (PNGRowReader, PixelMatch)",
      maxLength: 32_768, run: PNGRowsFuzzTarget.run),
    FuzzTarget(
      name: "wkb", summary: "an ogr source's geometry (ISO WKB): WKBReader", maxLength: 16_384, run: WKBFuzzTarget.run),
    FuzzTarget(
      name: "gpkg", summary: "a GeoPackage's metadata and rows (key=value lines), drawn as an ogr layer at 64×64",
      maxLength: 8_192, run: GeoPackageFuzzTarget.run),
    FuzzTarget(
      name: "digest", summary: "an entry of the digest cache: DigestStore.digest (@ID@ stands for the file's identity)",
      maxLength: 1_024, run: DigestFuzzTarget.run),
    FuzzTarget(
      name: "mvt", summary: "a vector tile, gzip'd or not: every layer, feature, property and geometry (VectorTile)",
      maxLength: 65_536, run: MVTFuzzTarget.run),
    FuzzTarget(
      name: "pmtiles", summary: "a PMTiles archive: header, directories, leaves, metadata, tiles (PMTilesArchive)",
      maxLength: 32_768, run: PMTilesFuzzTarget.run),
    FuzzTarget(
      name: "style", summary: "a MapLibre style: validated, read and drawn at 64×64 at most (StyleValidator, StyleDocument, the style front end)",
      maxLength: 32_768, run: StyleFuzzTarget.run),
    FuzzTarget(
      name: "sprite", summary: "a style's sprite index (sprite.json) over a fixed sheet, drawn as patterns and icons at 64×64 (StyleSprite)",
      maxLength: 16_384, run: SpriteFuzzTarget.run),
    FuzzTarget(
      name: "glyphs", summary: "an SDF glyph range (0-255.pbf) drawn as point, multi-line and line labels at 64×64 (GlyphRange, the symbol layout)",
      maxLength: 65_536, run: GlyphsFuzzTarget.run),
    FuzzTarget(
      name: "font", summary: "a font file of a style's font-faces drawn as Latin and shaped Devanagari labels at 64×64 (StyleFontFile, FreeType, HarfBuzz)",
      maxLength: 65_536, run: FontFuzzTarget.run),
    FuzzTarget(
      name: "expression", summary: "a style expression, filter or legacy function: compiled and evaluated (StyleExpression)",
      maxLength: 8_192, run: ExpressionFuzzTarget.run),
    FuzzTarget(
      name: "render", summary: "a scene decoded and rendered end to end at 64×64 at most, with the bundled fonts",
      maxLength: 32_768, run: RenderFuzzTarget.run),
    FuzzTarget(
      name: "tilematrixset", summary: "a tile matrix set file (OGC 2.0 JSON): TileMatrixSetDecoder, its levels checked",
      maxLength: 16_384, run: TileMatrixSetFuzzTarget.run),
    FuzzTarget(
      name: "gpkgtiles", summary: "a GeoPackage's tile pyramid as text or as a file: GeoPackageTileReader, then up to 16 tiles read and decoded",
      maxLength: 32_768, run: GeoPackageTilesFuzzTarget.run),
    FuzzTarget(
      name: "staticrequest", summary: "a request of `mapsnap serve`: a URL, or POST and a JSON body, parsed and answered at 64×64 at most (StaticURLParser, StaticBodyDecoder, StaticRenderer)",
      maxLength: 16_384, run: StaticRequestFuzzTarget.run),
  ]

  /// The bytes of a reproducer or seed file (a regular file, read whole):
  /// what the replay driver and the regression tests feed a target.
  public static func read(_ path: String) -> [UInt8]? {
    try? FileIO.read(path)
  }

  /// The target named `name`, or nil.
  public static func named(_ name: String) -> FuzzTarget? {
    all.first { $0.name == name }
  }
}
