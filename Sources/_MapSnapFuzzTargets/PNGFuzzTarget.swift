import MapSnap

/// `png`: bytes decoded as a marker icon or a PNG tile is: `PNGDecoder.decode`.
public enum PNGFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    do {
      let image = try PNGDecoder.decode(Array(data))
      _ = image.pixels.count
      return .accepted
    } catch {
      _ = error.description
      return .rejected
    }
  }
}
