import Foundation
import Testing
import _MapSnapTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 37, item 17: inputs that crashed or took gigabytes, each now a
/// clear error or a bounded warning within a limited address space. Sparse
/// files stand in for huge ones (they read as NUL bytes and cost no disk).
@Suite("huge and endless inputs are bounded (built binary)")
struct BoundedInputTests {
  static let clean: [String: String?] = ["CI": nil, "MAPSNAP_RECORD": nil]
  /// 2 GiB of address space: a limit far above what these runs need, far
  /// below what the old code reached (a sanitizer's runtime cannot start under it).
  static let limit = "ulimit -v 2097152"
  static let underSanitizer =
    ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil || ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil

  /// Makes `path` a sparse file of `size` bytes that starts with `prefix`.
  static func sparse(_ path: String, size: Int, prefix: [UInt8] = []) throws {
    try Files.write(prefix, to: path)
    #expect(truncate(path, off_t(size)) == 0)
  }

  static let scene = #"{"version": 1, "map": {"center": [0, 0], "scale": 2000, "size": [64, 48]}, "layers": []}"#

  @Test("a manifest line of a gigabyte without a line break is an invalid line, read through a fixed buffer", .enabled(if: !underSanitizer))
  func hugeManifestLine() throws {
    try withTemporaryDirectory { dir in
      try Files.write(Self.scene, to: dir + "/s.json")
      let first = Array(#"{"scene": "s.json", "output": "a.png"}"#.utf8) + [10]
      try Self.sparse(dir + "/m.jsonl", size: 1_200_000_000, prefix: first)
      let r = try CLI.run(["batch", "m.jsonl"], in: dir, shell: Self.limit)
      #expect(r.status == 2, "\(r)")
      #expect(r.stderr.contains("m.jsonl:2") && r.stderr.contains("at most 67108864 bytes, found \(1_200_000_000 - first.count) bytes"), "\(r.stderr)")
      #expect(!Files.exists(dir + "/a.png"), "nothing is drawn from an invalid manifest")
      // Only NUL bytes: one line, too long, the same way.
      try Self.sparse(dir + "/nul.jsonl", size: 700_000_000)
      let nul = try CLI.run(["batch", "nul.jsonl"], in: dir, shell: Self.limit)
      #expect(nul.status == 2 && nul.stderr.contains("nul.jsonl:1"), "\(nul)")
    }
  }

  @Test("mapsnap test: an expected image is read no further than a PNG of its declared size can take", .enabled(if: !underSanitizer))
  func hugeExpectedImage() throws {
    try withTemporaryDirectory { dir in
      try Files.write(Self.scene, to: dir + "/cases/a/scene.json")
      try Files.write(#"{"scales": [2000], "reports": false}"#, to: dir + "/cases/a/golden.json")
      // A real 64×48 PNG's first bytes, then 8 GiB of nothing.
      let png = try Files.read(Repository.root + "/Tests/Fixtures/png/ga8.png")
      try Self.sparse(dir + "/cases/a/2000.png", size: 8 << 30, prefix: Array(png.prefix(33)))
      let r = try CLI.run(["test", "cases"], in: dir, environment: Self.clean, shell: Self.limit)
      #expect(r.status == 2, "could not run: \(r)")
      #expect(r.stderr.contains("more than the limit"), "\(r.stderr)")
      // Not a PNG at all: known from its first bytes.
      try Self.sparse(dir + "/cases/a/2000.png", size: 1_500_000_000, prefix: Array("not a png".utf8))
      let other = try CLI.run(["test", "cases"], in: dir, environment: Self.clean, shell: Self.limit)
      #expect(other.status == 2 && other.stderr.contains("not a PNG"), "\(other)")
    }
  }

  @Test("mapsnap diff refuses an interlaced PNG too large to hold twice, from its header")
  func hugeInterlacedDiff() throws {
    try withTemporaryDirectory { dir in
      // Signature and IHDR of a 16384² RGBA Adam7 image; no image data.
      var ihdr: [UInt8] = []
      for v in [16384, 16384] { ihdr += PNG.bigEndian(UInt32(v)) }
      ihdr += [8, 6, 0, 0, 1]
      let bytes = PNG.signature + PNG.chunk("IHDR", ihdr) + PNG.chunk("IEND", [])
      try Files.write(bytes, to: dir + "/a.png")
      try Files.write(bytes, to: dir + "/b.png")
      let r = try CLI.run(["diff", "a.png", "b.png"], in: dir)
      #expect(r.status == 2, "\(r)")
      #expect(r.stderr.contains("at most 67108864 pixels"), "\(r.stderr)")
      // Sides past the PNG limit (2^31 − 1) are refused from the header, not multiplied.
      var huge: [UInt8] = []
      for _ in 0..<2 { huge += PNG.bigEndian(0xFFFF_FFFF) }
      huge += [8, 6, 0, 0, 1]
      try Files.write(PNG.signature + PNG.chunk("IHDR", huge) + PNG.chunk("IEND", []), to: dir + "/c.png")
      let overflow = try CLI.run(["diff", "c.png", "c.png"], in: dir)
      #expect(overflow.status == 2 && overflow.stderr.contains("1 to 2147483647"), "\(overflow)")
    }
  }

  @Test("a source whose size says nothing (/proc/self/pagemap) is read no more than a megabyte past it")
  func endlessSource() throws {
    try withTemporaryDirectory { dir in
      let layers = (0..<4).map { i in
        ##"{"id": "l\##(i)", "type": "features", "source": {"geojson": "/proc/self/pagemap"}, "style": {"fill": "#f00"}}"##
      }
      try Files.write(
        #"{"version": 1, "map": {"center": [0, 0], "scale": 2000, "size": [64, 48]}, "layers": [\#(layers.joined(separator: ", "))]}"#,
        to: dir + "/s.json")
      let r = try CLI.run(["s.json", "-o", "a.png"], in: dir, shell: Self.underSanitizer ? nil : Self.limit)
      #expect(r.status == 0, "\(r)")
      #expect(r.stderr.contains("goes on past the 0 bytes its size gave"), "\(r.stderr)")
    }
  }
}
