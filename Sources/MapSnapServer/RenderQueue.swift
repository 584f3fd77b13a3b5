import Dispatch
import Glibc
import Synchronization
import _MapSnapServe

/// The bounded queue in front of the renderer: `workers` threads of their
/// own (pthreads, so that drawing never occupies SwiftNIO's event loops or
/// Swift's cooperative pool) take requests in arrival order. When
/// `capacity` requests wait already, a new one is refused at once with a
/// 503 (back-pressure: memory stays bounded however many clients push). A
/// request that waited longer than `budget` is answered with a 503 instead
/// of drawn: its client has likely given up. Once `drain` is called, new
/// requests are refused and those queued or drawing finish.
final class RenderQueue: Sendable {
  private struct Job {
    let run: @Sendable () -> Void
    let expire: @Sendable () -> Void
    let enqueued: ContinuousClock.Instant
  }
  private struct State {
    var jobs: [Job] = []
    var head = 0
    var running = 0
    var draining = false
    var count: Int { jobs.count - head }
  }
  private let state = Mutex(State())
  private let available = DispatchSemaphore(value: 0)
  private let idle = DispatchSemaphore(value: 0)
  let workers: Int
  let capacity: Int
  let budget: Duration

  init(workers: Int, capacity: Int, budgetSeconds: Double) {
    self.workers = max(1, workers)
    self.capacity = max(0, capacity)
    budget = .milliseconds(Int64(max(1, (budgetSeconds * 1000).rounded())))
    for _ in 0..<self.workers { startWorker() }
  }

  /// Requests waiting, and requests being drawn.
  var depth: (queued: Int, running: Int) { state.withLock { ($0.count, $0.running) } }
  var isDraining: Bool { state.withLock { $0.draining } }

  /// `body`'s result, run on a worker thread.
  /// - Throws: `ServeError` 503 when the queue is full, past its budget or draining.
  func run<T: Sendable>(_ body: @escaping @Sendable () -> Result<T, ServeError>) async -> Result<T, ServeError> {
    await withCheckedContinuation { (c: CheckedContinuation<Result<T, ServeError>, Never>) in
      let job = Job(
        run: { c.resume(returning: body()) },
        expire: { c.resume(returning: .failure(.unavailable("the request waited past the time budget of its queue", retryAfter: 1))) },
        enqueued: .now)
      let refusal: ServeError? = state.withLock { s in
        if s.draining { return .unavailable("the server is shutting down", retryAfter: 5) }
        if s.count >= capacity { return .unavailable("the render queue is full (\(capacity) requests waiting)", retryAfter: 1) }
        s.jobs.append(job)
        return nil
      }
      if let refusal { c.resume(returning: .failure(refusal)) } else { available.signal() }
    }
  }

  /// Refuses new requests from now on and waits until every queued and
  /// running one has finished.
  func drain() async {
    state.withLock { $0.draining = true }
    while state.withLock({ $0.count + $0.running }) > 0 {
      try? await Task.sleep(for: .milliseconds(20))
    }
  }

  private func startWorker() {
    let box = Unmanaged.passRetained(self)
    var thread = pthread_t()
    let status = pthread_create(&thread, nil, { raw in
      let queue = Unmanaged<RenderQueue>.fromOpaque(raw!).takeRetainedValue()
      queue.work()
      return nil
    }, box.toOpaque())
    precondition(status == 0, "mapsnap-server: cannot start a render thread (\(status))")
    pthread_detach(thread)
  }

  private func work() -> Never {
    while true {
      available.wait()
      let job: Job? = state.withLock { s in
        guard s.count > 0 else { return nil }
        let j = s.jobs[s.head]
        s.head += 1
        if s.head > 1024 && s.head * 2 > s.jobs.count {
          s.jobs.removeFirst(s.head)
          s.head = 0
        }
        s.running += 1
        return j
      }
      guard let job else { continue }
      if ContinuousClock.now - job.enqueued > budget { job.expire() } else { job.run() }
      state.withLock { $0.running -= 1 }
    }
  }
}
