import Foundation
import Synchronization
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// SHA-256, the PNG text chunk, and the input digest `--resume` compares.
@Suite struct InputDigestTests {
  @Test("SHA-256 known answers (FIPS 180-4 examples and the million a's)")
  func sha256KnownAnswers() {
    #expect(SHA256.hex(of: [UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    // Fed in uneven pieces, the digest is the same.
    var s = SHA256()
    let bytes = [UInt8](repeating: 0x61, count: 1_000_000)
    var at = 0
    for step in [1, 63, 64, 65, 127, 1000, 7] where at < bytes.count {
      s.update(bytes[at..<min(bytes.count, at + step)])
      at += step
    }
    s.update(bytes[at...])
    #expect(s.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test("the SHA instructions and the portable compression agree on every length and split")
  func sha256AcceleratedMatchesPortable() {
    var rng = SplitMix64(seed: 0x5A5A)
    var bytes: [UInt8] = []
    for _ in 0..<5000 { bytes.append(UInt8(truncatingIfNeeded: rng.next())) }
    for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 4097, 5000] {
      let message = bytes[0..<length]
      var fast = SHA256()
      var portable = SHA256(portableOnly: ())
      // Uneven pieces, so whole blocks come both from the caller's bytes and from the pending buffer.
      var at = 0
      var step = 1
      while at < length {
        let piece = message[at..<min(length, at + step)]
        fast.update(piece)
        portable.update(piece)
        at += step
        step = step * 3 + 1
      }
      #expect(fast.hexDigest() == portable.hexDigest(), "length \(length)")
      #expect(SHA256.hex(of: message) == portable.hexDigest(), "length \(length), one piece")
    }
    // The portable path alone on a known answer, so that the comparison is not between two wrong hashes.
    var portable = SHA256(portableOnly: ())
    portable.update(Array("abc".utf8))
    #expect(portable.hexDigest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  @Test("a tEXt chunk is inserted after IHDR, read back, and leaves the pixels alone")
  func textChunk() throws {
    #expect(PNGTextChunk.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    let pixels: [UInt32] = [0xFF00_00FF, 0x8000_FF00, 0x0000_0000, 0xFFFF_FFFF]
    let png = try pixels.withUnsafeBufferPointer { try PNGEncoder.encode(premultipliedRGBA: $0, width: 2, height: 2) }
    let tagged = PNGTextChunk.inserting(keyword: "mapsnap-inputs", text: "sha256:abc", into: png)
    #expect(tagged.count == png.count + 12 + "mapsnap-inputs".count + 1 + "sha256:abc".count)
    #expect(PNGTextChunk.text(keyword: "mapsnap-inputs", in: tagged) == "sha256:abc")
    #expect(PNGTextChunk.text(keyword: "other", in: tagged) == nil)
    #expect(PNGTextChunk.text(keyword: "mapsnap-inputs", in: png) == nil)
    #expect(try PNGDecoder.decode(tagged).pixels == (try PNGDecoder.decode(png).pixels))
    var corrupt = tagged
    corrupt[33 + 8 + 3] ^= 1  // a byte of the keyword: the CRC no longer matches
    #expect(PNGTextChunk.text(keyword: "mapsnap-inputs", in: corrupt) == nil)
    #expect(PNGTextChunk.text(keyword: "mapsnap-inputs", in: Array(tagged.prefix(40))) == nil, "truncated")
  }

  private func plan(_ dir: String, _ overrides: ViewOverrides = ViewOverrides(), threads: Int = 0) throws -> FramePlan {
    try FramePlan.make(try SceneLoader.load(path: dir + "/scene.json"), overrides: overrides, threads: threads)
  }

  private func writeScene(in dir: String, color: String = "#c33") throws {
    try Files.write(
      #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [24.94, 60.17]}}]}"#,
      to: dir + "/data/p.geojson")
    try Files.write(
      #"{"version": 1, "map": {"center": [24.94, 60.17], "scale": 4000, "size": [64, 64]}, "layers": [{"id": "p", "type": "features", "source": {"geojson": "data/p.geojson"}, "style": {"marker": {"size": 8, "fill": "\#(color)"}}}]}"#,
      to: dir + "/scene.json")
  }

  @Test("a file's digest is the SHA-256 of its bytes, read a chunk at a time; missing and empty files")
  func fileDigests() throws {
    let files = FileDigests()
    // 4 MB: many chunks, and a last one that is not full.
    let font = Repository.root + "/Fonts/DroidSansFallbackFull.ttf"
    #expect(files.digest(of: font) == SHA256.hex(of: try FileIO.read(font)))
    #expect(files.digest(of: font) == SHA256.hex(of: try FileIO.read(font)), "from the cache")
    // Hashed ahead on another thread: the same digest, waited for, not hashed twice over.
    let ahead = FileDigests()
    ahead.prefetch([font, font, Repository.root + "/Fonts/none.ttf"])
    ahead.prefetch([font])
    #expect(ahead.digest(of: font) == files.digest(of: font))
    #expect(ahead.digest(of: Repository.root + "/Fonts/none.ttf") == "missing")
    try withTemporaryDirectory { dir in
      try Files.write("", to: dir + "/empty")
      #expect(files.digest(of: dir + "/empty") == SHA256.hex(of: [UInt8]()))
      #expect(files.digest(of: dir + "/none") == "missing")
      #expect(files.digest(of: dir) == "missing", "a folder")
      // A FIFO is refused at once (opened non-blocking), not waited on.
      #expect(mkfifo(dir + "/fifo.ttf", 0o600) == 0)
      #expect(files.digest(of: dir + "/fifo.ttf") == "missing")
      // Exactly one chunk, then one byte more: the boundary.
      let chunk = [UInt8](repeating: 0x5A, count: FileDigests.chunkBytes)
      try Files.write(chunk, to: dir + "/chunk")
      #expect(files.digest(of: dir + "/chunk") == SHA256.hex(of: chunk))
      try Files.write(chunk + [1], to: dir + "/more")
      #expect(files.digest(of: dir + "/more") == SHA256.hex(of: chunk + [1]))
    }
  }


  /// Issue 37, item 1: a batch frame asked for its fonts' digests while the
  /// prefetch sat queued behind busy Dispatch workers, and waited about a
  /// second for Dispatch to add one. The worker here is held back and run
  /// only at the end, a schedule that shows the wait deterministically.
  @Test("an asker hashes a prefetched file itself when no worker has started on it, and never waits for one")
  func prefetchNeverWaitsForAWorkerThatHasNotStarted() throws {
    let font = Repository.root + "/Fonts/DroidSansFallbackFull.ttf"
    let other = Repository.root + "/Fonts/DejaVuSans.ttf"
    let held = Mutex<[@Sendable () -> Void]>([])
    let files = FileDigests(store: nil, worker: { work in held.withLock { $0.append(work) } })
    files.prefetch([font, other])
    #expect(held.withLock { $0.count } == 1, "the prefetch is queued, not run")
    // Asked on a thread of its own, bounded, so that a regression fails here instead of hanging the suite.
    let answered = DispatchSemaphore(value: 0)
    let digest = Mutex("")
    Thread.detachNewThread {
      let d = files.digest(of: font)
      digest.withLock { $0 = d }
      answered.signal()
    }
    #expect(answered.wait(timeout: .now() + 30) == .success, "digest(of:) waited for a worker that never started")
    #expect(digest.withLock { $0 } == SHA256.hex(of: try FileIO.read(font)))
    #expect(files.waits.load(ordering: .relaxed) == 0)
    // The worker then runs: it skips the file the asker took and hashes the other.
    for work in held.withLock({ $0 }) { work() }
    #expect(files.digest(of: other) == SHA256.hex(of: try FileIO.read(other)))
    #expect(files.waits.load(ordering: .relaxed) == 0)
  }
  @Test("digests kept on disk between processes: used only while the file keeps its identity, stored once it has settled")
  func digestStore() throws {
    try withTemporaryDirectory { dir in
      let font = dir + "/face.ttf"
      try Files.write([UInt8](repeating: 7, count: 1000), to: font)
      let real = SHA256.hex(of: [UInt8](repeating: 7, count: 1000))
      var st = stat()
      #expect(stat(font, &st) == 0)
      let identity = DigestStore.Identity(st)
      var store = DigestStore(directory: dir + "/home/.cache/mapsnap")  // folders made as needed
      // Just written: not settled, so not stored (a write in the same clock
      // tick could keep the times).
      store.store(real, of: font, identity: identity)
      #expect(store.digest(of: font, identity: identity) == nil)
      // Settled (as if 3 s after the file's last change, by the file's own
      // times: the machine's clock may be stepped meanwhile): stored and
      // found, for this identity and path only.
      let settled = max(identity.modified, identity.changed) / 1_000_000_000 + 3
      store.store(real, of: font, identity: identity, now: settled)
      #expect(store.digest(of: font, identity: identity) == real)
      #expect(store.digest(of: dir + "/other.ttf", identity: identity) == nil)
      for change in [\DigestStore.Identity.size, \.modified, \.changed] {
        var other = identity
        other[keyPath: change] += 1
        #expect(store.digest(of: font, identity: other) == nil, "\(change)")
      }
      // The next process's FileDigests takes the stored digest: a planted
      // one, for the file's real identity, shows that the file is not read.
      let planted = String(repeating: "ab", count: 32)
      store.store(planted, of: font, identity: identity, now: settled)
      #expect(FileDigests(store: store).digest(of: font) == planted)
      #expect(FileDigests().digest(of: font) == real, "without a store, the file itself")
      // A changed file (its size, times and change time) is hashed again and the entry replaced.
      try Files.write([UInt8](repeating: 8, count: 999), to: font)
      store.settleSeconds = -10
      let changed = SHA256.hex(of: [UInt8](repeating: 8, count: 999))
      #expect(FileDigests(store: store).digest(of: font) == changed)
      #expect(stat(font, &st) == 0)
      #expect(store.digest(of: font, identity: DigestStore.Identity(st)) == changed)
      // A damaged entry is no entry; a store that cannot be written costs nothing.
      try Files.write("mapsnap-digest-1 garbage", to: store.entryPath(font))
      #expect(store.digest(of: font, identity: DigestStore.Identity(st)) == nil)
      #expect(FileDigests(store: store).digest(of: font) == changed)
      try Files.write("not a folder", to: dir + "/file")
      #expect(FileDigests(store: DigestStore(directory: dir + "/file/cache")).digest(of: font) == changed)
    }
  }

  @Test("a GeoJSON source's digest comes from the store while the file keeps its identity, and is stored once it has settled")
  func sourceDigestStore() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/p.geojson"
      let text = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [24.94, 60.17]}}]}"#
      try Files.write(text, to: path)
      let real = SHA256.hex(of: Array(text.utf8))
      var store = DigestStore(directory: dir + "/cache")
      store.settleSeconds = -10  // as if the file were old
      let source = Source.file(path: "p.geojson", resolved: path)
      let first = try SourceLoader(digestStore: store).load(source).get()
      #expect(first.contentDigest == real)
      var st = stat()
      #expect(stat(path, &st) == 0)
      #expect(store.digest(of: path, identity: DigestStore.Identity(st)) == real, "stored by the first read")
      // A planted digest for the file's identity is taken: the bytes are not hashed.
      let planted = String(repeating: "cd", count: 32)
      store.store(planted, of: path, identity: DigestStore.Identity(st))
      let second = try SourceLoader(digestStore: store).load(source).get()
      #expect(second.contentDigest == planted)
      #expect(second.features == first.features)
      #expect(try SourceLoader().load(source).get().contentDigest == real, "without a store, the bytes themselves")
    }
  }

  @Test("the store keeps at most maximumEntries: past it the oldest stored go, down to three quarters; stale temporary files go too")
  func digestStoreIsBounded() throws {
    try withTemporaryDirectory { dir in
      var store = DigestStore(directory: dir + "/cache")
      store.maximumEntries = 8
      store.settleSeconds = -10
      let file = dir + "/f"
      try Files.write("x", to: file)
      var st = stat()
      #expect(stat(file, &st) == 0)
      let identity = DigestStore.Identity(st)
      func digest(_ k: Int) -> String { String(repeating: String(format: "%02x", k), count: 32) }
      // Paths whose entries do not prune, stored one after another (their
      // times set apart), then one whose entry does.
      let quiet = (0..<400).map { "/data/\($0).geojson" }.filter { path in
        !DigestStore.pruningPrefixes.contains(store.entryName(path).prefix(2))
      }
      let loud = try #require((0..<4000).lazy.map { "/data/p\($0).geojson" }.first { path in
        DigestStore.pruningPrefixes.contains(store.entryName(path).prefix(2))
      })
      for (k, path) in quiet.prefix(12).enumerated() {
        store.store(digest(k), of: path, identity: identity)
        var times = [timespec(tv_sec: 1_000_000 + k, tv_nsec: 0), timespec(tv_sec: 1_000_000 + k, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, store.entryPath(path), &times, 0) == 0)
      }
      let stale = dir + "/cache/digests/.tmp-1-2"
      try Files.write("half", to: stale)
      var old = [timespec(tv_sec: time(nil) - 120, tv_nsec: 0), timespec(tv_sec: time(nil) - 120, tv_nsec: 0)]
      #expect(utimensat(AT_FDCWD, stale, &old, 0) == 0)
      let fresh = dir + "/cache/digests/.tmp-1-3"
      try Files.write("being written", to: fresh)
      #expect(Files.list(dir + "/cache/digests").count == 14, "12 entries and 2 temporary files: nothing pruned yet")
      store.store(digest(99), of: loud, identity: identity)
      let left = Files.list(dir + "/cache/digests")
      #expect(left.count == 7, "6 entries (three quarters of 8) and the fresh temporary file: \(left)")
      #expect(!left.contains(".tmp-1-2") && left.contains(".tmp-1-3"))
      // The newest stayed: the loud one and the last five quiet ones.
      #expect(store.digest(of: loud, identity: identity) == digest(99))
      for (k, path) in quiet.prefix(12).enumerated() {
        #expect((store.digest(of: path, identity: identity) != nil) == (k >= 7), "entry \(k)")
      }
    }
  }

  @Test("the standard store: MAPSNAP_CACHE_DIR, else XDG_CACHE_HOME, else HOME; an empty MAPSNAP_CACHE_DIR is none")
  func standardDigestStore() {
    func store(_ env: [String: String]) -> String? { DigestStore.standard { env[$0] }?.directory }
    #expect(store(["HOME": "/home/u"]) == "/home/u/.cache/mapsnap")
    #expect(store(["HOME": "/home/u", "XDG_CACHE_HOME": "/x"]) == "/x/mapsnap")
    #expect(store(["HOME": "/home/u", "XDG_CACHE_HOME": "/x", "MAPSNAP_CACHE_DIR": "/c"]) == "/c")
    #expect(store(["HOME": "/home/u", "MAPSNAP_CACHE_DIR": ""]) == nil)
    #expect(store(["HOME": "relative", "XDG_CACHE_HOME": "also"]) == nil)
    #expect(store([:]) == nil)
  }

  @Test("the digest follows the scene, its sources, the frame and the encoding, not thread counts")
  func digestFollowsInputs() throws {
    try withTemporaryDirectory { dir in
      try writeScene(in: dir)
      let files = FileDigests()
      let base = InputDigest.of(try plan(dir), encoding: .fast, files: files)
      #expect(base.hasPrefix("sha256:") && base.count == 7 + 64)
      #expect(InputDigest.of(try plan(dir, threads: 1), encoding: .fast, files: files) == base, "threads change no byte")
      var fastOneThread = PNGEncodingOptions.fast
      fastOneThread.threads = 1
      #expect(InputDigest.of(try plan(dir), encoding: fastOneThread, files: files) == base)
      #expect(InputDigest.of(try plan(dir), encoding: .small, files: files) != base, "compression changes the bytes")
      #expect(InputDigest.of(try plan(dir, ViewOverrides(scale: 4001)), encoding: .fast, files: files) != base)
      // The same scale given as a zoom level gives the same frame.
      let z = log2(MapProjection.webMercator.zoom0Scale! / 4000)
      #expect(InputDigest.of(try plan(dir, ViewOverrides(zoom: z)), encoding: .fast, files: files) == base)
      // A source's bytes change: so does the digest (size differs, so the cache re-reads it).
      try Files.write(
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [24.9401, 60.17]}}]}"#,
        to: dir + "/data/p.geojson")
      let moved = InputDigest.of(try plan(dir), encoding: .fast, files: files)
      #expect(moved != base)
      try writeScene(in: dir, color: "#c34")
      #expect(InputDigest.of(try plan(dir), encoding: .fast, files: files) != moved, "the scene's own bytes")
    }
  }

  @Test("the digest records the bytes a source was decoded from, even when the file changes later")
  func digestFollowsDecodedBytes() throws {
    try withTemporaryDirectory { dir in
      try writeScene(in: dir)
      let sources = SourceLoader()
      let scene = try SceneLoader.load(path: dir + "/scene.json")
      let before = InputDigest.of(try FramePlan.make(scene, sources: sources), encoding: .fast, files: FileDigests())
      try Files.write(
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [24.9401, 60.17]}}]}"#,
        to: dir + "/data/p.geojson")
      // The loader still draws what it decoded: so does the digest say.
      #expect(InputDigest.of(try FramePlan.make(scene, sources: sources), encoding: .fast, files: FileDigests()) == before)
      #expect(InputDigest.of(try FramePlan.make(scene, sources: SourceLoader()), encoding: .fast, files: FileDigests()) != before)
    }
  }

  @Test("a report written beside the PNG, and its detail, are in the digest")
  func digestFollowsReportDetail() throws {
    try withTemporaryDirectory { dir in
      try writeScene(in: dir)
      let p = try plan(dir)
      let none = InputDigest.of(p, encoding: .fast, files: FileDigests())
      let full = InputDigest.of(p, encoding: .fast, report: .full, files: FileDigests())
      let counts = InputDigest.of(p, encoding: .fast, report: .counts, files: FileDigests())
      #expect(Set([none, full, counts]).count == 3)
    }
  }

  @Test("the PNG of a snapshot carries its digest")
  func snapshotCarriesDigest() throws {
    try withTemporaryDirectory { dir in
      try writeScene(in: dir)
      let p = try plan(dir)
      let png = try Snapshot.render(p).pngData()
      #expect(PNGTextChunk.text(keyword: PNGTextChunk.inputsKeyword, in: png) == InputDigest.of(p, encoding: .fast, files: FileDigests()))
    }
  }
}

/// `FeatureDigest` gathers a feature's pieces in chunks and hashes them
/// when the digest is first asked for (or as it goes, past `keptLimit`):
/// its digest must be the SHA-256 of exactly the bytes its rule names, in
/// order, wherever the chunks' edges fall (pieces that straddle an edge,
/// geometries larger than a chunk, reads larger than the limit).
@Suite struct FeatureDigestTests {
  /// The rule written out again, byte by byte: FID (8 bytes, little-endian),
  /// the geometry, then per property its key's UTF-8, a tag (1 string, 2
  /// number, 3 boolean, 0 anything else) and the value.
  private func reference(_ features: [(fid: Int, geometry: [UInt8], properties: JSONObject)]) -> String {
    var bytes: [UInt8] = []
    for f in features {
      withUnsafeBytes(of: Int64(f.fid).littleEndian) { bytes += $0 }
      bytes += f.geometry
      for (key, value) in f.properties.pairs {
        bytes += Array(key.utf8)
        switch value {
        case .string(let t): bytes += [1] + Array(t.utf8)
        case .number(let n): bytes.append(2); withUnsafeBytes(of: n.bitPattern.littleEndian) { bytes += $0 }
        case .bool(let v): bytes += [3, v ? 1 : 0]
        default: bytes.append(0)
        }
      }
    }
    return "sha256:" + SHA256.hex(of: bytes)
  }

  @Test(arguments: [1, 7, 333, 5_000])
  func equalsTheHashOfItsBytes(features count: Int) {
    var random = SplitMix64(seed: UInt64(count))
    var features: [(fid: Int, geometry: [UInt8], properties: JSONObject)] = []
    for i in 0..<count {
      // Mostly small geometries, some around the buffer's size and beyond.
      let size: Int
      switch i % 50 {
      case 7: size = ContentDigest.Pending.chunkBytes - 3
      case 19: size = ContentDigest.Pending.chunkBytes * 2 + 5
      default: size = Int(random.next() % 300)
      }
      let geometry = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let properties = JSONObject([
        ("name", .string("feature \(i) " + String(repeating: "é", count: Int(random.next() % 40)))),
        ("rank", .number(Double(random.next() % 1000) / 7)), ("open", .bool(i % 3 == 0)), ("note", .null),
      ])
      features.append((i * 3 - 5, geometry, properties))
    }
    var digest = FeatureDigest()
    for f in features {
      f.geometry.withUnsafeBytes { digest.add(fid: f.fid, geometry: $0, properties: f.properties) }
    }
    #expect(digest.finish().value == reference(features))
  }

  /// The buffer's edge right before a one-byte tag (geometry B − 12: FID 8 +
  /// geometry + "name" 4 = B), and inside an 8-byte number (geometry B − 22
  /// leaves 3 bytes for it).
  @Test(arguments: [ContentDigest.Pending.chunkBytes - 12, ContentDigest.Pending.chunkBytes - 22])
  func scalarAtTheBuffersEdge(geometryBytes: Int) {
    let geometry = [UInt8](repeating: 0xA5, count: geometryBytes)
    let properties = JSONObject([("name", .string("x")), ("rank", .number(12.5)), ("open", .bool(true))])
    var digest = FeatureDigest()
    for fid in 0..<3 { geometry.withUnsafeBytes { digest.add(fid: fid, geometry: $0, properties: properties) } }
    #expect(digest.finish().value == reference((0..<3).map { ($0, geometry, properties) }))
  }

  /// Past `keptLimit` the chunks are hashed as the read goes and one is
  /// reused: the same digest, from 43 MiB of geometries between small
  /// features.
  @Test func beyondTheKeptLimit() {
    var random = SplitMix64(seed: 40)
    var features: [(fid: Int, geometry: [UInt8], properties: JSONObject)] = []
    for i in 0..<24 {
      let size = i % 3 == 1 ? ContentDigest.Pending.keptLimit / 3 + 17 : Int(random.next() % 500)
      let geometry = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      features.append((i, geometry, JSONObject([("name", .string("f\(i)")), ("rank", .number(Double(i)))])))
    }
    #expect(features.reduce(0) { $0 + $1.geometry.count } > 2 * ContentDigest.Pending.keptLimit)
    var digest = FeatureDigest()
    for f in features {
      f.geometry.withUnsafeBytes { digest.add(fid: f.fid, geometry: $0, properties: f.properties) }
    }
    #expect(digest.finish().value == reference(features))
  }

  /// The kept bytes are hashed once, by the first to ask: threads asking at
  /// once all get the one value, and it is kept.
  @Test func hashedOnceWhenAsked() {
    let geometry = [UInt8](repeating: 7, count: 3 * ContentDigest.Pending.chunkBytes + 5)
    var digest = FeatureDigest()
    geometry.withUnsafeBytes { digest.add(fid: 1, geometry: $0, properties: JSONObject()) }
    let content = digest.finish()
    #expect(content.isPending)
    let values = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      let v = content.value
      values.withLock { $0.append(v) }
    }
    let expected = reference([(1, geometry, JSONObject())])
    #expect(values.withLock { $0 } == Array(repeating: expected, count: 8))
    #expect(!content.isPending && content.value == expected)
  }

  @Test func emptyReadHashesNothing() {
    #expect(FeatureDigest().finish().value == "sha256:" + SHA256.hex(of: [UInt8]()))
  }
}
