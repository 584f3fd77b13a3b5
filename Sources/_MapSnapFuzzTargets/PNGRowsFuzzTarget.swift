import MapSnap

/// `pngrows`: a PNG file as `mapsnap diff` reads it: `ImageDiff.compare` of
/// the file with itself (two `PNGRowReader`s streaming rows in bands,
/// PixelMatch over them), then every row read again with `readRow`.
public enum PNGRowsFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("pngrows")
    defer { folder.remove() }
    let path = folder.write(data, to: "image.png")
    do {
      let result = try ImageDiff.compare(path, path, match: PixelMatch(), diffImage: false, threads: 1)
      _ = result.ratio
    } catch {
      _ = error.description
      return .rejected
    }
    do {
      let reader = try PNGRowReader(path: path)
      for _ in 0..<reader.height { _ = try reader.readRow() }
      return .accepted
    } catch {
      _ = error.description
      return .rejected
    }
  }
}
