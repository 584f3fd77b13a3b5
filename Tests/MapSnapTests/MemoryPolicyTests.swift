import Testing

@testable import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// `MemoryPolicy`: blocks up to 32 MiB come from the heap once the rule is
/// applied; larger ones still get their own mapping. Not under a sanitizer,
/// whose allocator replaces glibc's (TSan, ASan: `make test-tsan`).
@Suite(.serialized) struct MemoryPolicyTests {
  static let sanitized = ["__tsan_init", "__asan_init"].contains { (name: String) in dlsym(nil, name) != nil }

  @Test(.disabled(if: sanitized, "a sanitizer's allocator replaces glibc's"))
  func blocksUnderTheThresholdComeFromTheHeap() throws {
    #expect(MemoryPolicy.keepFreedMemory(), "glibc refused the policy")
    let before = try #require(MemoryPolicy.mappedBytes)
    // 16 MiB: over glibc's default threshold (128 KiB, raised only by frees
    // of mapped blocks, to at most 32 MiB), under the policy's.
    let heap = try #require(malloc(16 << 20))
    let onHeap = try #require(MemoryPolicy.mappedBytes)
    // 48 MiB: over the policy's threshold, mapped on its own.
    let big = try #require(malloc(48 << 20))
    let withBig = try #require(MemoryPolicy.mappedBytes)
    free(big)
    free(heap)
    #expect(onHeap == before, "a 16 MiB block was mapped on its own: \(onHeap - before) bytes")
    #expect(withBig - onHeap >= 48 << 20, "a 48 MiB block came from the heap")
  }
}
