import MapSnap

/// `manifest`: a batch manifest (JSON Lines) read as `mapsnap batch` reads
/// it: `ManifestReader.validate` over every line, then `forEachFrame` in two
/// shards. Scenes named by the lines are not loaded.
public enum ManifestFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("manifest")
    defer { folder.remove() }
    let reader = ManifestReader(path: folder.write(data, to: "frames.jsonl"))
    do {
      _ = try reader.validate(shard: (0, 1))
      for shard in 0..<2 {
        try reader.forEachFrame(shard: (shard, 2)) { _, line in
          if case .success(let l) = line { _ = (l.output, l.report, l.overrides) }
        }
      }
      return .accepted
    } catch {
      _ = error.description
      return .rejected
    }
  }
}
