import Synchronization

internal import _MapSnapRaster

extension GeoJSONFastReader {
  /// Reads the second half of a large array of features on a thread of its
  /// own while the reader reads the first half, both with the same code.
  ///
  /// The rule that keeps the result exactly a one-thread read: the second
  /// half starts at a guess, the `{` nearest the middle of the bytes that
  /// follows a `,` (and white space) and precedes a `"`: where a feature
  /// would start. The guess is only taken when the reader, reading
  /// the first half from the start, finishes a feature, reads the `,` after
  /// it and finds the next one starting there: a member of this array, read
  /// in the same state (nesting depth 2) as the second half was. Anywhere
  /// else (the guess fell inside a feature, a string or after the array),
  /// the second half is abandoned and the reader goes on alone.
  final class SplitRead: @unchecked Sendable {
    /// Where the second half starts; `Int.max` when no place was found.
    let offset: Int
    private(set) var decided = false
    private let thread: PipelineThread?
    private let stop = Atomic<Bool>(false)
    private var waited = false
    /// Written by the thread before it ends, read after `wait`.
    private var result: (features: FeatureCollection, end: Int)? = nil

    init(_ reader: GeoJSONFastReader, from start: Int) {
      let p = reader.p
      // The place nearest the middle, looked for a quarter of the bytes
      // either way at most (beyond, the halves would be too uneven to gain).
      let middle = start + (p.end - start) / 2
      let reach = (p.end - start) / 4
      var guess = Int.max
      for d in 0..<reach {
        if middle + d < p.end, Self.startsElement(p, at: middle + d) {
          guess = middle + d
          break
        }
        if middle - 1 - d > start, Self.startsElement(p, at: middle - 1 - d) {
          guess = middle - 1 - d
          break
        }
      }
      offset = guess
      guard guess < p.end else {
        thread = nil
        decided = true
        return
      }
      thread = PipelineThread()
      var second = _JSONByteParser(base: p.base, count: p.end)
      second.start = p.start
      second.pos = guess
      second.depth = 2  // in the document's object and its `features` array
      thread?.start { [self] in
        var reader = GeoJSONFastReader(second)
        var features = FeatureCollection()
        var index = 0
        do {
          repeat {
            if stop.load(ordering: .relaxed) { return }
            try reader.readFeature(index: index, into: &features)
            index += 1
          } while try reader.nextElement()
          result = (features, reader.p.pos)
        } catch {
          // Wrong guess or a feature the reader does not take: the reader
          // meets the same bytes itself if the guess was right.
        }
      }
    }

    private static func isSpace(_ b: UInt8) -> Bool {
      b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    /// True when byte `j` is a `{` after a `,` and before a `"` (white space
    /// between): where a feature would start.
    private static func startsElement(_ p: _JSONByteParser, at j: Int) -> Bool {
      guard p.byte(j) == UInt8(ascii: "{") else { return false }
      var k = j + 1
      while k < p.end, isSpace(p.byte(k)) { k += 1 }
      guard k < p.end, p.byte(k) == UInt8(ascii: "\"") else { return false }
      var i = j - 1
      while i >= 0, isSpace(p.byte(i)) { i -= 1 }
      return i >= 0 && p.byte(i) == UInt8(ascii: ",")
    }

    /// The second half's features and the position after the array's `]`,
    /// or nil when it could not be read (the reader then reads it itself,
    /// and meets what stopped it).
    func join() -> (features: FeatureCollection, end: Int)? {
      decided = true
      waitOnce()
      return result
    }

    /// Abandons the second half.
    func cancel() {
      decided = true
      stop.store(true, ordering: .relaxed)
    }

    /// Ends the thread, whatever became of the read (the reader's `defer`).
    func finish() {
      if !decided { cancel() }
      waitOnce()
      thread?.stop()
    }

    private func waitOnce() {
      guard !waited else { return }
      waited = true
      thread?.wait()
    }
  }
}
