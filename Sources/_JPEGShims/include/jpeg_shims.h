/*
 * jpeg_shims.h — a small C layer over libjpeg(-turbo) for mapsnap's tiles.
 *
 * libjpeg reports fatal errors through error_exit, which must not return;
 * Swift cannot survive a longjmp either. The decoder here owns its setjmp,
 * destroys the decompressor on every path and reports failure as a status
 * plus a NUL-terminated message copied into a caller-supplied buffer.
 *
 * This header does not include <jpeglib.h>, so importing the module from
 * Swift does not bring libjpeg's API along.
 */
#ifndef MAPSNAP_JPEG_SHIMS_H
#define MAPSNAP_JPEG_SHIMS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum JPEGShimStatus {
  JPEG_SHIM_OK = 0,
  /** Null pointers. */
  JPEG_SHIM_INVALID_ARGUMENT = 1,
  /** The data does not start with a JPEG SOI marker (FF D8 FF). */
  JPEG_SHIM_NOT_A_JPEG = 2,
  /** libjpeg failed (corrupt, truncated or unsupported data). */
  JPEG_SHIM_DECODE_FAILED = 3,
  /** More pixels than the caller's limit; width and height are filled in. */
  JPEG_SHIM_TOO_LARGE = 4,
  /** malloc failed. */
  JPEG_SHIM_OUT_OF_MEMORY = 5,
} JPEGShimStatus;

/**
 * Decodes a baseline or progressive JPEG (grey, RGB or YCbCr; CMYK is
 * refused) to straight 8-bit RGBA with alpha 255, rows top to bottom. On
 * JPEG_SHIM_OK, *out_pixels is a malloc'd buffer of width * height * 4 bytes
 * that the caller frees. Images of more than max_pixels pixels are refused
 * before any pixel memory is allocated. A truncated stream is an error, not
 * a grey bottom.
 */
int jpeg_shim_decode_rgba8(const void *data, size_t size, uint64_t max_pixels,
                           uint8_t **out_pixels, uint32_t *out_width, uint32_t *out_height,
                           char *error_message, size_t error_capacity);

#ifdef __cplusplus
}
#endif

#endif
