import Synchronization

/// Datasets open for the process, by name, at most `limit` of them: the
/// oldest opened goes first when one more is needed (a reader still using
/// it keeps it alive until done; its handles close with it). A failure to
/// open is kept too, for `failureSeconds`: the frames of a batch that come
/// meanwhile report it without each trying again (a server that is down
/// would cost each its connection timeout), and the first frame after it
/// tries again, so a batch outlives a database restart or a file that
/// appears while it runs.
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

  /// How long a failure to open is kept, in seconds: 10, twice libpq's
  /// connection timeout (`OGRSource.connectTimeoutSeconds`), so a batch
  /// over a database that is down spends at most about a third of its time
  /// waiting to connect, however many frames it has.
  static var failureSeconds: Double { 10 }

  private struct Entry {
    var result: Result<Dataset, SourceError>
    /// When the open failed (`clock`); nil for an open dataset.
    var failedAt: Double?
  }

  private struct State {
    var entries: [String: Entry] = [:]
    /// Names in the order they were opened, oldest first.
    var order: [String] = []
  }

  private let state = Mutex(State())
  /// Seconds from a monotonic clock (`monotonicSeconds`; tests pass their own).
  private let clock: @Sendable () -> Double

  init(clock: @escaping @Sendable () -> Double = monotonicSeconds) { self.clock = clock }

  /// The dataset `name`, opened with `open` unless it is open already, or
  /// failed less than `failureSeconds` ago (that failure, again).
  func dataset(_ name: String, open: () -> Result<Dataset, SourceError>) -> Result<Dataset, SourceError> {
    state.withLock { s in
      if let hit = s.entries[name] {
        guard let failed = hit.failedAt, clock() - failed >= Self.failureSeconds else { return hit.result }
        s.entries[name] = nil
        s.order.removeAll { $0 == name }
      }
      let result = open()
      if s.order.count >= Self.limit { s.entries[s.order.removeFirst()] = nil }
      var failedAt: Double? = nil
      if case .failure = result { failedAt = clock() }
      s.entries[name] = Entry(result: result, failedAt: failedAt)
      s.order.append(name)
      return result
    }
  }

  /// Names open (or failed) now, oldest first, for the tests.
  var names: [String] { state.withLock { $0.order } }
}
