import Synchronization

/// Datasets open for the process, by name, at most `limit` of them: the
/// oldest opened goes first when one more is needed (a reader still using
/// it keeps it alive until done; its handles close with it). Failures are
/// kept too, so a missing dataset is not tried again for every frame.
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

  private struct State {
    var entries: [String: Result<Dataset, SourceError>] = [:]
    /// Names in the order they were opened, oldest first.
    var order: [String] = []
  }

  private let state = Mutex(State())

  init() {}

  /// The dataset `name`, opened with `open` unless it is open (or failed) already.
  func dataset(_ name: String, open: () -> Result<Dataset, SourceError>) -> Result<Dataset, SourceError> {
    state.withLock { s in
      if let hit = s.entries[name] { return hit }
      let result = open()
      if s.order.count >= Self.limit { s.entries[s.order.removeFirst()] = nil }
      s.entries[name] = result
      s.order.append(name)
      return result
    }
  }

  /// Names open (or failed) now, oldest first, for the tests.
  var names: [String] { state.withLock { $0.order } }
}
