/*
 * png_palette.h — palette (colour type 3) PNG encoding for mapsnap's PNG8
 * output. Same conventions as png_shims.h: libpng's setjmp/longjmp stays
 * inside the shim, failures come back as a PNGShimStatus and a message.
 */
#ifndef MAPSNAP_PNG_PALETTE_H
#define MAPSNAP_PNG_PALETTE_H

#include <stddef.h>
#include <stdint.h>

#include "png_shims.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Encodes an image of palette indices as a PNG of colour type 3 held in
 * memory.
 *
 * - indices: height rows, each starting row_stride bytes after the previous,
 *   each holding width bytes, one palette index per pixel (every index must
 *   be below palette_count, or PNG_SHIM_INVALID_ARGUMENT is returned).
 * - palette_rgba: palette_count entries of 4 bytes R, G, B, A (straight
 *   alpha), palette_count in 1...256. Written as PLTE (R, G, B).
 * - translucent_count: the entries 0 ..< translucent_count are the ones whose
 *   alpha is not 255 (the caller sorts them first); their alphas are written
 *   as tRNS, which is omitted when translucent_count is 0. Entries from
 *   translucent_count on must be opaque (PNG_SHIM_INVALID_ARGUMENT otherwise).
 * - Bit depth: the smallest of 1, 2, 4 and 8 bits that holds palette_count
 *   indices (2, 4, 16, 256 entries); libpng packs the one-byte indices.
 * - zlib_level 0...9, filter a PNGShimFilter (PNG recommends NONE for
 *   palette images).
 *
 * No other ancillary chunk is written. On PNG_SHIM_OK, *out holds the file;
 * free it with png_shim_free(out->data). On failure *out is {NULL, 0}.
 */
int png_shim_encode_palette(const uint8_t *indices, uint32_t width, uint32_t height,
                            size_t row_stride, const uint8_t *palette_rgba,
                            uint32_t palette_count, uint32_t translucent_count,
                            int zlib_level, int filter, PNGShimBuffer *out,
                            char *error_message, size_t error_capacity);

/** The bit depth png_shim_encode_palette writes for palette_count entries. */
int png_shim_palette_bit_depth(uint32_t palette_count);

#ifdef __cplusplus
}
#endif

#endif /* MAPSNAP_PNG_PALETTE_H */
