// SHA-256's compression function on the x86 SHA extensions (SHA-NI), for
// the input digests: the portable Swift compression (SHA256.swift) hashes
// about 0.2 GB/s, these instructions about 1.5–2 GB/s, and a frame with text
// hashes its 5.5 MB of bundled fonts once per process.
//
// The state is kept as the two vectors the instructions want, ABEF and
// CDGH. Each group of four rounds adds four message words to four round
// constants; sha256rnds2 does two rounds with the low two sums, the
// shuffle 0x0E brings the high two down for the next two. From group 4 on,
// the message schedule W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16]
// comes from sha256msg1 (W[t-16] + σ0(W[t-15])), the W[t-7] words taken
// across two vectors by alignr, and sha256msg2 (the σ1 terms).
#include "sha256_blocks.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include "system_shims.h"

int mapsnap_sha256_accelerated(void) {
  int need = MAPSNAP_CPU_SSSE3 | MAPSNAP_CPU_SSE41 | MAPSNAP_CPU_SHA;
  return (mapsnap_cpu_features() & need) == need;
}

/// FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube
/// roots of the first 64 primes.
static const uint32_t K[64] __attribute__((aligned(16))) = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

__attribute__((target("sha,ssse3,sse4.1")))
void mapsnap_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
  // Big-endian message words: reverse the bytes of each 32-bit lane.
  const __m128i byteswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
  __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
  __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

  for (; blocks > 0; blocks--, data += 64) {
    const __m128i abef0 = abef, cdgh0 = cdgh;
    __m128i w[4];
    // Fully unrolled, so that the four message vectors live in registers and
    // the first four groups' loads need no branch.
#pragma clang loop unroll(full)
    for (int g = 0; g < 16; g++) {
      __m128i wg;
      if (g < 4) {
        wg = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * g)), byteswap);
      } else {
        __m128i t = _mm_sha256msg1_epu32(w[(g - 4) & 3], w[(g - 3) & 3]);
        t = _mm_add_epi32(t, _mm_alignr_epi8(w[(g - 1) & 3], w[(g - 2) & 3], 4));
        wg = _mm_sha256msg2_epu32(t, w[(g - 1) & 3]);
      }
      w[g & 3] = wg;
      __m128i sum = _mm_add_epi32(wg, _mm_load_si128((const __m128i *)&K[4 * g]));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, sum);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(sum, 0x0E));
    }
    abef = _mm_add_epi32(abef, abef0);
    cdgh = _mm_add_epi32(cdgh, cdgh0);
  }

  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

#else

int mapsnap_sha256_accelerated(void) { return 0; }
void mapsnap_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
  (void)state; (void)data; (void)blocks;
}

#endif
