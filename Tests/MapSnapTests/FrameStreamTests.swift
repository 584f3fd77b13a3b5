import Foundation
import MapSnap
import Testing
import _MapSnapTestSupport

/// Frames streamed to PNG a strip at a time (`FrameStream`) are the bytes of
/// the whole-frame path (`Snapshot.pngData`), whatever the strips, threads,
/// band heights, sizes and encodings; the colour type is decided before
/// drawing, from the background (scene format section 6).
@Suite struct FrameStreamTests {
  static let digest = "sha256:" + String(repeating: "ab", count: 32)

  static func golden(_ name: String) throws -> Scene {
    try SceneLoader.load(path: Repository.root + "/Golden/\(name)/scene.json")
  }

  /// A scene at the origin: a transparent or opaque background, a polygon
  /// covering `cover` of the frame's width, and a half-transparent group.
  static func synthetic(background: String, cover: Double = 0.6, size: (Int, Int) = (300, 200)) throws -> Scene {
    // 1:2000 at the equator: about 0.53 m a pixel; 1 degree is 111 km.
    let half = Double(size.0) * 0.53 / 111_320 / 2
    let x = -half + 2 * half * cover
    let json = """
      {"version": 1, "map": {"center": [0, 0], "scale": 2000, "size": [\(size.0), \(size.1)], "background": "\(background)"},
       "layers": [
        {"id": "box", "type": "graphics", "graphics": [{"geometry": {"type": "Polygon", "coordinates":
          [[[-1, -1], [\(x), -1], [\(x), 1], [-1, 1], [-1, -1]]]}, "style": {"fill": "#336699"}}]},
        {"id": "veil", "type": "graphics", "opacity": 0.5, "graphics": [{"geometry": {"type": "LineString", "coordinates":
          [[-1, -1], [1, 1]]}, "style": {"stroke": "#c0392b", "strokeWidth": 9}}]}]}
      """
    return try SceneLoader.decode(Array(json.utf8), file: "synthetic.json", baseDirectory: "")
  }

  /// The streamed PNG of `plan`.
  static func streamed(
    _ plan: FramePlan, options: RenderOptions = RenderOptions(), encoding: PNGEncodingOptions = .fast, stripRows: Int? = nil
  ) throws -> [UInt8] {
    var out: [UInt8] = []
    try FrameStream.writePNG(plan, options: options, encoding: encoding, inputDigest: digest, stripRows: stripRows) { out += $0 }
    return out
  }

  /// The whole-frame PNG of `plan`.
  static func whole(_ plan: FramePlan, encoding: PNGEncodingOptions = .fast) throws -> [UInt8] {
    try Snapshot.render(plan, options: RenderOptions(threads: 1)).pngData(options: encoding, inputDigest: digest)
  }

  static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String? {
    if a == b { return nil }
    let i = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    return "sizes \(a.count) and \(b.count), first difference at byte \(i)"
  }

  @Test(arguments: ["helsinki", "nyc", "group-opacity", "icons", "tiles", "halos"])
  func streamedIsTheWholeFrameForAnyThreadsBandsAndStrips(_ name: String) throws {
    let plan = try FramePlan.make(Self.golden(name))
    let expected = try Self.whole(plan)
    for threads in [1, 2, 4] {
      for tileRows in [1, 7, 32] {
        // A strip of one deflate segment, and the default strip.
        for strip in [1, nil] as [Int?] {
          let actual = try Self.streamed(plan, options: RenderOptions(threads: threads, tileRows: tileRows), stripRows: strip)
          #expect(
            Self.firstDifference(actual, expected) == nil,
            "\(name), \(threads) threads, \(tileRows)-row bands, strip \(strip.map(String.init) ?? "default"): \(Self.firstDifference(actual, expected) ?? "")")
        }
      }
    }
  }

  @Test(arguments: [(1, 1), (3, 1000), (1000, 3), (1001, 517), (257, 2049)] as [(Int, Int)])
  func oddSizesStreamTheSameBytes(width: Int, height: Int) throws {
    for background in ["#f4f4f0", "#00000000"] {
      let plan = try FramePlan.make(Self.synthetic(background: background, size: (width, height)))
      for encoding in [PNGEncodingOptions.fast, .small, PNGEncodingOptions(compressionLevel: 6, filter: .adaptive)] {
        let expected = try Self.whole(plan, encoding: encoding)
        for (threads, tileRows, strip) in [(1, 32, nil), (2, 7, 1), (4, 1, 3)] as [(Int, Int, Int?)] {
          var e = encoding
          e.threads = threads
          let actual = try Self.streamed(plan, options: RenderOptions(threads: threads, tileRows: tileRows), encoding: e, stripRows: strip)
          #expect(
            Self.firstDifference(actual, expected) == nil,
            "\(width)×\(height) \(background) \(encoding) threads \(threads) rows \(tileRows) strip \(strip ?? 0): \(Self.firstDifference(actual, expected) ?? "")")
        }
      }
    }
  }

  @Test func theInputsChunkFollowsTheHeaderAndIsReadBack() throws {
    let png = try Self.streamed(FramePlan.make(Self.golden("helsinki")))
    #expect(Array(png[37..<41]) == Array("tEXt".utf8))
    #expect(PNGTextChunk.text(keyword: PNGTextChunk.inputsKeyword, in: Array(png.prefix(4096))) == Self.digest)
    #expect(PNG.endsWithIEND(png))
  }

  // MARK: - The colour type, decided before drawing

  @Test func anOpaqueBackgroundGivesRGBATransparentOneRGBA() throws {
    let opaque = try FramePlan.make(Self.synthetic(background: "#f4f4f0"))
    let clear = try FramePlan.make(Self.synthetic(background: "#00000000"))
    let translucent = try FramePlan.make(Self.synthetic(background: "#ffffff80"))
    #expect(opaque.isOpaque && !clear.isOpaque && !translucent.isOpaque)
    // IHDR's colour type is byte 25: 2 RGB, 6 RGBA.
    #expect(try Self.streamed(opaque)[25] == 2)
    #expect(try Self.streamed(clear)[25] == 6)
    #expect(try Self.streamed(translucent)[25] == 6)
    #expect(try Self.whole(opaque)[25] == 2)
    #expect(try Self.whole(clear)[25] == 6)
  }

  /// The rule that scanned the finished frame gave RGB here (every pixel
  /// ends up opaque); the rule of section 6 looks at the background only.
  @Test func aTransparentBackgroundCoveredByOpaqueFillIsStillRGBA() throws {
    let plan = try FramePlan.make(Self.synthetic(background: "#00000000", cover: 2))
    let snapshot = Snapshot.render(plan)
    #expect(snapshot.canvas.buffer.allSatisfy { $0 >> 24 == 255 }, "the fill covers every pixel")
    let scanned = try PNGEncoder.encode(premultipliedRGBA: snapshot.canvas.buffer, width: snapshot.canvas.width, height: snapshot.canvas.height)
    #expect(scanned[25] == 2, "the old rule: every pixel opaque, so RGB")
    let png = try snapshot.pngData(inputDigest: Self.digest)
    #expect(png[25] == 6, "section 6: a transparent background makes the frame RGBA")
    #expect(try Self.streamed(plan) == png)
    // The pixels are the same either way.
    #expect(try PNGDecoder.decode(png).pixels == PNGDecoder.decode(scanned).pixels)
  }

  /// Source-over onto an opaque backdrop stays opaque on every path the tile
  /// renderer has (fills, strokes, group layers at an opacity, icons, glyphs).
  @Test(arguments: ["group-opacity", "icons", "halos", "tiles", "helsinki"])
  func anOpaqueBackgroundLeavesEveryPixelOpaque(_ name: String) throws {
    let snapshot = try Snapshot.render(Self.golden(name))
    #expect(snapshot.plan.isOpaque)
    #expect(snapshot.canvas.buffer.allSatisfy { $0 >> 24 == 255 })
  }

  // MARK: - The writer's contract

  @Test func aStripMustHoldWholeSegments() throws {
    let writer = try PNGStreamWriter(width: 100, height: 1000, opaque: true)
    #expect(writer.rowGranularity == 262_144 / 301)
    let rows = [UInt32](repeating: 0xFF00_00FF, count: 100 * 1000)
    _ = rows.withUnsafeBufferPointer { p in
      #expect(throws: PNGError.self) { try writer.write(premultipliedRows: p, count: 5) }
    }
    let adaptive = try PNGStreamWriter(width: 100, height: 3, opaque: false, options: PNGEncodingOptions(filter: .adaptive))
    #expect(adaptive.rowGranularity == 1)
    try rows.withUnsafeBufferPointer { p in
      try adaptive.write(premultipliedRows: p, count: 2)
      #expect(throws: PNGError.rowsExhausted(requested: 2, remaining: 1)) { try adaptive.write(premultipliedRows: p, count: 2) }
      try adaptive.write(premultipliedRows: p, count: 1)
    }
    #expect(adaptive.isComplete)
  }

  @Test func stripHeightsHoldSegmentsAndBandsAndAimAtTheTarget() {
    // 4 MiB for one or two threads, 2 MiB more per thread beyond.
    #expect(FrameStream.stripBytes(threads: 1) == 4 << 20)
    #expect(FrameStream.stripBytes(threads: 2) == 4 << 20)
    #expect(FrameStream.stripBytes(threads: 8) == 16 << 20)
    // 16384 wide RGB: 8-row segments, 64 rows of 64 KiB (256 with 8 threads).
    #expect(FrameStream.stripRows(width: 16384, granularity: 8, tileRows: 32, threads: 1) == 64)
    #expect(FrameStream.stripRows(width: 16384, granularity: 8, tileRows: 32, threads: 8) == 256)
    // Segments of 85 rows and bands of 32: 2720 rows share both, within twice the target (4096).
    let rows = FrameStream.stripRows(width: 256, granularity: 85, tileRows: 32, threads: 2)
    #expect(rows == 2720)
    // Sharing both would be more than twice the target (1024): whole segments only.
    #expect(FrameStream.stripRows(width: 1024, granularity: 85, tileRows: 32, threads: 2) == 1020)
    // Bands too tall to share: whole segments only.
    #expect(FrameStream.stripRows(width: 16384, granularity: 8, tileRows: 1001, threads: 2) % 8 == 0)
    #expect(FrameStream.stripRows(width: 1, granularity: 65536, tileRows: 32, threads: 1) == 65536 * 16)
  }

  @Test(arguments: ["#ffffff", "#00000000"])
  func aThumbnailDrawnInChunksIsTheWholeFrame(background: String) throws {
    // 1024²: one or two strips (`stripRows`), but five to nine chunks (`ChunkedFrameWriter.chunkRows`:
    // 85-row segments in RGB, 63 in RGBA), so `writePNG` takes the chunked path.
    let plan = try FramePlan.make(Self.synthetic(background: background, size: (1024, 1024)))
    let expected = try Self.whole(plan)
    let granularity = try PNGStreamWriter(width: 1024, height: 1024, opaque: plan.isOpaque, options: .fast).rowGranularity
    for threads in [1, 2, 3] {
      let chunks = ChunkedFrameWriter.chunkRows(width: 1024, height: 1024, granularity: granularity, workers: threads)
      #expect((1024 + chunks - 1) / chunks >= 5, "\(threads) threads: chunks of \(chunks) rows")
      #expect(2 * FrameStream.stripRows(width: 1024, granularity: granularity, tileRows: 32, threads: threads) >= 1024)
      let actual = try Self.streamed(plan, options: RenderOptions(threads: threads))
      #expect(Self.firstDifference(actual, expected) == nil, "\(threads) threads: \(Self.firstDifference(actual, expected) ?? "")")
    }
  }

  @Test func chunkHeightsHoldWholeSegmentsAndShareTheFrame() {
    // 8192 wide: 1 MiB of pixels is 32 rows, three segments of 10.
    #expect(ChunkedFrameWriter.chunkRows(width: 8192, height: 8192, granularity: 10, workers: 1) == 30)
    #expect(ChunkedFrameWriter.chunkRows(width: 8192, height: 8192, granularity: 10, workers: 2) == 30)
    // 1024² on two workers: 255 rows (three segments of 85) would be five
    // chunks; a quarter of a worker's share (128 rows), rounded up to whole
    // segments, makes seven.
    #expect(ChunkedFrameWriter.chunkRows(width: 1024, height: 1024, granularity: 85, workers: 2) == 170)
    #expect(ChunkedFrameWriter.chunkRows(width: 1024, height: 1024, granularity: 85, workers: 1) == 255)
    // Never less than one segment.
    #expect(ChunkedFrameWriter.chunkRows(width: 65536, height: 100, granularity: 8, workers: 2) == 8)
    // A preferred height, rounded down to whole segments.
    #expect(ChunkedFrameWriter.chunkRows(width: 100, height: 1000, granularity: 10, workers: 2, preferred: 25) == 20)
  }

  /// Pixels of a `width` × `height` frame that compress to something other
  /// than a run of one byte: a gradient, translucent in its lower half.
  static func gradient(width: Int, height: Int) -> [UInt32] {
    (0..<(width * height)).map { i in
      let (x, y) = (UInt32(i % width), UInt32(i / width))
      let a: UInt32 = y < UInt32(height / 2) ? 255 : 128
      let r = (x * 255 / UInt32(width)) * a / 255
      let g = (y * 255 / UInt32(height)) * a / 255
      return r | g << 8 | ((x ^ y) & 0x3F) * a / 255 << 16 | a << 24
    }
  }

  @Test(arguments: [true, false])
  func rowsCompressedApartAndAppendedInOrderAreTheStreamsBytes(opaque: Bool) throws {
    let (width, height) = (1000, 500)
    let pixels = Self.gradient(width: width, height: height)
    let expected = try pixels.withUnsafeBufferPointer { p in
      try PNGEncoder.encode(premultipliedRGBA: p, width: width, height: height, opaque: opaque, options: .fast)
    }
    var options = PNGEncodingOptions.fast
    options.threads = 2
    let writer = try PNGStreamWriter(width: width, height: height, opaque: opaque, options: options)
    // 3001 bytes a scanline (RGB; 4001 RGBA): segments of 87 or 65 rows,
    // and 11 or 9 rows before each run for its dictionary.
    let g = writer.rowGranularity
    #expect(g == (opaque ? 87 : 65))
    #expect(writer.dictionaryRows(before: 0) == 0)
    #expect(writer.dictionaryRows(before: g) == (opaque ? 11 : 9))
    #expect(writer.dictionaryRows(before: 5) == 5, "no more rows than there are")
    var out: [UInt8] = []
    writer.drain { out += $0 }
    // Runs of two segments, compressed last first on alternating workers.
    let starts = Array(stride(from: 0, to: height, by: 2 * g))
    var runs: [PNGStreamWriter.CompressedRows] = []
    for (k, top) in starts.enumerated().reversed() {
      let lead = writer.dictionaryRows(before: top)
      let count = min(2 * g, height - top)
      var copy = Array(pixels[((top - lead) * width)..<((top + count) * width)])
      let run = try #require(PNGStreamWriter.CompressedRows())
      try copy.withUnsafeMutableBufferPointer { p in
        try writer.compress(consuming: p, firstRow: top, count: count, worker: k % 2, into: run)
      }
      runs.insert(run, at: 0)
    }
    // Out of order: refused.
    #expect(throws: PNGError.self) { try writer.append(runs[1]) }
    for run in runs {
      try writer.append(run)
      writer.drain { out += $0 }
    }
    #expect(writer.isComplete)
    #expect(Self.firstDifference(out, expected) == nil, "\(Self.firstDifference(out, expected) ?? "")")
  }

  @Test func theRowsWriterContract() throws {
    var options = PNGEncodingOptions.fast
    options.threads = 2
    let writer = try PNGStreamWriter(width: 1000, height: 500, opaque: true, options: options)
    var pixels = Self.gradient(width: 1000, height: 500)
    let run = try #require(PNGStreamWriter.CompressedRows())
    try pixels.withUnsafeMutableBufferPointer { p in
      // Not at a segment's first row; a run that ends mid-segment before the
      // image's end; no such worker; too few pixels.
      #expect(throws: PNGError.self) { try writer.compress(consuming: p, firstRow: 5, count: 87, worker: 0, into: run) }
      #expect(throws: PNGError.self) { try writer.compress(consuming: p, firstRow: 0, count: 50, worker: 0, into: run) }
      #expect(throws: PNGError.self) { try writer.compress(consuming: p, firstRow: 0, count: 87, worker: 2, into: run) }
      #expect(throws: PNGError.pixelBufferTooSmall(required: 1000 * (11 + 87), actual: 1000)) {
        try writer.compress(consuming: UnsafeMutableBufferPointer(rebasing: p[0..<1000]), firstRow: 87, count: 87, worker: 0, into: run)
      }
      try writer.compress(consuming: p, firstRow: 0, count: 87, worker: 1, into: run)
      try writer.append(run)
      // Rows come one way or the other, not both.
      #expect(throws: PNGError.self) {
        try writer.write(premultipliedRows: UnsafeBufferPointer(rebasing: p[87000...]), count: 87)
      }
    }
    #expect(writer.rowsWritten == 87)
  }

  @Test(arguments: [1, 2, 3])
  func framesOfManyChunksAreTheWholeFrameOnAnyWorkers(threads: Int) throws {
    // 600 × 2000 transparent: more than one strip's rows, RGBA.
    let plan = try FramePlan.make(Self.synthetic(background: "#00000000", size: (600, 2000)))
    let expected = try Self.whole(plan)
    for strip in [nil, 1, 7] as [Int?] {
      var encoding = PNGEncodingOptions.fast
      encoding.threads = threads
      let actual = try Self.streamed(plan, options: RenderOptions(threads: threads, tileRows: 5), encoding: encoding, stripRows: strip)
      #expect(Self.firstDifference(actual, expected) == nil, "strip \(strip ?? 0): \(Self.firstDifference(actual, expected) ?? "")")
    }
  }

  // MARK: - Nothing left behind

  @Test func aFailingOutputLeavesNoFileAndNoTemporaryFile() throws {
    try withTemporaryDirectory { dir in
      // About 2 MB of PNG: IDAT chunks reach the output 1 MiB at a time.
      let plan = try FramePlan.make(Self.golden("helsinki"), overrides: ViewOverrides(size: (4000, 4000)))
      let output = try OutputTarget(dir + "/out.png").openStreaming()
      var calls = 0
      #expect(throws: FrameWriteError.output(.failed(path: "out.png", reason: "injected"))) {
        try FrameStream.writePNG(plan, inputDigest: Self.digest) { (bytes: UnsafeRawBufferPointer) throws(FileError) in
          calls += 1
          // The header, then the first IDAT chunk, then a failure.
          if calls == 3 { throw FileError.failed(path: "out.png", reason: "injected") }
          try output.write(bytes)
        }
      }
      #expect(output.count > 1 << 20, "failed mid-way, after a chunk was written")
      output.discard()
      #expect(Files.list(dir).isEmpty, "left: \(Files.list(dir))")
    }
  }

  @Test func anUnfinishedOutputDroppedLeavesNothing() throws {
    try withTemporaryDirectory { dir in
      do {
        let output = try OutputTarget(dir + "/out.png").openStreaming()
        try [UInt8](repeating: 7, count: 1000).withUnsafeBytes { try output.write($0) }
        #expect(Files.list(dir).count == 1, "the temporary file")
      }
      #expect(Files.list(dir).isEmpty)
      let output = try OutputTarget(dir + "/out.png").openStreaming()
      try [UInt8](repeating: 7, count: 1000).withUnsafeBytes { try output.write($0) }
      try output.finish().commit()
      #expect(Files.list(dir) == ["out.png"])
      #expect(try Files.read(dir + "/out.png") == [UInt8](repeating: 7, count: 1000))
    }
  }
}
