import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// A thread of its own (a pthread, not one of Dispatch's workers) that runs
/// one body at a time: `start` hands it a body, `wait` waits for that body
/// to end. The strip being compressed runs on one:
/// - run as a Dispatch work item it took one of the workers that
///   `concurrentPerform` draws the next strip with, and Dispatch does not
///   replace a busy worker, so the drawing ran on one thread (8192² on two
///   threads: drawing 108–135 ms of wall time before, 47–57 ms after);
/// - run on a thread made afresh for every strip (and the compressor's
///   workers with it), the new threads started beside their parent and the
///   scheduler took milliseconds to spread them: stretches of one busy core
///   inside every strip. One thread kept for the frame does not move.
final class PipelineThread: @unchecked Sendable {
  private var id = pthread_t()
  private var started = false
  private let go = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  /// Written before `go` is signalled and read after: the semaphores order it.
  private var body: (() -> Void)?
  private var quit = false

  init() {
    let box = Unmanaged.passRetained(self)
    started =
      pthread_create(
        &id, nil,
        { arg in
          let me = Unmanaged<PipelineThread>.fromOpaque(arg!).takeRetainedValue()
          me.loop()
          return nil
        }, box.toOpaque()) == 0
    if !started { box.release() }
  }

  private func loop() {
    while true {
      go.wait()
      if quit { return }
      body?()
      body = nil
      finished.signal()
    }
  }

  /// Runs `body` on the thread (here and now when no thread could be made).
  /// - Precondition: the previous body was waited for.
  func start(_ body: @escaping () -> Void) {
    guard started else { return body() }
    self.body = body
    go.signal()
  }

  /// Waits for the body `start` handed over to end.
  func wait() {
    if started { finished.wait() }
  }

  /// Ends the thread; call once, after the last `wait`.
  func stop() {
    guard started else { return }
    quit = true
    go.signal()
    pthread_join(id, nil)
    started = false
  }
}
