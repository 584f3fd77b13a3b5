internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

import Dispatch
import Synchronization

extension DisplayListBuilder {
  /// The parts of a frame's geometry (its layers' tiles and drawables),
  /// which need only the resolved state: built by `buildGeometry` while
  /// the frame's text is placed (`GeometryBuild`, started by `FramePlan.make`),
  /// then taken by `build(geometry:)`: label placement runs mostly on one
  /// thread, and the geometry's parts, most of the display list's work, use
  /// the other processors meanwhile.
  struct GeometryParts: Sendable {
    /// The geometry chunks, and the budget and tolerance they were built
    /// with: `build(geometry:)` checks that its own agree.
    var chunks: [Chunk]
    var budget: FrameBudget
    var tolerance: Double
    /// Per geometry chunk, in order: its part, and whether its build
    /// stopped early.
    var parts: [DisplayList]
    var stopped: [Bool]
    /// The flags of the drawables (the others unset); the strokes drawn
    /// solid and the dash budget's counts.
    var flags: [Bool]
    var tooBig: [Bool]
    var solid: Set<Int>
    var coverage: Coverage
  }

  /// `buildGeometry` started on a worker thread (`start`) and taken when the
  /// list is built (`take`). Whoever comes first builds it: a worker, or,
  /// when none has started on it by then (every worker busy), the thread
  /// that takes it, so that taking it never waits on a thread that may not
  /// come.
  final class GeometryBuild: @unchecked Sendable {
    private let state: MapState
    private let inputs: ResolvedInputs
    private let threads: Int
    private let budget: FrameBudget?
    private let tolerance: Double
    private let claimed = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    /// Written by the worker that claimed the build, before `done` is
    /// signalled; read (and let go) by `take` after.
    private var built: GeometryParts?

    private init(state: MapState, inputs: ResolvedInputs, threads: Int, budget: FrameBudget?, tolerance: Double) {
      self.inputs = inputs
      self.state = state
      self.threads = threads
      self.budget = budget
      self.tolerance = tolerance
    }

    /// Starts building `buildGeometry(state:inputs:threads:budget:tolerance:)` on
    /// a worker thread, which then runs `then` (more work that may be done
    /// while the text is placed; run too when the build was taken over).
    static func start(
      state: MapState, inputs: ResolvedInputs, threads: Int, budget: FrameBudget? = nil, tolerance: Double = Flattening.tolerance,
      then: (@Sendable () -> Void)? = nil
    ) -> GeometryBuild {
      let g = GeometryBuild(state: state, inputs: inputs, threads: threads, budget: budget, tolerance: tolerance)
      DispatchQueue.global(qos: .userInitiated).async {
        if g.claim() {
          g.built = g.build()
          g.done.signal()
        }
        then?()
      }
      return g
    }

    /// The parts, moved out (call once): built here if no worker has
    /// started on them, else waited for.
    func take() -> GeometryParts {
      if claim() { return build() }
      done.wait()
      defer { built = nil }
      return built!
    }

    func claim() -> Bool { claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged }

    func build() -> GeometryParts {
      DisplayListBuilder.buildGeometry(state: state, inputs: inputs, threads: threads, budget: budget, tolerance: tolerance)
    }
  }

  /// The geometry of `state`, its chunks built on up to `threads` workers,
  /// as a builder of that state with `budget` and `tolerance` builds it.
  static func buildGeometry(
    state: MapState, inputs: ResolvedInputs, threads: Int, budget: FrameBudget? = nil, tolerance: Double = Flattening.tolerance
  ) -> GeometryParts {
    var builder = DisplayListBuilder(state: state, inputs: inputs, text: TextPlacement(), boxes: [], fonts: nil, threads: threads)
    builder.budget = budget
    builder.tolerance = tolerance
    let v = state.viewport
    var work = builder.work()
    let geometry = work.chunks.indices.filter { work.chunks[$0].kind.isGeometry }
    let solid = builder.dashesOverBudget(work.drawableFlags, budget: work.budget, coverage: &work.coverage)
    let parts = builder.buildParts(
      work.chunks, only: geometry, flags: &work.flags, tooBig: &work.tooBig, stopped: &work.stopped, solid: solid,
      budget: work.budget, width: v.deviceWidth, height: v.deviceHeight)
    return GeometryParts(
      chunks: geometry.map { work.chunks[$0] }, budget: work.budget, tolerance: tolerance, parts: geometry.map { parts[$0] },
      stopped: geometry.map { work.stopped[$0] }, flags: work.flags, tooBig: work.tooBig, solid: solid, coverage: work.coverage)
  }
}
