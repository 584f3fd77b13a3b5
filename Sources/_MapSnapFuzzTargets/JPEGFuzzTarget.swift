import MapSnap

/// `jpeg`: bytes decoded as a JPEG tile is: `JPEGDecoder.decode`.
public enum JPEGFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    do {
      let image = try JPEGDecoder.decode(Array(data))
      _ = image.pixels.count
      return .accepted
    } catch {
      _ = error.description
      return .rejected
    }
  }
}
