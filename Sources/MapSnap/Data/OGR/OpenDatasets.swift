import Synchronization

/// Datasets open for the process, by name, at most `limit` of them: the
/// oldest opened goes first when one more is needed (a reader still using
/// it keeps it alive until done; its handles close with it). A failure to
/// open is kept too, for `OGRSource.failureKeptSeconds`: the frames of a batch that come
/// meanwhile report it without each trying again (a server that is down
/// would cost each its connection timeout), and the first frame after it
/// tries again, so a batch outlives a database restart or a file that
/// appears while it runs. Names are opened one thread at a time each, and
/// side by side with other names.
///
/// Bounded because a batch may name any number of datasets (a manifest of
/// scenes, each with its own GeoPackage) and each open dataset holds file
/// descriptors and caches, one set per handle.
final class OpenDatasets<Dataset: AnyObject & Sendable>: Sendable {
  /// Datasets kept open at most: each holds a descriptor and a cache per
  /// handle (an SQLite connection, a GDAL dataset), one handle per thread
  /// that read it at once; 32 keeps a batch of 2–8 workers far below the
  /// usual limit of 1,024 descriptors.
  static var limit: Int { 32 }

  /// What opens one name, one thread at a time: threads asking for a name
  /// that is being opened wait for that open, not for opens of other names
  /// (a database that times out does not hold up a GeoPackage).
  private final class Gate: Sendable {
    let lock = Mutex(())
  }

  private struct Entry {
    var gate: Gate
    /// Nil until the first open of the name ends.
    var result: Result<Dataset, SourceError>?
    /// When the open failed (`clock`); nil for an open dataset.
    var failedAt: Double?
  }

  private struct State {
    var entries: [String: Entry] = [:]
    /// Names in the order they were first asked for, oldest first.
    var order: [String] = []
  }

  private let state = Mutex(State())
  /// Seconds from a monotonic clock (`monotonicSeconds`; tests pass their own).
  private let clock: @Sendable () -> Double

  init(clock: @escaping @Sendable () -> Double = monotonicSeconds) { self.clock = clock }

  /// The dataset `name`, opened with `open` unless it is open already, or
  /// failed less than `OGRSource.failureKeptSeconds` ago (that failure,
  /// again). `open`
  /// runs outside the lock of the other names.
  func dataset(_ name: String, open: () -> Result<Dataset, SourceError>) -> Result<Dataset, SourceError> {
    let gate: Gate
    switch find(name) {
    case .kept(let r): return r
    case .open(let g): gate = g
    }
    return gate.lock.withLock { _ in
      // Opened (or failed) by another thread while this one waited.
      if case .kept(let r) = find(name) { return r }
      let result = open()
      var failedAt: Double? = nil
      if case .failure = result { failedAt = clock() }
      state.withLock { s in
        if s.entries[name] == nil { add(name, to: &s) }
        s.entries[name] = Entry(gate: gate, result: result, failedAt: failedAt)
      }
      return result
    }
  }

  private enum Found {
    case kept(Result<Dataset, SourceError>)
    case open(Gate)
  }

  /// The kept result of `name`, or the gate to open it through (a name
  /// not asked for before gets one, and its place in `order`).
  private func find(_ name: String) -> Found {
    state.withLock { s in
      if let e = s.entries[name] {
        if let r = e.result, e.failedAt.map({ clock() - $0 < OGRSource.failureKeptSeconds }) ?? true { return .kept(r) }
        return .open(e.gate)
      }
      let gate = Gate()
      add(name, to: &s)
      s.entries[name] = Entry(gate: gate, result: nil, failedAt: nil)
      return .open(gate)
    }
  }

  /// Gives `name` the newest place in `order`, the oldest name going when
  /// `limit` are kept.
  private func add(_ name: String, to s: inout State) {
    if s.order.count >= Self.limit { s.entries[s.order.removeFirst()] = nil }
    s.order.append(name)
  }

  /// Names open (or failed) now, oldest first, for the tests.
  var names: [String] { state.withLock { $0.order } }
}
