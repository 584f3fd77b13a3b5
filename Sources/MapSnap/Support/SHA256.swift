internal import _HashShims

/// SHA-256 (FIPS 180-4), for the input digests that `--resume` compares:
/// written here rather than pulled from a package, as it is the only hash
/// mapsnap needs and a few dozen lines. Whole blocks go to the processor's
/// SHA instructions where it has them (`_HashShims`, about 8× faster), else
/// to the portable compression below; both give the same bits.
package struct SHA256: Sendable {
  /// Whether `mapsnap_sha256_blocks` may be used, checked once.
  private static let acceleratable = mapsnap_sha256_accelerated() != 0
  /// Whether this hash uses it: always, but for the tests of the portable path.
  private let accelerated: Bool

  /// The first 32 bits of the fractional parts of the cube roots of the
  /// first 64 primes (FIPS 180-4, 4.2.2).
  private static let k: [UInt32] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]

  /// The initial hash value: the first 32 bits of the fractional parts of
  /// the square roots of the first 8 primes (FIPS 180-4, 5.3.3).
  private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
  )
  /// Bytes waiting for a full 64-byte block.
  private var pending: [UInt8] = []
  private var length: UInt64 = 0

  public init() {
    accelerated = Self.acceleratable
    pending.reserveCapacity(64)
  }

  /// A hash that never uses the SHA instructions, so that tests compare the
  /// two paths on machines that have them.
  init(portableOnly: Void) {
    accelerated = false
    pending.reserveCapacity(64)
  }


  /// Adds `bytes` to the message.
  public mutating func update(_ bytes: some Collection<UInt8>) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { update(contiguous: $0) }
    if done == nil { update(contiguous: Array(bytes)) }
  }

  private mutating func update(contiguous bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { update(contiguous: $0) }
  }

  /// Whole blocks straight from the caller's bytes; the rest waits in
  /// `pending`, copied in at most two runs (never byte by byte: a digest of
  /// many short pieces, such as `FeatureDigest`'s, would spend its time there).
  private mutating func update(contiguous bytes: UnsafeBufferPointer<UInt8>) {
    length &+= UInt64(bytes.count)
    var i = 0
    if !pending.isEmpty {
      let take = min(64 - pending.count, bytes.count)
      pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<take]))
      i = take
      guard pending.count == 64 else { return }
      flushPending()
    }
    let blocks = (bytes.count - i) / 64
    if blocks > 0 {
      compress(UnsafeBufferPointer(rebasing: bytes[i..<(i + 64 * blocks)]))
      i += 64 * blocks
    }
    pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i...]))
  }

  private mutating func flushPending() {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
      _ = block.initialize(from: pending)
      compress(UnsafeBufferPointer(block))
    }
    pending.removeAll(keepingCapacity: true)
  }

  /// Adds the UTF-8 bytes of `text`.
  public mutating func update(_ text: String) { update(Array(text.utf8)) }

  /// The 32-byte digest of everything added.
  public func finalize() -> [UInt8] {
    var copy = self
    let bits = length &* 8
    copy.pending.append(0x80)
    if copy.pending.count > 56 {
      while copy.pending.count < 64 { copy.pending.append(0) }
      copy.flushPending()
    }
    while copy.pending.count < 56 { copy.pending.append(0) }
    for i in (0..<8).reversed() { copy.pending.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
    copy.flushPending()
    var out: [UInt8] = []
    out.reserveCapacity(32)
    for word in [copy.h.0, copy.h.1, copy.h.2, copy.h.3, copy.h.4, copy.h.5, copy.h.6, copy.h.7] {
      for i in (0..<4).reversed() { out.append(UInt8(truncatingIfNeeded: word >> (UInt32(i) * 8))) }
    }
    return out
  }

  /// The digest as 64 lowercase hexadecimal digits.
  public func hexDigest() -> String { Self.hex(finalize()) }

  /// The digest of `bytes`, as hexadecimal.
  public static func hex(of bytes: some Collection<UInt8>) -> String {
    var s = SHA256()
    s.update(bytes)
    return s.hexDigest()
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for b in bytes {
      out.append(digits[Int(b >> 4)])
      out.append(digits[Int(b & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Whole 64-byte blocks, in order (FIPS 180-4, 6.2.2).
  private mutating func compress(_ blocks: UnsafeBufferPointer<UInt8>) {
    let count = blocks.count / 64
    guard count > 0, let base = blocks.baseAddress else { return }
    if accelerated {
      withUnsafeMutableBytes(of: &h) { state in
        mapsnap_sha256_blocks(state.baseAddress!.assumingMemoryBound(to: UInt32.self), base, count)
      }
      return
    }
    for b in 0..<count { compressPortably(UnsafeBufferPointer(start: base + 64 * b, count: 64)) }
  }

  /// One 64-byte block, in Swift: the reference for the accelerated path.
  private mutating func compressPortably(_ block: UnsafeBufferPointer<UInt8>) {
    @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
    h = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
      for t in 0..<16 {
        w[t] = UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16 | UInt32(block[4 * t + 2]) << 8 | UInt32(block[4 * t + 3])
      }
      for t in 16..<64 {
        let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
        let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
      }
      var (a, b, c, d, e, f, g, hh) = h
      for t in 0..<64 {
        let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
        let ch = (e & f) ^ (~e & g)
        let t1 = hh &+ s1 &+ ch &+ Self.k[t] &+ w[t]
        let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
        let maj = (a & b) ^ (a & c) ^ (b & c)
        let t2 = s0 &+ maj
        hh = g
        g = f
        f = e
        e = d &+ t1
        d = c
        c = b
        b = a
        a = t1 &+ t2
      }
      return (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
    }
  }
}
