import MapSnap
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What `mapsnap batch` prints while it runs, on standard error: each
/// failure as it happens (`manifest:LINE: error: …`), each distinct warning
/// once, and progress: on a terminal a bar with rate and ETA redrawn at most
/// ten times a second; otherwise a plain line every `lineInterval` seconds.
final class BatchProgress: Sendable {
  /// Seconds between plain progress lines when standard error is not a terminal.
  static let lineInterval = 10.0

  private struct State {
    var tally = BatchTally()
    var warnings = Set<String>()
    var repeatedWarnings = 0
    var lastDraw = 0.0
    var drewBar = false
  }

  private let state: Mutex<State>
  private let total: Int
  private let manifest: String
  private let quiet: Bool
  private let terminal: Bool
  private let started = monotonicSeconds()

  init(total: Int, manifest: String, quiet: Bool) {
    self.total = total
    self.manifest = manifest
    self.quiet = quiet
    terminal = isatty(2) == 1
    var s = State()
    s.lastDraw = monotonicSeconds()
    state = Mutex(s)
  }

  func record(_ o: FrameOutcome) {
    state.withLock { s in
      s.tally.record(o)
      var text = ""
      if case .failed(let message) = o.status { text += "\(manifest):\(o.line): error: \(Echo.terminalSafe(message))\n" }
      for w in o.warnings {
        if s.warnings.insert(w).inserted {
          text += "\(manifest):\(o.line): warning: \(Echo.terminalSafe(w))\n"
        } else {
          s.repeatedWarnings += 1
        }
      }
      if !text.isEmpty {
        if s.drewBar { text = "\r\u{1B}[K" + text }
        s.drewBar = false
        FileIO.writeToStandardError(text)
      }
      guard !quiet else { return }
      let now = monotonicSeconds()
      let done = s.tally.rendered + s.tally.skipped + s.tally.failed
      if terminal {
        guard now - s.lastDraw >= 0.1 || done == total else { return }
        s.lastDraw = now
        s.drewBar = true
        FileIO.writeToStandardError("\r\u{1B}[K" + bar(done: done, failed: s.tally.failed, elapsed: now - started))
      } else if now - s.lastDraw >= Self.lineInterval {
        s.lastDraw = now
        FileIO.writeToStandardError("batch: " + status(done: done, failed: s.tally.failed, elapsed: now - started) + "\n")
      }
    }
  }

  /// Ends the bar and prints the final line; returns the tally.
  func finish(seconds: Double) -> (outcomes: BatchTally, seconds: Double, failed: Int) {
    state.withLock { s in
      var text = s.drewBar ? "\r\u{1B}[K" : ""
      let t = s.tally
      let done = t.rendered + t.skipped + t.failed
      text += "batch: \(done) frame\(done == 1 ? "" : "s"): \(t.rendered) rendered, \(t.skipped) skipped, \(t.failed) failed"
      text += " in \(formatSeconds(seconds))"
      if seconds > 0 && done > 0 { text += " (\(formatRate(Double(done) / seconds)) frames/s)" }
      if s.repeatedWarnings > 0 { text += "; \(s.repeatedWarnings) repeated warning\(s.repeatedWarnings == 1 ? "" : "s") not shown" }
      FileIO.writeToStandardError(text + "\n")
      return (t, seconds, t.failed)
    }
  }

  private func status(done: Int, failed: Int, elapsed: Double) -> String {
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    var s = "\(done)/\(total) frames"
    if total > 0 { s += " (\(done * 100 / total)%)" }
    s += ", \(formatRate(rate)) frames/s"
    if rate > 0 && done < total { s += ", ETA \(formatSeconds(Double(total - done) / rate))" }
    if failed > 0 { s += ", \(failed) failed" }
    return s
  }

  private func bar(done: Int, failed: Int, elapsed: Double) -> String {
    let width = 30
    let filled = total > 0 ? done * width / total : width
    return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
      + status(done: done, failed: failed, elapsed: elapsed)
  }
}

private func formatRate(_ r: Double) -> String {
  r >= 100 ? String(Int(r.rounded())) : String((r * 10).rounded() / 10)
}

private func formatSeconds(_ s: Double) -> String {
  if s < 60 { return String((s * 10).rounded() / 10) + " s" }
  let m = Int(s / 60)
  if m < 60 { return "\(m) min \(Int(s) % 60) s" }
  return "\(m / 60) h \(m % 60) min"
}
