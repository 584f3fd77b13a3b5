/// What a one-shot command (`render`, `explain`) would free just before its
/// process exits: the loaded sources and the frame's plan. Freeing them
/// feature by feature costs about 2 ms of a 40–50 ms render (measured on
/// the Helsinki peer cases), half of it on the critical path between
/// planning and drawing; the exit returns all of the process's memory at
/// once. The rule: a command keeps here only what it would otherwise free
/// at its end, on the main thread, once per process; `batch` and `test`,
/// which plan many frames, keep nothing here.
enum KeptUntilExit {
  /// Used from the main thread only.
  nonisolated(unsafe) private static var kept: [Any] = []

  /// Keeps `value` (an object, or a value holding objects) alive until the
  /// process exits.
  static func keep(_ value: Any) { kept.append(value) }
}
