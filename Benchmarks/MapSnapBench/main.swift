// mapsnap-bench: times one scene's load, render and encode stages apart, as
// medians over several runs, and reports peak resident memory.
//
//   mapsnap-bench <scene.json> [--scale S] [--runs N] [--threads T] [--palette N]
//       [--zoom Z] [--center LON,LAT] [--size WxH]   (a style's camera; --zoom is MapLibre's for a style)
//       (--palette N: encode as PNG8 of N colours; the encode time includes quantising)
//   mapsnap-bench <scene.json> --png-survey [--runs N]   PNG settings compared on this frame
//   mapsnap-bench <scene.json> --synthetic-view-annotations N [--scale S] [--runs R]
//       times ViewAnnotationPlacer.place() for N coordinate annotations at
//       seeded random positions in the scene's frame (4 anchors each, short
//       texts), with one FontLibrary for all runs: the first run is cold.
//   mapsnap-bench <scene.json> --diff N [--runs R]
//       times `mapsnap diff`'s comparison (PixelMatch, anti-aliasing detection
//       on, default workers) of the scene rendered at N×N against a copy with
//       1 % of its pixels changed (40 blocks of N/64 square, recoloured),
//       images in memory: the comparison itself, without decoding.
//   mapsnap-bench <scene.json> --stream WxH [--scale S] [--runs R]
//       times drawing and compressing the frame (FrameStream.writePNG into
//       memory, the bytes counted and dropped) with 1, 2, 4… threads up to
//       the processors, runs interleaved, the plan made once: the part of a
//       render that --threads spreads over cores (issue 13's scaling),
//       with each count's speed-up and the serial fraction it implies
//       (--threads T: that count alone, to profile it).
//   mapsnap-bench --oklab-error reference.png other.png
//       mean, p99 and largest Oklab ΔE between two PNGs (OklabError.swift)
//
// The process keeps freed memory as `mapsnap` does (`MemoryPolicy`), unless
// MAPSNAP_BENCH_GLIBC_MALLOC=1 (glibc's defaults, to measure the policy).
import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

if getenv("MAPSNAP_BENCH_GLIBC_MALLOC").map({ String(cString: $0) }) != "1" { MemoryPolicy.keepFreedMemory() }
var args = Array(CommandLine.arguments.dropFirst())
if args.first == "--oklab-error" { exit(oklabErrorMode(Array(args.dropFirst()))) }
@MainActor func option(_ name: String) -> String? {
  guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
  let v = args[i + 1]
  args.removeSubrange(i...(i + 1))
  return v
}
let scale = option("--scale").flatMap(Double.init)
// The camera of a style case (`make bench-styles`): MapLibre's zoom for a style, as the CLI's.
let zoom = option("--zoom").flatMap(Double.init)
let center = option("--center").map { $0.split(separator: ",").compactMap { Double($0) } }.flatMap { $0.count == 2 ? (lon: $0[0], lat: $0[1]) : nil }
let frameSize = option("--size").map { $0.split(separator: "x").compactMap { Int($0) } }.flatMap { $0.count == 2 ? (width: $0[0], height: $0[1]) : nil }
let runs = option("--runs").flatMap(Int.init) ?? 9
let threads = option("--threads").flatMap(Int.init) ?? 0
let syntheticViewAnnotations = option("--synthetic-view-annotations").flatMap(Int.init)
let diffSize = option("--diff").flatMap(Int.init)
let streamSize = option("--stream").map { $0.split(separator: "x").compactMap { Int($0) } }
let paletteColors = option("--palette").flatMap(Int.init)
let survey = args.contains("--png-survey")
args.removeAll { $0 == "--png-survey" }
guard let scenePath = args.first else {
  print("usage: mapsnap-bench <scene.json> [--scale S] [--runs N] [--threads T]")
  exit(64)
}

func median(_ xs: [Double]) -> Double {
  let s = xs.sorted()
  return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

if let n = diffSize {
  do {
    let scene = try SceneLoader.load(path: scenePath)
    let snap = try Snapshot.render(scene, overrides: ViewOverrides(size: (n, n)))
    let decoded = try PNGDecoder.decode(try snap.pngData())
    let a = decoded.packedPixels
    var b = a
    let side = n / 64
    var changed = 0
    for k in 0..<40 {
      let x0 = (k * 977) % (n - side)
      let y0 = (k * 1531) % (n - side)
      for y in y0..<(y0 + side) {
        for x in x0..<(x0 + side) {
          b[y * n + x] ^= 0x0040_2010
          changed += 1
        }
      }
    }
    var times: [Double] = []
    var counts = PixelMatch.Counts()
    for _ in 0..<runs {
      let t0 = monotonicSeconds()
      counts = a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in PixelMatch().compare(pa, pb, width: n, height: n) } }
      times.append(monotonicSeconds() - t0)
    }
    let ms = (median(times) * 10000).rounded() / 10
    print("diff \(n)x\(n), \(changed) px changed (\((Double(changed) * 10000 / Double(n * n)).rounded() / 100) %): \(counts.differing) differ, \(counts.antialiased) anti-aliased; comparison median of \(runs): \(ms) ms")
  } catch {
    print("error: \(error)")
    exit(1)
  }
  exit(0)
}

if let size = streamSize {
  guard size.count == 2 else {
    print("error: --stream takes WxH, such as 8192x8192")
    exit(64)
  }
  do {
    let scene = try SceneLoader.load(path: scenePath)
    let planned = monotonicSeconds()
    let plan = try FramePlan.make(scene, overrides: ViewOverrides(scale: scale, size: (size[0], size[1])))
    let planTime = monotonicSeconds() - planned
    let processors = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    // --threads T: that count alone (to profile one).
    let counts = threads > 0 ? [threads] : [1, 2, 4, 8, 16, 32, 64].filter { $0 <= max(1, processors) }
    var times = [Int: [Double]]()
    var bytes = 0
    for _ in 0..<runs {
      for threads in counts {
        var encoding = PNGEncodingOptions.fast
        encoding.threads = threads
        var written = 0
        let t0 = monotonicSeconds()
        try FrameStream.writePNG(plan, options: RenderOptions(threads: threads), encoding: encoding, inputDigest: nil) {
          (b: UnsafeRawBufferPointer) throws(FileError) in written += b.count
        }
        times[threads, default: []].append(monotonicSeconds() - t0)
        bytes = written
      }
    }
    let base = median(times[counts[0]]!) * Double(counts[0])
    let ms = { (x: Double) in String(Int((x * 10000).rounded())).withDecimal }
    var line = "\(scenePath) \(size[0])x\(size[1]) 1:\(Int(plan.state.viewport.scale.rounded())), \(bytes) bytes of PNG; draw + compress, median of \(runs):"
    for n in counts {
      let t = median(times[n]!)
      line += " \(n) thread\(n == 1 ? "" : "s") \(ms(t)) ms"
      if n > 1 && counts[0] == 1 {
        let speedUp = base / t
        let serial = (Double(n) / speedUp - 1) / Double(n - 1)
        line += " (\(format2(speedUp))x, serial fraction \(format2(serial)))"
      }
      line += n == counts.last ? "" : ","
    }
    print(line)
    print(
      "  the plan before it (once, cold, on the default threads): \(ms(planTime)) ms (resolve \(ms(plan.resolveTime)), "
        + "text \(ms(plan.textTime)), display list \(ms(plan.displayListTime)))")
  } catch {
    print("error: \(error)")
    exit(2)
  }
  exit(0)
}

/// `x` with two decimals.
func format2(_ x: Double) -> String {
  let hundredths = Int((x * 100).rounded())
  let sign = hundredths < 0 ? "-" : ""
  let a = abs(hundredths)
  return "\(sign)\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
}

if let count = syntheticViewAnnotations {
  // The frame of the given scene (its map block, with --scale applied), no
  // layers, and `count` annotations tied to coordinates inside the frame.
  do {
    var scene = try SceneLoader.load(path: scenePath)
    scene.layers = []
    scene.viewAnnotations = []
    let fonts = try FontLibrary(directories: [FontLibrary.bundledDirectory])
    let state = try FramePlan.make(scene, overrides: ViewOverrides(scale: scale), fonts: fonts).state
    let extent = state.viewport.extent
    var seed: UInt64 = 20_250_412
    func random() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) / Double(1 << 53)
    }
    for i in 0..<count {
      let p = WebMercator.unproject(Point(extent.minX + random() * extent.width, extent.minY + random() * extent.height))
      var a = ViewAnnotation(id: "va\(i)", target: .coordinate(lon: p.lon, lat: p.lat), text: "P\(i % 1000)")
      var pool = Anchor.allCases
      a.anchors = (0..<4).map { _ in ViewAnnotation.AnchorConfig(anchor: pool.remove(at: Int(random() * Double(pool.count)))) }
      a.priority = Double(Int(random() * 4))
      scene.viewAnnotations.append(a)
    }
    var times: [Double] = []
    var placed = 0
    for _ in 0..<runs {
      let t0 = monotonicSeconds()
      let result = ViewAnnotationPlacer(state: state, annotations: scene.viewAnnotations, fonts: fonts).place()
      times.append(monotonicSeconds() - t0)
      placed = result.boxes.count
    }
    let ms = { (x: Double) in String(Int((x * 10000).rounded())).withDecimal }
    print(
      "\(scenePath) 1:\(Int(state.viewport.scale.rounded())) \(state.viewport.width)x\(state.viewport.height), \(count) view annotations "
        + "(4 anchors each), \(placed) placed: place() first (cold) \(ms(times[0])) ms, median of \(runs) \(ms(median(times))) ms, "
        + "fastest \(ms(times.min()!)) ms")
  } catch {
    print("error: \(error)")
    exit(2)
  }
  exit(0)
}

if survey {
  // Encode one rendered frame with each candidate setting: median ms and bytes.
  do {
    let scene = try SceneLoader.load(path: scenePath)
    let snap = try Snapshot.render(scene, overrides: ViewOverrides(scale: scale))
    let candidates: [(String, PNGEncodingOptions)] = [
      ("none, level 1, 1 thread", PNGEncodingOptions(compressionLevel: 1, filter: .none, threads: 1)),
      ("none, level 2, 1 thread", PNGEncodingOptions(compressionLevel: 2, filter: .none, threads: 1)),
      ("none, igzip level 1", PNGEncodingOptions(compressionLevel: 1, filter: .none, deflater: .igzip)),
      ("none, igzip level 2 (fast)", .fast),
      ("none, igzip level 2, 1 thread", PNGEncodingOptions(compressionLevel: 2, filter: .none, threads: 1, deflater: .igzip)),
      ("none, igzip level 3", PNGEncodingOptions(compressionLevel: 3, filter: .none, deflater: .igzip)),
      ("none, level 2 (balanced)", .balanced),
      ("none, level 3", PNGEncodingOptions(compressionLevel: 3, filter: .none)),
      ("none, level 6", PNGEncodingOptions(compressionLevel: 6, filter: .none)),
      ("none, level 9 (small)", .small),
      ("adaptive, level 2", PNGEncodingOptions(compressionLevel: 2, filter: .adaptive)),
      ("adaptive, level 6 (libpng default)", PNGEncodingOptions(compressionLevel: 6, filter: .adaptive)),
    ]
    print("\(scenePath) \(snap.canvas.width)x\(snap.canvas.height), median of \(runs):")
    for (name, options) in candidates {
      var times: [Double] = []
      var size = 0
      for _ in 0..<runs {
        let t0 = monotonicSeconds()
        size = try snap.pngData(options: options).count
        times.append(monotonicSeconds() - t0)
      }
      print("  \(name): \(String(Int((median(times) * 10000).rounded())).withDecimal) ms, \(size) bytes")
    }
  } catch {
    print("error: \(error)")
    exit(2)
  }
  exit(0)
}

var load: [Double] = []
var resolve: [Double] = []
var list: [Double] = []
var textTimes: [Double] = []
var labelCount = (0, 0)
var raster: [Double] = []
var render: [Double] = []
var encode: [Double] = []
var bytes = 0
var size = (0, 0)
var drawn = 0
var listSize = (0, 0)
var shownScale = ""
var coldText = 0.0
var coldResolve = 0.0
var tileCount = 0
var coldRead = 0.0
var tileRead: [Double] = []
var tileStitch: [Double] = []
var symbolLayout: [Double] = []
var symbolCounts = (0, 0)
do {
  // One tile cache for all runs, as in a batch job over one basemap: the
  // first run decodes (cold), the others find the tiles decoded (warm).
  let tiles = TileCache()
  // One font library for all runs: its glyph masks stay warm after the first
  // use of a size, as in a batch job; the first run's text time is the cold one.
  let fonts = try? FontLibrary(directories: [FontLibrary.bundledDirectory])
  // A style is read once, as a batch or a server keeps it (its parsed
  // document and compiled expressions stay with the scene); a scene is read per run.
  let keptStyle = try SceneLoader.load(path: scenePath)
  for run in 0..<runs {
    var t0 = monotonicSeconds()
    let scene = keptStyle.isStyle ? keptStyle : try SceneLoader.load(path: scenePath)
    let sources = SourceLoader()
    // Files are read whole before the frame; an `ogr` source is read per
    // frame through its spatial index, so its read counts in resolve.
    for layer in scene.layers {
      if case .features(let source, _) = layer.content, !source.isOGR { _ = sources.load(source) }
    }
    var t1 = monotonicSeconds()
    load.append(t1 - t0)
    t0 = t1
    let snap = try Snapshot.render(
      scene, overrides: ViewOverrides(scale: scale, zoom: zoom, center: center, size: frameSize), options: RenderOptions(threads: threads), sources: sources, fonts: fonts,
      tiles: tiles)
    if run == 0 {
      coldText = snap.timings.text
      coldResolve = snap.timings.resolve
      tileCount = snap.state.layers.reduce(0) { $0 + ($1.tiles.map { $0.drawn + $0.fromParent } ?? 0) }
      coldRead = snap.plan.inputs.layers.reduce(0) { $0 + ($1.tiles?.readSeconds ?? 0) }
    }
    tileRead.append(snap.plan.inputs.layers.reduce(0) { $0 + ($1.tiles?.readSeconds ?? 0) })
    tileStitch.append(snap.plan.inputs.layers.reduce(0) { $0 + ($1.tiles?.stitchSeconds ?? 0) })
    t1 = monotonicSeconds()
    render.append(t1 - t0)
    resolve.append(snap.timings.resolve)
    list.append(snap.timings.displayList)
    textTimes.append(snap.timings.text)
    let figures = snap.plan.styleSymbolFigures
    symbolLayout.append(figures.layoutSeconds)
    symbolCounts = (figures.laidOut, figures.shown)
    labelCount = snap.text.labelCounts.values.reduce((0, 0)) { ($0.0 + $1.placed, $0.1 + $1.dropped) }
    raster.append(snap.timings.rasterize)
    t0 = t1
    // The command's default encoding (`--compression fast`), with the palette if asked.
    var encoding = PNGEncodingOptions.fast
    encoding.palette = paletteColors.map { PaletteOptions(colors: $0) }
    let png = try snap.pngData(options: encoding)
    encode.append(monotonicSeconds() - t0)
    bytes = png.count
    size = (snap.canvas.width, snap.canvas.height)
    listSize = (snap.timings.fills, snap.timings.edges)
    shownScale = String(Int(snap.state.viewport.scale.rounded()))
    drawn = snap.layers.reduce(0) { $0 + $1.drawnFeatures }
  }
} catch {
  print("error: \(error)")
  exit(2)
}
var usage = rusage()
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
let ms = { (x: [Double]) in String(Int((median(x) * 10000).rounded())).withDecimal }
print(
  "\(scenePath) 1:\(shownScale) \(size.0)x\(size.1), \(drawn) features drawn (\(listSize.0) fills, \(listSize.1) edges), median of \(runs): "
    + "load \(ms(load)) ms, render \(ms(render)) ms (resolve \(ms(resolve))"
    + (tileCount > 0
      ? " (cold \(ms([coldResolve])); tiles: read and decode \(ms(tileRead)) (cold \(ms([coldRead])) for \(tileCount) tiles), stitch \(ms(tileStitch)))"
      : "") + ", text \(ms(textTimes)) (cold \(ms([coldText]))) for \(labelCount.0) labels placed / \(labelCount.1) dropped, display list \(ms(list)), rasterise \(ms(raster))), "
    + "encode \(ms(encode)) ms, PNG \(bytes) bytes, peak RSS \(usage.ru_maxrss / 1024) MB"
    + (symbolCounts.0 > 0
      ? "; style symbols: layout \(ms(symbolLayout)) ms (in resolve) for \(symbolCounts.0) laid out, placement in text, \(symbolCounts.1) shown" : ""))

extension String {
  /// "1234" (tenths of a millisecond) → "123.4".
  var withDecimal: String {
    let s = count < 2 ? String(repeating: "0", count: 2 - count) + self : self
    return String(s.dropLast()) + "." + String(s.last!)
  }
}
