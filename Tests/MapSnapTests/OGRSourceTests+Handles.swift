import Foundation
import Synchronization
import Testing
import _MapSnapTestSupport

@testable import MapSnap
@testable import _MapSnapRaster

/// The GDAL handles and open datasets shared between threads: pooled,
/// bounded, closed, and a failure kept for a while.
extension OGRSourceTests {
  /// The handles a `countingPool` closed, in order.
  final class ClosedHandles: Sendable {
    let list = Mutex<[Int]>([])
    var all: [Int] { list.withLock { $0 } }
  }

  /// A pool of handles numbered 1, 2, 3… in the order they are opened,
  /// each added to `closed` when closed.
  static func countingPool(_ closed: ClosedHandles = ClosedHandles()) -> HandlePool<Int> {
    let last = Mutex(1)
    return HandlePool<Int>(
      first: 1,
      open: {
        .success(last.withLock { n in
          n += 1
          return n
        })
      }, close: { h in closed.list.withLock { $0.append(h) } })
  }

  /// The pool's rule: a handle in use is never handed out again; one more
  /// is opened instead, and handles given back are reused.
  @Test func aHandleInUseIsNeverSharedAndFreeOnesAreReused() throws {
    let pool = Self.countingPool()
    let pair = try pool.with { a in pool.with { b in .success((a, b)) } }.get()
    #expect(pair.0 != pair.1, "two readers at once got handle \(pair.0)")
    #expect(pool.opened == 2)
    let again = try pool.with { a in pool.with { b in .success((a, b)) } }.get()
    #expect(Set([again.0, again.1]) == Set([pair.0, pair.1]), "handles given back are reused")
    #expect(pool.opened == 2)
  }

  /// A pool closes every handle it opened when it goes.
  @Test func aPoolClosesItsHandlesWhenItGoes() throws {
    let closed = ClosedHandles()
    do {
      let pool = Self.countingPool(closed)
      _ = pool.with { _ in pool.with { _ in Result<Void, SourceError>.success(()) } }
      #expect(closed.all.isEmpty, "nothing closes while the pool lives")
    }
    #expect(closed.all.sorted() == [1, 2])
  }

  /// A handle the driver failed on is closed, not reused (a connection the
  /// server cut would fail every later read); a missing layer keeps it.
  @Test func aHandleTheDriverFailedOnIsClosed() throws {
    let closed = ClosedHandles()
    let pool = Self.countingPool(closed)
    _ = pool.with { _ in Result<Void, SourceError>.failure(.ogrLayer(path: "d", layer: "x", layers: [])) }
    #expect(closed.all.isEmpty && pool.opened == 1)
    _ = pool.with { _ in Result<Void, SourceError>.failure(.ogr(path: "d", message: "server closed the connection unexpectedly")) }
    #expect(closed.all == [1] && pool.opened == 0)
    let used = try pool.with { h in .success(h) }.get()
    #expect(used == 2, "a new handle after the broken one")
  }

  /// At most `OpenDatasets.limit` datasets stay open: the oldest opened
  /// goes first; a failure is kept like a dataset (not tried again while
  /// it is fresh).
  @Test func openDatasetsAreBoundedOldestFirst() throws {
    final class Dataset: Sendable {}
    let open = OpenDatasets<Dataset>()
    let first = try open.dataset("d0") { .success(Dataset()) }.get()
    for k in 1...OpenDatasets<Dataset>.limit { _ = open.dataset("d\(k)") { .success(Dataset()) } }
    #expect(open.names.count == OpenDatasets<Dataset>.limit)
    #expect(!open.names.contains("d0") && open.names.last == "d\(OpenDatasets<Dataset>.limit)")
    let again = try open.dataset("d0") { .success(Dataset()) }.get()
    #expect(again !== first, "d0 was opened anew after it went")
    var tries = 0
    for _ in 0..<2 {
      _ = open.dataset("missing") {
        tries += 1
        return .failure(.ogr(path: "missing", message: "no such file"))
      }
    }
    #expect(tries == 1)
  }

  /// A database that went away: its connection broke and connecting fails.
  /// The pool keeps that failure `OGRSource.failureKeptSeconds` (reads
  /// meanwhile get it without connecting), then connects again.
  @Test func aPoolKeepsAFailureToConnectForAWhile() throws {
    let now = Atomic<Int>(0)  // milliseconds
    let up = Atomic<Bool>(false)
    let tries = Atomic<Int>(0)
    let pool = HandlePool<Int>(
      first: 1,
      open: {
        tries.add(1, ordering: .relaxed)
        return up.load(ordering: .relaxed) ? .success(2) : .failure(.database(path: "PG:dbname=gis", message: "connection refused"))
      }, close: { _ in }, clock: { Double(now.load(ordering: .relaxed)) / 1000 })
    let down = Result<Int, SourceError>.failure(.database(path: "PG:dbname=gis", message: "server closed the connection unexpectedly"))
    _ = pool.with { _ in down }  // the open connection breaks and is closed
    #expect(pool.opened == 0)
    for _ in 0..<3 { #expect(throws: SourceError.self) { try pool.with { h in .success(h) }.get() } }
    #expect(tries.load(ordering: .relaxed) == 1, "one try to connect, its failure kept")
    up.store(true, ordering: .relaxed)
    now.store(Int(OGRSource.failureKeptSeconds * 1000) - 1, ordering: .relaxed)
    #expect(throws: SourceError.self) { try pool.with { h in .success(h) }.get() }
    now.store(Int(OGRSource.failureKeptSeconds * 1000), ordering: .relaxed)
    #expect(try pool.with { h in .success(h) }.get() == 2)
    #expect(tries.load(ordering: .relaxed) == 2 && pool.opened == 1)
  }

  /// Names open side by side: a name whose open is slow (a database timing
  /// out) does not hold up another's; threads asking for the slow one wait
  /// for its one open.
  @Test func openDatasetsOpenNamesSideBySide() throws {
    final class Dataset: Sendable {}
    let open = OpenDatasets<Dataset>()
    let slowStarted = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let opens = Atomic<Int>(0)
    let done = DispatchGroup()
    for _ in 0..<2 {
      DispatchQueue.global().async(group: done) {
        _ = open.dataset("PG:host=slow") {
          opens.add(1, ordering: .relaxed)
          slowStarted.signal()
          // Held until the other name has opened (at most 10 s).
          _ = release.wait(timeout: .now() + 10)
          return .success(Dataset())
        }
      }
    }
    #expect(slowStarted.wait(timeout: .now() + 10) == .success)
    let started = monotonicSeconds()
    _ = open.dataset("fast.gpkg") { .success(Dataset()) }
    #expect(monotonicSeconds() - started < 5, "another name waited for the slow open")
    release.signal()
    done.wait()
    #expect(opens.load(ordering: .relaxed) == 1, "both threads got the one open of the slow name")
  }

  /// A failure to open is kept `OGRSource.failureKeptSeconds`, then tried
  /// again (a database back from a restart serves the rest of a batch); an
  /// open dataset is kept however long ago it opened.
  @Test func aFailureToOpenIsTriedAgainOnceItIsStale() throws {
    final class Dataset: Sendable {}
    let now = Atomic<Int>(0)  // milliseconds
    let open = OpenDatasets<Dataset>(clock: { Double(now.load(ordering: .relaxed)) / 1000 })
    let limit = Int(OGRSource.failureKeptSeconds * 1000)
    var tries = 0
    var up = false
    func get() -> Result<Dataset, SourceError> {
      open.dataset("PG:dbname=gis") {
        tries += 1
        return up ? .success(Dataset()) : .failure(.database(path: "PG:dbname=gis", message: "connection refused"))
      }
    }
    guard case .failure = get() else { Issue.record("the server is down"); return }
    up = true
    now.store(limit - 1, ordering: .relaxed)
    guard case .failure = get() else { Issue.record("a fresh failure is kept"); return }
    #expect(tries == 1)
    now.store(limit, ordering: .relaxed)
    let back = try get().get()
    #expect(tries == 2 && open.names == ["PG:dbname=gis"])
    now.store(100 * limit, ordering: .relaxed)
    #expect(try get().get() === back)
    #expect(tries == 2, "an open dataset is kept")
  }

  /// Threads reading one dataset at once (a batch's workers, a frame's
  /// layers read side by side) each read what the same read gives alone:
  /// for GeoPackage through SQLite and for FlatGeobuf through GDAL.
  @Test(arguments: [(Self.data + "helsinki.gpkg", "pois"), (Self.data + "helsinki_pois.fgb", nil)])
  func readsAtOnceEqualReadsAlone(path: String, layer: String?) throws {
    let source = OGRSource(name: "t", resolved: path, layer: layer)
    let filters = (0..<8).map { k in
      let x = 24.90 + 0.01 * Double(k)
      return Rect(minX: x, minY: 60.160, maxX: x + 0.02, maxY: 60.175)
    }
    let alone = try filters.map { f in try SourceLoader().ogr(source, near: f).get() }
    let together = Mutex<[Int: (String?, Int)]>([:])
    DispatchQueue.concurrentPerform(iterations: filters.count * 4) { i in
      // A loader per read, so that none is served by another's kept read.
      if case .success(let (c, info)) = SourceLoader().ogr(source, near: filters[i % filters.count]) {
        together.withLock { $0[i] = (c.contentDigest, info.featuresRead) }
      }
    }
    let got = together.withLock { $0 }
    #expect(got.count == filters.count * 4)
    for (i, r) in got {
      let a = alone[i % filters.count]
      #expect(r.0 == a.collection.contentDigest && r.1 == a.info.featuresRead, "read \(i)")
    }
    #expect(Set(alone.map(\.info.featuresRead)).count > 1, "the filters read different features")
  }
}
