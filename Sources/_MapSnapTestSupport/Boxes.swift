import MapSnap

// Boxes in tests: overlap as placement counts it, and a short form for messages.

/// Positive-area intersection: boxes that only touch do not overlap.
public func overlaps(_ a: Rect, _ b: Rect) -> Bool {
  min(a.maxX, b.maxX) > max(a.minX, b.minX) && min(a.maxY, b.maxY) > max(a.minY, b.minY)
}

/// `[minX, minY – maxX, maxY]` rounded to 1/1000, or `nil`.
public func describe(_ r: Rect?) -> String {
  guard let r else { return "nil" }
  func f(_ v: Double) -> String { String((v * 1000).rounded() / 1000) }
  return "[\(f(r.minX)), \(f(r.minY)) – \(f(r.maxX)), \(f(r.maxY))]"
}
