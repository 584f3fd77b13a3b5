import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The digest of everything a frame's PNG bytes depend on, so that
/// `mapsnap batch --resume` can tell an output made from the same inputs
/// from a stale one without side files: it is written into the PNG itself
/// (a `tEXt` chunk, `PNGTextChunk.inputsKeyword`) by every render, batch or
/// single, and does not depend on the output's path.
///
/// The rule: SHA-256 over lines naming, in a fixed order,
/// - the mapsnap version (`MapSnapVersion.current`);
/// - the scene's bytes with its overlays (`Scene.contentDigest`);
/// - the bytes each layer's source was decoded from (`LayerInputs.sourceDigest`,
///   recorded when decoded, so a file that changes during a batch is
///   recorded as drawn) and of every marker icon looked up
///   (`ResolvedInputs.iconDigests`); a file that cannot be read counts as its error;
/// - the bytes of every font file the frame was laid out with, and how its
///   text was shaped (the HarfBuzz version, `TextPlacement.shaping`);
/// - the tiles each tiles layer actually read (`TileInputs.inputDigest`)
///   and the attribution line drawn (which a tile set's metadata may give);
/// - the frame as resolved: centre (map units), scale, size, pixel ratio,
///   dpi, spatial reference and floor, so `--zoom` and the equivalent
///   `--scale` agree;
/// - the PNG encoding options (the palette's size and dithering when a
///   palette is asked for: a line only then), and whether a report is written with the
///   frame and in which detail (so `--resume` redraws a frame whose report
///   was asked for in another detail).
/// Thread counts and band heights are not part of it: they never change a
/// byte.
public enum InputDigest {
  /// The digest of `plan` encoded with `encoding` (and written with a report
  /// of `report` detail, nil for none), as `sha256:` and 64 hexadecimal
  /// digits. `files` caches the font files' digests across frames.
  public static func of(_ plan: FramePlan, encoding: PNGEncodingOptions, report: ReportDetail? = nil, files: FileDigests) -> String {
    var lines: [String] = ["mapsnap \(MapSnapVersion.current)", "scene \(plan.scene.contentDigest)"]
    for (i, layer) in plan.state.layers.enumerated() {
      let read = plan.inputs.layers[i]
      if let source = read.sourceDigest { lines.append("layers[\(i)].source \(source)") }
      if layer.tiles != nil { lines.append("layers[\(i)].tiles \(read.tiles?.inputDigest ?? "")") }
    }
    for (path, digest) in plan.inputs.iconDigests.sorted(by: { $0.key < $1.key }) {
      lines.append("icon \(path.split(separator: "/").last ?? "") \(digest)")
    }
    lines.append("attribution \(plan.attribution.text.map { "\"\($0)\"" } ?? "none")")
    for path in plan.fontFiles { lines.append("font \(files.digest(of: path))") }
    if let shaping = plan.text.shaping { lines.append("shaping \(shaping)") }
    let v = plan.state.viewport
    lines.append(
      "frame \(v.centerMap.x) \(v.centerMap.y) \(v.scale) \(v.width)x\(v.height) \(v.pixelRatio) \(v.dpi) \(v.projection.epsgCode.map(String.init) ?? v.projection.identifier)")
    lines.append("floor \(plan.state.floor.map { "\"\($0.text)\"" } ?? "none")")
    lines.append("png \(encoding.effectiveDeflater.rawValue) \(encoding.compressionLevel) \(encoding.filter.name)")
    if let palette = encoding.palette { lines.append("palette \(palette.colors) \(palette.dither ? "dither" : "plain")") }
    lines.append("report \(report?.rawValue ?? "none")")
    var sha = SHA256()
    for line in lines { sha.update(line + "\n") }
    return "sha256:" + sha.hexDigest()
  }
}

/// SHA-256 digests of files, kept per path and recomputed only when a
/// file's identity changes (`DigestStore.Identity`: device, inode, size,
/// modification and change times); with a `DigestStore`, also
/// kept on disk for the next process (by the file's full identity, see
/// `DigestStore`). Thread-safe.
///
/// `prefetch` starts hashing files on another thread as soon as they are
/// known (a frame's fonts, once its font library is chosen), so that the
/// hashing overlaps the rest of planning and drawing. Whoever comes first
/// hashes a file: the prefetching worker, or the thread that asks for its
/// digest (`digest(of:)`) before that worker has started on it. An asker
/// waits only for a file a running thread is hashing, never for a worker
/// that may not start: in a batch every Dispatch worker can be busy
/// drawing a frame, and Linux's Dispatch adds a worker only when its
/// monitor next looks, about a second later.
public final class FileDigests: Sendable {
  private struct Entry {
    var identity: DigestStore.Identity
    var digest: String
  }

  /// A file `prefetch` was asked for: waiting for its worker, or being
  /// hashed by a running thread (the group to wait on).
  private enum Flight {
    case queued
    case hashing(DispatchGroup)
  }

  private let entries = Mutex<[String: Entry]>([:])
  private let inFlight = Mutex<[String: Flight]>([:])
  /// Runs `prefetch`'s work on another thread.
  private let worker: @Sendable (@escaping @Sendable () -> Void) -> Void
  /// Times an asker waited for a file being hashed by another thread.
  let waits = Atomic<Int>(0)
  /// Digests kept between processes, or nil.
  public let store: DigestStore?

  /// Digests kept in this object, and in `store` when given (the `mapsnap`
  /// command passes `DigestStore.standard`).
  public convenience init(store: DigestStore? = nil) {
    self.init(store: store, worker: { work in DispatchQueue.global().async(execute: work) })
  }

  /// With `worker` running `prefetch`'s work (tests hold it back).
  init(store: DigestStore?, worker: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
    self.store = store
    self.worker = worker
  }

  /// Starts hashing `paths` on another thread, in order; files already
  /// asked for are left to whoever has them.
  public func prefetch(_ paths: [String]) {
    let mine = inFlight.withLock { flying -> [String] in
      var out: [String] = []
      for p in paths where flying[p] == nil && !out.contains(p) {
        flying[p] = .queued
        out.append(p)
      }
      return out
    }
    guard !mine.isEmpty else { return }
    worker {
      for p in mine {
        guard let group = self.claim(p) else { continue }
        self.hashClaimed(p, group)
      }
    }
  }

  /// The file's digest in hexadecimal, or `missing` when it cannot be read.
  /// The file is read and hashed a chunk at a time through one small
  /// buffer that stays in the cache, not copied whole into fresh memory
  /// first: the fonts of a labelled frame are 5.5 MB, and that copy (with
  /// its page faults) cost as much as the hash.
  public func digest(of path: String) -> String {
    let (mine, running) = inFlight.withLock { flying -> (DispatchGroup?, DispatchGroup?) in
      switch flying[path] {
      case nil: return (nil, nil)
      case .hashing(let g): return (nil, g)
      case .queued:
        let g = DispatchGroup()
        g.enter()
        flying[path] = .hashing(g)
        return (g, nil)
      }
    }
    if let mine { return hashClaimed(path, mine) }
    if let running {
      waits.add(1, ordering: .relaxed)
      running.wait()
    }
    return hash(path)
  }

  /// Takes a queued file for the calling thread: the group others wait on,
  /// or nil when another thread has it or it is done.
  private func claim(_ path: String) -> DispatchGroup? {
    inFlight.withLock { flying in
      guard case .queued? = flying[path] else { return nil }
      let g = DispatchGroup()
      g.enter()
      flying[path] = .hashing(g)
      return g
    }
  }

  /// Hashes a file this thread claimed, then lets its waiters go.
  @discardableResult
  private func hashClaimed(_ path: String, _ group: DispatchGroup) -> String {
    let d = hash(path)
    inFlight.withLock { $0[path] = nil }
    group.leave()
    return d
  }

  /// The digest, from the cache while the file keeps its identity, else
  /// from the store, else read and hashed now.
  private func hash(_ path: String) -> String {
    // The library's one way of opening a file to read (non-blocking, a
    // regular file only: a FIFO named like a font must not hang the digest).
    guard let (fd, _) = try? FileIO.openForReading(path) else { return "missing" }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return "missing" }
    let identity = DigestStore.Identity(st)
    if let e = entries.withLock({ $0[path] }), e.identity == identity { return e.digest }
    if let stored = store?.digest(of: path, identity: identity) {
      entries.withLock { $0[path] = Entry(identity: identity, digest: stored) }
      return stored
    }
    var sha = SHA256()
    let chunk = Self.chunkBytes
    let ok = withUnsafeTemporaryAllocation(byteCount: chunk, alignment: 64) { buffer -> Bool in
      while true {
        let n = read(fd, buffer.baseAddress, chunk)
        if n == 0 { return true }
        if n < 0 {
          if errno == EINTR { continue }
          return false
        }
        sha.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
      }
    }
    guard ok else { return "missing" }
    let digest = sha.hexDigest()
    entries.withLock { $0[path] = Entry(identity: identity, digest: digest) }
    store?.store(digest, of: path, identity: identity)
    return digest
  }

  /// Bytes read and hashed at a time: 256 KiB, well inside the L2 cache.
  static let chunkBytes = 256 << 10
}
