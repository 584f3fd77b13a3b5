import Synchronization

/// The open handles of one dataset (SQLite connections to a GeoPackage,
/// libpq connections to PostGIS, GDAL datasets), each used by one thread
/// at a time: none of them may be used by two threads at once (an SQLite
/// connection is opened without its mutex).
///
/// Rule: a read takes a free handle, or opens one more when every handle is
/// in use, and gives it back when done; handles stay open with their
/// dataset, but for one the driver or database failed on (`breaks`), which
/// is closed. So a dataset has as many handles as threads ever read it at
/// once (in a batch, at most its `--jobs` workers plus the layers one frame
/// reads side by side), and no read waits for another's. Measured against
/// one handle behind a lock in BENCHMARKS.md (issue 15). A failure to open
/// one more (a database that went away: its connections broke, and
/// connecting fails) is kept `OGRSource.failureKeptSeconds`, as
/// `OpenDatasets` keeps one to open the dataset: reads meanwhile that find
/// no free handle get it without each waiting out a connection timeout;
/// the first after it tries again.
final class HandlePool<Handle>: @unchecked Sendable {
  private let free: Mutex<[Box]>
  private let opener: @Sendable () -> Result<Handle, SourceError>
  private let closer: @Sendable (Handle) -> Void
  /// The last failure to open a handle and when (`clock`), while kept.
  private let failed = Mutex<(error: SourceError, at: Double)?>(nil)
  /// Seconds from a monotonic clock (`monotonicSeconds`; tests pass their own).
  private let clock: @Sendable () -> Double
  /// How many handles are open, for the tests.
  private let openedCount = Atomic<Int>(0)

  /// A handle as the mutex keeps it: the pool hands each to one thread.
  private struct Box: @unchecked Sendable { var handle: Handle }

  /// A pool holding `first`, opening more with `open`; every handle is
  /// given to `close` when the pool goes (no handle is in use then: a
  /// reader in `with` keeps its pool alive).
  init(
    first: Handle, open: @escaping @Sendable () -> Result<Handle, SourceError>, close: @escaping @Sendable (Handle) -> Void,
    clock: @escaping @Sendable () -> Double = monotonicSeconds
  ) {
    free = Mutex([Box(handle: first)])
    opener = open
    closer = close
    self.clock = clock
    openedCount.store(1, ordering: .relaxed)
  }

  deinit {
    for box in free.withLock({ $0 }) { closer(box.handle) }
  }

  /// `body` with a handle no other thread uses meanwhile; the failure of
  /// opening one more when none is free.
  func with<T>(_ body: (Handle) -> Result<T, SourceError>) -> Result<T, SourceError> {
    let handle: Handle
    if let box = free.withLock({ $0.popLast() }) {
      handle = box.handle
    } else {
      if let kept = failed.withLock({ $0 }), clock() - kept.at < OGRSource.failureKeptSeconds { return .failure(kept.error) }
      switch opener() {
      case .failure(let e):
        let now = clock()
        failed.withLock { $0 = (e, now) }
        return .failure(e)
      case .success(let h):
        failed.withLock { $0 = nil }
        openedCount.add(1, ordering: .relaxed)
        handle = h
      }
    }
    let result = body(handle)
    if case .failure(let e) = result, Self.breaks(e) {
      closer(handle)
      openedCount.add(-1, ordering: .relaxed)
    } else {
      free.withLock { $0.append(Box(handle: handle)) }
    }
    return result
  }

  /// True for a failure that may leave the handle broken (a connection the
  /// server closed, a transaction it aborted): the driver's or the
  /// database's. Such a handle is closed, not reused; a layer that is not
  /// there leaves the handle as it was.
  static func breaks(_ e: SourceError) -> Bool {
    switch e {
    case .ogr, .database: return true
    default: return false
    }
  }

  /// Handles open now (in use or free), for the tests.
  var opened: Int { openedCount.load(ordering: .relaxed) }
}
