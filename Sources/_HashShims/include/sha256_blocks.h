#ifndef MAPSNAP_SHA256_BLOCKS_H
#define MAPSNAP_SHA256_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

/// True when this processor has the SHA extensions (x86-64 SHA-NI with
/// SSSE3 and SSE4.1) that `mapsnap_sha256_blocks` uses. Checked once with
/// CPUID; always false on other architectures.
int mapsnap_sha256_accelerated(void);

/// Runs the SHA-256 compression function (FIPS 180-4, 6.2.2) over `blocks`
/// 64-byte blocks at `data`, updating the eight state words `state` (H0…H7,
/// native integers). Call only when `mapsnap_sha256_accelerated()` is true;
/// the result is the same as the portable compression's, bit for bit.
void mapsnap_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
