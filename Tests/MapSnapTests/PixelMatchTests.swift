import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// `PixelMatch` against the reference pixelmatch: the same count and the
/// same diff image, byte for byte, on pairs with anti-aliased edges, noise,
/// translucency and random pixels, at four thresholds with and without
/// anti-aliasing detection (fixtures written by
/// scripts/make-pixelmatch-fixtures.py with the PyPI port of pixelmatch).
@Suite struct PixelMatchTests {
  private struct Case {
    var name: String
    var a: [UInt32]
    var b: [UInt32]
    var results: [(threshold: Double, includeAA: Bool, differing: Int, diff: [UInt32])]
  }

  private static func pixels(_ base64: String) -> [UInt32] {
    let bytes = [UInt8](Data(base64Encoded: base64)!)
    return (0..<(bytes.count / 4)).map { i in
      UInt32(bytes[4 * i]) | UInt32(bytes[4 * i + 1]) << 8 | UInt32(bytes[4 * i + 2]) << 16 | UInt32(bytes[4 * i + 3]) << 24
    }
  }

  private static func array(_ v: JSONValue?) -> [JSONValue] {
    if case .array(let a)? = v { return a }
    return []
  }

  private static func string(_ v: JSONValue?) -> String {
    if case .string(let s)? = v { return s }
    return ""
  }

  private static func load() throws -> (width: Int, height: Int, cases: [Case]) {
    let json = try JSONParser.parse(try Files.read(Repository.root + "/Tests/Fixtures/pixelmatch/cases.json"))
    var cases: [Case] = []
    for c in array(json["cases"]) {
      var results: [(Double, Bool, Int, [UInt32])] = []
      for r in array(c["results"]) {
        results.append((number(r["threshold"])!, r["includeAA"] == JSONValue.bool(true), Int(number(r["differing"])!), pixels(string(r["diff"]))))
      }
      cases.append(Case(name: string(c["name"]), a: pixels(string(c["a"])), b: pixels(string(c["b"])), results: results))
    }
    return (Int(number(json["width"])!), Int(number(json["height"])!), cases)
  }

  @Test("the same counts and diff images as the reference pixelmatch")
  func matchesTheReference() throws {
    let (w, h, cases) = try Self.load()
    #expect(cases.count == 8)
    for c in cases {
      for r in c.results {
        let match = PixelMatch(threshold: r.threshold, includeAA: r.includeAA)
        var diff = [UInt32](repeating: 0, count: w * h)
        let counts = c.a.withUnsafeBufferPointer { a in
          c.b.withUnsafeBufferPointer { b in
            diff.withUnsafeMutableBufferPointer { d in match.compare(a, b, width: w, height: h, diff: d, threads: 1) }
          }
        }
        #expect(counts.differing == r.differing, "\(c.name), threshold \(r.threshold), includeAA \(r.includeAA)")
        let wrong = zip(diff, r.diff).filter { $0 != $1 }.count
        #expect(wrong == 0, "\(c.name), threshold \(r.threshold), includeAA \(r.includeAA): \(wrong) diff pixels differ")
      }
    }
  }

  @Test("anti-aliased pixels are counted apart, and as differences with includeAA")
  func antialiasingCountedApart() throws {
    let (w, h, cases) = try Self.load()
    let moved = try #require(cases.first { $0.name == "disc moved by a quarter pixel" })
    let counts = { (aa: Bool) in
      moved.a.withUnsafeBufferPointer { a in moved.b.withUnsafeBufferPointer { b in PixelMatch(threshold: 0.1, includeAA: aa).compare(a, b, width: w, height: h) } }
    }
    let without = counts(false)
    let with = counts(true)
    #expect(without.differing == 0 && without.antialiased > 0)
    #expect(with.differing == without.antialiased && with.antialiased == 0)
  }

  @Test("the counts do not depend on the number of workers")
  func workersDoNotChangeCounts() {
    let (w, h) = (517, 389)
    var rng = SplitMix(seed: 7)
    let a = (0..<(w * h)).map { _ in UInt32(truncatingIfNeeded: rng.next()) | 0xFF00_0000 }
    var b = a
    for _ in 0..<5000 { b[Int(rng.next() % UInt64(w * h))] ^= 0x0030_3030 }
    let one = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in PixelMatch().compare(a, b, width: w, height: h, threads: 1) } }
    let four = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in PixelMatch().compare(a, b, width: w, height: h, threads: 4) } }
    #expect(one == four)
    #expect(one.differing + one.antialiased > 1000)
  }
}

/// A small deterministic generator for test images.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// `ImageDiff` streams bands of rows from the files: its counts and diff
/// image equal the whole-image comparison, across band boundaries.
@Suite struct ImageDiffTests {
  @Test("streamed in bands, the same as compared whole")
  func streamedEqualsWhole() throws {
    try withTemporaryDirectory { dir in
      let (w, h) = (97, ImageDiff.bandRows * 2 + 77)
      var rng = SplitMix(seed: 11)
      // Horizontal anti-aliased stripes (so anti-aliasing detection reads
      // rows across band edges), then changes near every band boundary.
      var a = [UInt32](repeating: 0, count: w * h)
      for y in 0..<h {
        for x in 0..<w {
          let v = UInt32((y * 37 + x * 3) % 256)
          a[y * w + x] = v | v << 8 | (255 - v) << 16 | 0xFF00_0000
        }
      }
      var b = a
      for boundary in [ImageDiff.bandRows, 2 * ImageDiff.bandRows] {
        for y in (boundary - 3)...(boundary + 2) {
          for _ in 0..<6 { b[y * w + Int(rng.next() % UInt64(w))] ^= 0x0080_4020 }
        }
      }
      for _ in 0..<300 { b[Int(rng.next() % UInt64(w * h))] ^= 0x0010_1010 }
      let pa = dir + "/a.png"
      let pb = dir + "/b.png"
      try Files.write(try a.withUnsafeBufferPointer { try PNGEncoder.encode(premultipliedRGBA: $0, width: w, height: h) }, to: pa)
      try Files.write(try b.withUnsafeBufferPointer { try PNGEncoder.encode(premultipliedRGBA: $0, width: w, height: h) }, to: pb)
      for match in [PixelMatch(), PixelMatch(threshold: 0, includeAA: true), PixelMatch(threshold: 0.05)] {
        var whole = [UInt32](repeating: 0, count: w * h)
        let counts = a.withUnsafeBufferPointer { ua in
          b.withUnsafeBufferPointer { ub in whole.withUnsafeMutableBufferPointer { d in match.compare(ua, ub, width: w, height: h, diff: d) } }
        }
        let streamed = try ImageDiff.compare(pa, pb, match: match, diffImage: true)
        #expect(streamed.counts == counts)
        #expect(counts.differing > 0)
        let image = try PNGDecoder.decode(try #require(streamed.diffPNG))
        var pixels = [UInt32](repeating: 0, count: w * h)
        for i in 0..<(w * h) {
          let r = UInt32(image.pixels[4 * i])
          let g = UInt32(image.pixels[4 * i + 1]) << 8
          let bl = UInt32(image.pixels[4 * i + 2]) << 16
          pixels[i] = r | g | bl | UInt32(image.pixels[4 * i + 3]) << 24
        }
        let mismatches = (0..<(w * h)).filter { pixels[$0] != whole[$0] }
        #expect(mismatches.isEmpty, "\(mismatches.count) diff pixels differ, first at row \(mismatches.first.map { $0 / w } ?? -1): \(mismatches.first.map { String(pixels[$0], radix: 16) + " vs " + String(whole[$0], radix: 16) } ?? "")")
      }
    }
  }
}
