import Dispatch
internal import _MapSnapRaster

/// Dispatch's worker threads, asked for before the first stage that runs
/// side by side (`DispatchQueue.concurrentPerform`: loading sources,
/// resolving layers, building the display list, drawing bands).
///
/// Dispatch starts its workers when work first arrives, and early in a
/// process a new worker took 2–4 ms to start running here (thread stacks
/// mapped while the other core is busy): the first parallel stage of a
/// frame ran on one thread, since the caller took every iteration before
/// the worker came (nyc-250000: the file's hash and then both halves of its
/// projection, one after another).
package enum WorkerThreads {
  /// Hands Dispatch an empty work item per processor beyond the first, so
  /// that its workers start while the process reads its scene. Call it
  /// first thing in a program that renders frames; the `mapsnap` command does.
  public static func startEarly() {
    for _ in 1..<max(1, activeProcessorCount()) { DispatchQueue.global().async {} }
  }
}
