import Dispatch
internal import _MapSnapRaster

internal import CFreeType
internal import _LazyLibraries

#if canImport(Glibc)
  import Glibc
#endif

/// The fonts mapsnap can draw with: the bundled ones (`Fonts/`: DejaVu Sans
/// regular and bold; Noto Sans Arabic, Hebrew, Devanagari and Thai; Droid
/// Sans Fallback for CJK) plus any folders the user adds. A style's `font`
/// names a face by its full name ("DejaVu Sans", "DejaVu Sans Bold") or its
/// family (then the regular face), case-insensitive. Characters the named
/// face lacks fall back through the bundled chain (`fallbackNames`), and
/// text is shaped by ``TextShaper``.
///
/// Not thread-safe: use it from one thread (text is laid out before tiles).
public final class FontLibrary {
  /// The face used when a style names none.
  public static let defaultFont = "DejaVu Sans"
  /// Bundled faces tried, in order, for glyphs the chosen face lacks.
  /// DejaVu Sans covers Latin, Greek, Cyrillic, Arabic and Hebrew; the
  /// Noto faces the scripts it lacks (and a better-drawn Arabic and Hebrew
  /// for styles that name them); Droid Sans Fallback, CJK.
  static let fallbackNames = [
    "DejaVu Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Devanagari", "Noto Sans Thai", "Droid Sans Fallback",
  ]

  let faces: [FontFace]
  private let fallback: [Int]
  private var flattened: [GlyphKey: Path] = [:]
  private var halos: [HaloKey: Path] = [:]
  private var masks: [MaskKey: Int] = [:]
  private var chains: [String: [Int]] = [:]
  /// HarfBuzz shaping, made when the first text is laid out; nil when
  /// HarfBuzz or FriBidi cannot be loaded (`TextShaper.status`).
  lazy var shaper: TextShaper? = TextShaper(faces: faces)
  /// Shapers that shape beside `shaper` (`prepareLayouts`), made on first use.
  var helperShapers: [TextShaper] = []

  /// How this library shapes text, for the report and the input digest:
  /// "HarfBuzz 6.0.0, FriBidi", or "unshaped: " and why HarfBuzz or
  /// FriBidi could not be loaded.
  public var shaping: String {
    switch TextShaper.status {
    case .success(let version): return shaper == nil ? "unshaped: HarfBuzz could not allocate a buffer" : "HarfBuzz \(version), FriBidi"
    case .failure(let e): return "unshaped: \(e.reason)"
    }
  }
  /// Coverage masks of glyphs and halos, shared by every frame drawn with
  /// this library.
  let atlas = MaskAtlas()

  /// Opens every `.ttf`/`.otf` file in `directories` (each folder's files in
  /// name order; earlier folders win when two faces share a name).
  /// - Throws: `TextError.noFonts` when no font could be opened.
  public init(directories: [String]) throws(TextError) {
    guard let lib = FreeTypeLibrary() else {
      // FreeType is opened on first use (`_LazyLibraries`): say why it is not there.
      throw .freeTypeFailed(mapsnap_freetype_unavailable().map { "FT_Init_FreeType (\(String(cString: $0)))" } ?? "FT_Init_FreeType")
    }
    var faces: [FontFace] = []
    for dir in directories {
      for name in FileIO.listDirectory(dir).sorted() where name.lowercased().hasSuffix(".ttf") || name.lowercased().hasSuffix(".otf") {
        if let f = FontFace(library: lib, path: dir + "/" + name) { faces.append(f) }
      }
    }
    guard !faces.isEmpty else { throw .noFonts(directories) }
    self.faces = faces
    var fallback: [Int] = []
    for n in Self.fallbackNames {
      if let i = faces.firstIndex(where: { $0.fullName.lowercased() == n.lowercased() }) { fallback.append(i) }
    }
    if fallback.isEmpty { fallback = [0] }
    self.fallback = fallback
  }

  /// The bundled `Fonts/` folder, the first of:
  /// 1. `$MAPSNAP_FONT_DIR` when set and not empty;
  /// 2. `../share/mapsnap/Fonts` from the executable's folder (the layout of
  ///    `make install` and `make dist`: `bin/mapsnap` beside
  ///    `share/mapsnap/Fonts`), when it holds a font;
  /// 3. the repository's `Fonts/`, found from this source file, only for an
  ///    executable that lies inside that repository's `.build/` (mapsnap run
  ///    from its build tree, and the tests): a copied or installed binary
  ///    never reaches back into the source tree it was built from;
  /// 4. otherwise the installed-layout path of rule 2, so the error names it.
  public static var bundledDirectory: String {
    if let env = getenv("MAPSNAP_FONT_DIR"), !String(cString: env).isEmpty { return String(cString: env) }
    let exe = FileIO.canonicalPath("/proc/self/exe") ?? "."
    let installed = FileIO.directory(of: FileIO.directory(of: exe)) + "/share/mapsnap/Fonts"
    if access(installed + "/DejaVuSans.ttf", R_OK) == 0 { return installed }
    var root = #filePath
    for _ in 0..<4 { root = FileIO.directory(of: root) }  // …/Sources/MapSnap/Text/FontLibrary.swift
    root = FileIO.canonicalPath(root) ?? root
    if exe.hasPrefix(root + "/.build/"), access(root + "/Fonts/DejaVuSans.ttf", R_OK) == 0 { return root + "/Fonts" }
    return installed
  }

  /// Checks that every font `scene` names is available.
  /// - Throws: `SceneError` at the JSON path of the first unknown font, with
  ///   the closest available name as a hint.
  public func check(_ scene: Scene) throws(SceneError) {
    for (name, path) in scene.fontReferences where faceIndex(named: name) == nil {
      throw SceneError(
        file: scene.file, path: path, kind: .unknownFont,
        expected: "one of \(names.map { "\(Echo.quoted($0))" }.joined(separator: ", "))", found: "\(Echo.quoted(name))",
        hint: closestMatch(to: name, in: names, maxDistance: 3).map { "did you mean \(Echo.quoted($0))?" })
    }
  }

  /// The widest glyph advance of any face, in ems (`max_advance_width` over
  /// units per em): how far one character of text can reach.
  public var maxAdvance: Double {
    faces.map { $0.maxAdvance / $0.unitsPerEm }.max() ?? 1
  }

  /// Every face's full name, for messages and `did you mean` hints.
  public var names: [String] { faces.map(\.fullName) }

  /// Index of the face a style's `font` names, or nil.
  func faceIndex(named name: String) -> Int? {
    let n = name.lowercased()
    if let i = faces.firstIndex(where: { $0.fullName.lowercased() == n }) { return i }
    return faces.firstIndex(where: { $0.family.lowercased() == n })
  }

  /// The faces tried for a style's font, in order: the face itself, then the
  /// bundled fallbacks.
  func chain(for name: String?) -> [Int] {
    let key = name ?? ""
    if let hit = chains[key] { return hit }
    let out = makeChain(for: name)
    chains[key] = out
    return out
  }

  private func makeChain(for name: String?) -> [Int] {
    var out: [Int] = []
    if let name, let i = faceIndex(named: name) { out.append(i) }
    for i in fallback where !out.contains(i) { out.append(i) }
    return out
  }

  /// The glyph flattened at `size` pixels per em, origin on the baseline, y
  /// down; cached by face, size (1/64 px) and glyph.
  func glyphPath(face: Int, glyph: UInt32, size: Double) -> Path {
    let key = GlyphKey(face: Int32(face), glyph: glyph, size64: fixed64(size))
    if let p = flattened[key] { return p }
    let f = faces[face]
    let p = f.outline(glyph).flattened(scale: Double(key.size64) / 64 / f.unitsPerEm, tolerance: Self.tolerance)
    flattened[key] = p
    return p
  }

  /// The glyph's halo: its outline stroked with round joins `width` pixels
  /// beyond it on both sides, cached by glyph, size and width (1/64 px), so a
  /// letter's halo is stroked once per frame however often it appears.
  func haloPath(face: Int, glyph: UInt32, size: Double, width: Double) -> Path {
    let key = HaloKey(glyph: GlyphKey(face: Int32(face), glyph: glyph, size64: fixed64(size)), width64: fixed64(width))
    if let p = halos[key] { return p }
    let outline = glyphPath(face: face, glyph: glyph, size: size)
    let p = strokeOutline(outline, style: StrokeStyle(width: 2 * Double(key.width64) / 64, join: .round, cap: .round), tolerance: Self.tolerance)
    halos[key] = p
    return p
  }

  /// The coverage mask of a glyph (halo width 0) or of its halo, with the
  /// glyph's origin `subpixel` quarter pixels right of an integer position;
  /// cached by face, glyph, size, sub-pixel offset and halo width. -1 for a
  /// glyph with no ink (a space).
  func glyphMask(face: Int, glyph: UInt32, size: Double, subpixel: Int, halo: Double) -> Int {
    let key = maskKey(face: face, glyph: glyph, size: size, subpixel: subpixel, halo: halo)
    if let m = masks[key] { return m }
    let m = atlas.add(maskPath(key, face: face, glyph: glyph, size: size, subpixel: subpixel, halo: halo)) ?? -1
    masks[key] = m
    return m
  }

  private func maskKey(face: Int, glyph: UInt32, size: Double, subpixel: Int, halo: Double) -> MaskKey {
    MaskKey(glyph: GlyphKey(face: Int32(face), glyph: glyph, size64: fixed64(size)), subpixel: Int8(subpixel), halo64: fixed64(halo))
  }

  /// The outline a mask is rasterised from: the glyph's (or its halo's),
  /// moved right by its quarter-pixel offset.
  private func maskPath(_ key: MaskKey, face: Int, glyph: UInt32, size: Double, subpixel: Int, halo: Double) -> Path {
    var path = key.halo64 > 0 ? haloPath(face: face, glyph: glyph, size: size, width: halo) : glyphPath(face: face, glyph: glyph, size: size)
    let dx = Double(subpixel) / 4
    if dx != 0 { for i in path.points.indices { path.points[i].x += dx } }
    return path
  }

  /// Makes the masks that `masks(for:at:halo:)` will ask for `runs`, in
  /// that order, those not made yet rasterised on `threads` threads: the
  /// outlines are taken here, on the caller's thread (FreeType and the
  /// outline caches are not shared), the rasterising is done side by side,
  /// and the masks enter the atlas in the order they were first asked for,
  /// so the atlas and every mask index are those of a serial pass.
  func prepareMasks(_ runs: [(block: TextBlock, origin: Point, halo: Double)], threads: Int) {
    let workers = min(threads > 0 ? threads : activeProcessorCount(), activeProcessorCount())
    guard workers > 1 else { return }
    var keys: [MaskKey] = []
    var paths: [Path] = []
    var seen = Set<MaskKey>()
    for r in runs {
      for halo in r.halo > 0 ? [0, r.halo] : [0] {
        forEachGlyphPlacement(r.block, at: r.origin) { face, glyph, subpixel, _, _ in
          let key = maskKey(face: face, glyph: glyph, size: r.block.size, subpixel: subpixel, halo: halo)
          guard masks[key] == nil, seen.insert(key).inserted else { return }
          keys.append(key)
          paths.append(maskPath(key, face: face, glyph: glyph, size: r.block.size, subpixel: subpixel, halo: halo))
        }
      }
    }
    guard paths.count >= Self.parallelMasks else { return }
    let made = UnsafeMutableBufferPointer<MaskAtlas.Mask?>.allocate(capacity: paths.count)
    made.initialize(repeating: nil)
    defer {
      made.deinitialize()
      made.deallocate()
    }
    let jobs = MaskJobs(paths: paths, out: made)
    DispatchQueue.concurrentPerform(iterations: workers) { w in jobs.run(worker: w, of: workers) }
    for (k, key) in keys.enumerated() { masks[key] = made[k].map(atlas.append) ?? -1 }
  }

  /// Masks from which `prepareMasks` rasterises side by side: below, the
  /// threads cost more than they save (a mask takes some 10–30 µs).
  static let parallelMasks = 32

  /// The outlines handed to the workers, each writing its own slots of `out`
  /// (every `of`-th from `worker`).
  private struct MaskJobs: @unchecked Sendable {
    let paths: [Path]
    let out: UnsafeMutableBufferPointer<MaskAtlas.Mask?>

    func run(worker: Int, of workers: Int) {
      for k in stride(from: worker, to: paths.count, by: workers) { out[k] = MaskAtlas.rasterize(paths[k]) }
    }
  }

  /// Text smaller than this many device pixels per em is not drawn: it
  /// would be a smudge, not text.
  public static let minTextSize = 1.0
  /// Text larger than this many device pixels per em is not drawn (annotation
  /// zoomed far in grows without bound).
  public static let maxTextSize = 8192.0
  /// Text larger than this is drawn from outlines instead of cached masks.
  static let maxMaskedTextSize = 256.0

  /// Largest distance, in pixels, between a flattened glyph curve (or the
  /// round joins of its halo) and the curve: the renderer's one flattening
  /// tolerance.
  static let tolerance = Flattening.tolerance

}

/// A size in 1/64 px for cache keys, clamped to the Int32 range (callers
/// keep sizes far below that: see `FontLibrary.maxTextSize`).
@inline(__always)
func fixed64(_ x: Double) -> Int32 {
  guard x.isFinite else { return 0 }
  return Int32(clamping: Int64((min(max(x, -1e8), 1e8) * 64).rounded()))
}

struct MaskKey: Hashable {
  var glyph: GlyphKey
  var subpixel: Int8
  var halo64: Int32
}

struct HaloKey: Hashable {
  var glyph: GlyphKey
  var width64: Int32
}

struct GlyphKey: Hashable {
  var face: Int32
  var glyph: UInt32
  var size64: Int32
}

/// Why text could not be set up. The message is shaped like every mapsnap
/// error: where, then what happened (hint).
public enum TextError: Error, Sendable, Equatable, CustomStringConvertible {
  /// FreeType could not be started; the payload is the call that failed
  /// (`FT_Init_FreeType`).
  case freeTypeFailed(String)
  /// None of these folders holds a `.ttf` or `.otf` font FreeType can open.
  case noFonts([String])

  public var description: String {
    switch self {
    case .freeTypeFailed(let call):
      return "FreeType: \(call) failed"
    case .noFonts(let dirs):
      let place = dirs.isEmpty ? "font folders" : dirs.joined(separator: ", ")
      return "\(place): no .ttf or .otf font could be opened (set MAPSNAP_FONT_DIR or use --font-dir)"
    }
  }
}


/// The FreeType library handle, released after every face made from it
/// (each face keeps a reference).
final class FreeTypeLibrary {
  let handle: FT_Library

  init?() {
    var lib: FT_Library?
    guard FT_Init_FreeType(&lib) == 0, let lib else { return nil }
    handle = lib
  }

  deinit { FT_Done_FreeType(handle) }
}
