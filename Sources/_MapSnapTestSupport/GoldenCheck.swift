import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// What checking one golden found; `failure` is nil when it passed.
public struct GoldenOutcome: Sendable {
  public var failure: String?
  public var recorded: Bool
}

/// Compares a rendered frame with its golden, as decoded pixels (never PNG
/// bytes). A missing or different golden is written only when `RecordMode`
/// allows it, and writing one counts as a failure ("re-run to check"). On a
/// mismatch the actual image and a diff image are written under
/// `.build/golden-artifacts/` and their paths are part of the message.
public func checkGolden(_ c: GoldenCase, snapshot: Snapshot, mode: RecordMode = .current) -> GoldenOutcome {
  if let problem = c.problem {
    return GoldenOutcome(failure: "\(c): \(problem)", recorded: false)
  }
  let png: [UInt8]
  let actual: DecodedImage
  do {
    png = try snapshot.pngData(options: c.encoding)
    actual = try PNGDecoder.decode(png)
  } catch {
    return GoldenOutcome(failure: "\(c): could not encode or decode the rendered frame: \(error)", recorded: false)
  }
  let exists = Repository.exists(c.expectedPath)
  func record() -> GoldenOutcome {
    do {
      try FileIO.stage(png, for: c.expectedPath).commit()
    } catch {
      return GoldenOutcome(failure: "\(c): could not record golden: \(error)", recorded: false)
    }
    return GoldenOutcome(failure: "\(c): recorded golden \(c.expectedPath); re-run without MAPSNAP_RECORD to check it", recorded: true)
  }
  if mode == .all || (mode != .never && !exists) { return record() }
  guard exists else {
    let artifacts = writeArtifacts(c, actual: actual, diff: nil)
    return GoldenOutcome(
      failure: "\(c): no golden at \(c.expectedPath). Record it with MAPSNAP_RECORD=missing. Actual image: \(artifacts.actual)",
      recorded: false)
  }
  let expected: DecodedImage
  do {
    expected = try PNGDecoder.decode(contentsOf: c.expectedPath)
  } catch {
    if mode == .failed { return record() }
    return GoldenOutcome(failure: "\(c): cannot read golden: \(error)", recorded: false)
  }
  guard expected.width == actual.width && expected.height == actual.height else {
    let artifacts = writeArtifacts(c, actual: actual, diff: nil)
    if mode == .failed { return record() }
    return GoldenOutcome(
      failure: "\(c): size differs: expected \(expected.width)×\(expected.height), rendered \(actual.width)×\(actual.height). Actual: \(artifacts.actual)",
      recorded: false)
  }
  let cmp = ImageComparison(actual: actual.pixels, expected: expected.pixels, width: actual.width, height: actual.height, channelTolerance: c.channelTolerance)
  if cmp.differingPixels > c.allowedPixels {
    let artifacts = writeArtifacts(c, actual: actual, diff: cmp)
    // Recorded with its actual and diff images left to look at.
    if mode == .failed { return record() }
    let share = Double(cmp.differingPixels) / Double(actual.width * actual.height) * 100
    return GoldenOutcome(
      failure: """
        \(c): \(cmp.differingPixels) pixels differ (\(share.formatted2)%, largest channel delta \(cmp.maxChannelDelta)) > \(c.allowedPixels) allowed
          expected: \(c.expectedPath)
          actual:   \(artifacts.actual)
          diff:     \(artifacts.diff ?? "-")
        """,
      recorded: false)
  }
  return GoldenOutcome(failure: nil, recorded: false)
}

private func writeArtifacts(_ c: GoldenCase, actual: DecodedImage, diff: ImageComparison?) -> (actual: String, diff: String?) {
  let dir = Repository.root + "/.build/golden-artifacts/" + c.name
  Repository.makeDirectories(dir)
  let base = dir + "/" + String(c.imageName.dropLast(4))
  let actualPath = base + "-actual.png"
  try? writePNG(actual.pixels, width: actual.width, height: actual.height, to: actualPath)
  var diffPath: String? = nil
  if let diff {
    diffPath = base + "-diff.png"
    try? writePNG(diff.diffImage, width: diff.width, height: diff.height, to: diffPath!)
  }
  print("golden artifacts for \(c): \(actualPath)\(diffPath.map { ", " + $0 } ?? "")")
  return (actualPath, diffPath)
}

extension Double {
  var formatted2: String {
    let v = (self * 100).rounded() / 100
    return String(v)
  }
}
