import Synchronization

/// The open handles of one dataset (SQLite connections to a GeoPackage,
/// GDAL datasets), each used by one thread at a time: neither an SQLite
/// connection opened without its mutex nor a GDAL dataset may be used by
/// two threads at once.
///
/// Rule: a read takes a free handle, or opens one more when every handle is
/// in use, and gives it back when done; handles stay open with their
/// dataset, but for one the driver failed on (`SourceError.ogr`), which is
/// closed. So a dataset has as many handles as threads ever read it at
/// once (in a batch, at most its `--jobs` workers plus the layers one frame
/// reads side by side), and no read waits for another's. Measured against
/// one handle behind a lock in BENCHMARKS.md (issue 15).
final class HandlePool<Handle>: @unchecked Sendable {
  private let free: Mutex<[Box]>
  private let opener: @Sendable () -> Result<Handle, SourceError>
  private let closer: @Sendable (Handle) -> Void
  /// How many handles are open, for the tests.
  private let openedCount = Atomic<Int>(0)

  /// A handle as the mutex keeps it: the pool hands each to one thread.
  private struct Box: @unchecked Sendable { var handle: Handle }

  /// A pool holding `first`, opening more with `open`; every handle is
  /// given to `close` when the pool goes (no handle is in use then: a
  /// reader in `with` keeps its pool alive).
  init(first: Handle, open: @escaping @Sendable () -> Result<Handle, SourceError>, close: @escaping @Sendable (Handle) -> Void) {
    free = Mutex([Box(handle: first)])
    opener = open
    closer = close
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
      switch opener() {
      case .failure(let e): return .failure(e)
      case .success(let h):
        openedCount.add(1, ordering: .relaxed)
        handle = h
      }
    }
    let result = body(handle)
    if case .failure(.ogr) = result {
      // A handle the driver failed on may be broken (a connection the
      // server closed, a transaction it aborted): closed, not reused. (A
      // layer that is not there leaves the handle as it was.)
      closer(handle)
      openedCount.add(-1, ordering: .relaxed)
    } else {
      free.withLock { $0.append(Box(handle: handle)) }
    }
    return result
  }

  /// Handles open now (in use or free), for the tests.
  var opened: Int { openedCount.load(ordering: .relaxed) }
}
