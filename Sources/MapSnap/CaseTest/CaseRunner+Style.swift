extension CaseRunner {
  /// One style case (`StyleCase`): unsupported when it holds an operation or
  /// switch mapsnap does not apply (not drawn); otherwise its operations
  /// applied to the style (`StyleOperations`), the frame drawn by
  /// `StyleRenderer` (an error thrown there fails the case with its
  /// message) and judged against `expected.png` by `StyleCriterion`. Style
  /// cases are never recorded: their expected images come from elsewhere
  /// (the render suite's from GL JS).
  ///
  /// A failing case leaves `expected.actual.png` (the frame's premultiplied
  /// bytes stored as they are, as the expected image stores its own, so the
  /// two look alike side by side), `expected.diff.png` and
  /// `expected.expected.png` in `artifacts/<group>/<case>/`.
  func checkStyle(_ c: ImageCase, _ s: StyleCase, outcome: CaseOutcome, start: Double) -> CaseOutcome {
    var o = outcome
    var v = StyleVerdict(group: s.group, kind: s.kind, allowed: s.allowed, marks: s.marks)
    o.width = s.imageWidth
    o.height = s.imageHeight
    func finish(_ status: CaseOutcome.Status) -> CaseOutcome {
      // The suite's own marks, beside a case that did not pass.
      switch status {
      case .failed(let m) where !s.marks.isEmpty: o.status = .failed(m + " [the suite marks it " + s.marks.joined(separator: ", ") + "]")
      default: o.status = status
      }
      o.verdict = v
      o.seconds = monotonicSeconds() - start
      return o
    }
    if !s.unsupported.isEmpty {
      let reason = s.unsupported.joined(separator: "; ")
      v.unsupported = reason
      return finish(.failed("unsupported: " + reason))
    }
    guard FileIO.exists(c.expectedImage) else { return finish(.failed("no expected image \(c.stem).png")) }
    let expected: DecodedImage
    do {
      expected = try PNGDecoder.decode(contentsOf: c.expectedImage)
    } catch {
      return finish(.error("the expected image cannot be read: \(error)"))
    }
    let style: JSONValue
    do throws(StyleOperationError) {
      style = try StyleOperations.apply(s.operations, to: s.style)
    } catch {
      return finish(.failed(error.description))
    }
    let request = StyleRenderRequest(
      style: style, stylePath: s.stylePath, width: s.width, height: s.height, pixelRatio: s.pixelRatio, localRoot: options.localRoot,
      offline: options.offline)
    let canvas: Canvas
    do {
      canvas = try StyleRenderer.render(request)
    } catch {
      return finish(.failed("the style renderer failed: \(error)"))
    }
    let (w, h) = (canvas.width, canvas.height)
    let actualPNG = try? PNGEncoder.encode(rgbaAsStored: canvas.buffer, width: w, height: h)
    func keepArtifacts(diff: [UInt32]?) {
      if let actualPNG { o.actualPath = write(actualPNG, artifact: c, suffix: "actual.png") }
      if let diff, let png = try? diff.withUnsafeBufferPointer({ try PNGEncoder.encode(premultipliedRGBA: $0, width: w, height: h) }) {
        o.diffPath = write(png, artifact: c, suffix: "diff.png")
      }
      if let bytes = try? FileIO.read(c.expectedImage) { o.expectedPath = write(bytes, artifact: c, suffix: "expected.png") }
    }
    guard w == expected.width, h == expected.height else {
      keepArtifacts(diff: nil)
      return finish(.failed("the frame is \(w)×\(h), the expected image \(expected.width)×\(expected.height)"))
    }
    var diff = [UInt32](repeating: 0, count: w * h)
    let packed = expected.packedPixels
    let r = packed.withUnsafeBufferPointer { e in
      diff.withUnsafeMutableBufferPointer { d in StyleCriterion.judge(frame: canvas.buffer, expected: e, width: w, height: h, allowed: s.allowed, diff: d) }
    }
    o.counts = r.counts
    v.ratio = r.ratio
    v.passed = r.passed
    v.withinOnePercent = r.withinOnePercent
    guard !r.passed else { return finish(.passed) }
    keepArtifacts(diff: diff)
    return finish(
      .failed(
        "\(r.counts.differing) px differ (\(Self.percent(r.ratio)) % of the pixels, allowed \(Self.percent(s.allowed)) %"
          + (r.withinOnePercent ? "; within 1 %" : "") + "), by pixelmatch 4.0.2 at threshold \(format(StyleCriterion.threshold))"))
  }

  /// A fraction as a percentage for messages: `0.015`, `12.5`, `< 0.001`.
  static func percent(_ fraction: Double) -> String {
    let p = fraction * 100
    if p > 0 && p < 0.001 { return "< 0.001" }
    return format((p * 1000).rounded() / 1000)
  }
}
