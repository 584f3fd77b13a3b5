import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary files (`.mapsnap-XXXXXX`, `OutputTarget`) that exist now,
/// so that a process ended by SIGTERM or SIGINT leaves none behind.
///
/// The rule: every temporary file is created while this registry is held,
/// and recorded (its folder's descriptor and name) before the registry is
/// let go; it is forgotten only after it was renamed into place or removed,
/// and before its folder's descriptor is closed. `removeOnSignals()` (the
/// `mapsnap` command calls it first thing, before any other thread exists)
/// blocks SIGTERM and SIGINT in every thread and waits for them on a thread
/// of its own (`sigwait`: the cleanup runs as ordinary code, not in a signal
/// handler). On either signal that thread takes the registry, removes every
/// temporary file recorded, and ends the process by the signal itself (its
/// default disposition restored, then raised), so the parent sees a death
/// by SIGTERM or SIGINT (a shell reports 143 or 130). No temporary file is
/// created after that: the registry stays held. A signal ignored when the
/// process started (`nohup`, a background job of a shell) stays ignored.
package enum TemporaryFiles {
  private struct Entry {
    var directory: Int32
    var name: String
  }

  private struct State {
    var entries: [Int: Entry] = [:]
    var next = 0
    var ending = false
  }

  private final class Registry: Sendable {
    let state = Mutex(State())
  }

  private static let registry = Registry()

  /// The signals the cleanup covers.
  static let signals: [Int32] = [SIGTERM, SIGINT]

  /// Runs `create` (which makes a temporary file in the folder open as
  /// `directory` and returns its descriptor and name, a negative
  /// descriptor on failure) with the registry held, and records the file.
  /// Returns the descriptor, the name and the token `forget` takes; nil
  /// when the process is ending by a signal (nothing is created then).
  static func create(in directory: Int32, _ create: () -> (fd: Int32, name: String)) -> (fd: Int32, name: String, token: Int)? {
    registry.state.withLock { s in
      if s.ending { return nil }
      let made = create()
      guard made.fd >= 0 else { return (made.fd, made.name, -1) }
      s.next += 1
      s.entries[s.next] = Entry(directory: directory, name: made.name)
      return (made.fd, made.name, s.next)
    }
  }

  /// Forgets the file `token` names: it was renamed into place or removed.
  static func forget(_ token: Int) {
    guard token >= 0 else { return }
    registry.state.withLock { _ = $0.entries.removeValue(forKey: token) }
  }

  /// Blocks SIGTERM and SIGINT (those not ignored) in the calling thread,
  /// and so in every thread it starts later, and starts the thread that
  /// waits for them (see the rule above). Call once, first thing, before
  /// any other thread is started.
  public static func removeOnSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    var any = false
    for sig in signals where !isIgnored(sig) {
      sigaddset(&set, sig)
      any = true
    }
    guard any else { return }
    pthread_sigmask(SIG_BLOCK, &set, nil)
    let box = UnsafeMutablePointer<sigset_t>.allocate(capacity: 1)
    box.initialize(to: set)
    var thread = pthread_t()
    let made = pthread_create(
      &thread, nil,
      { arg in
        let set = arg!.assumingMemoryBound(to: sigset_t.self)
        var sig: Int32 = 0
        while sigwait(set, &sig) != 0 {}
        TemporaryFiles.end(by: sig)
      }, box)
    if made != 0 {
      // No thread to wait: let the signals act as before.
      pthread_sigmask(SIG_UNBLOCK, &set, nil)
      box.deallocate()
    } else {
      pthread_detach(thread)
    }
  }

  /// Removes every recorded temporary file and ends the process by `sig`,
  /// the registry held to the end.
  private static func end(by sig: Int32) -> Never {
    registry.state.withLock { s in
      s.ending = true
      for e in s.entries.values { unlinkat(e.directory, e.name, 0) }
      s.entries.removeAll()
      signal(sig, SIG_DFL)
      var only = sigset_t()
      sigemptyset(&only)
      sigaddset(&only, sig)
      pthread_sigmask(SIG_UNBLOCK, &only, nil)
      raise(sig)
      _exit(128 + sig)
    }
  }

  /// True when `sig`'s disposition is to be ignored (read, not changed).
  private static func isIgnored(_ sig: Int32) -> Bool {
    var now = sigaction()
    guard sigaction(sig, nil, &now) == 0, let handler = now.__sigaction_handler.sa_handler else { return false }
    return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
  }
}
