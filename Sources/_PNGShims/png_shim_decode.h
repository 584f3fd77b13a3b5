/*
 * png_shim_decode.h — what the shim's two decoders share: the whole-image
 * decoder (png_shims.c) and the streaming row reader (png_reader.c) fill the
 * same PNGShimImageInfo, apply the same pixel limit and set up the same
 * conversion to 8-bit straight RGBA, so their pixels are byte for byte equal.
 * Internal to the _PNGShims target (not in include/).
 */
#ifndef MAPSNAP_PNG_SHIM_DECODE_H
#define MAPSNAP_PNG_SHIM_DECODE_H

#include <png.h>
#include <stdint.h>

#include "png_shim_io.h"
#include "png_shims.h"

/*
 * The limits every reader sets before png_read_info, so that a hostile file
 * is refused from its header and chunk table, never by running out of memory:
 * - libpng's own side limits are lifted to PNG's (2^31 - 1) so that the
 *   header is read and shim_too_large, right after png_read_info and before
 *   any row buffer exists, refuses it with its real size;
 * - at most PNG_SHIM_MAX_CHUNK_CACHE ancillary chunks kept (text, unknown
 *   chunks, sPLT), and at most PNG_SHIM_MAX_CHUNK_BYTES for any one chunk's
 *   data, decompressed text and iCCP included.
 */
static void shim_set_read_limits(png_structp png) {
  png_set_user_limits(png, PNG_SHIM_MAX_DIMENSION, PNG_SHIM_MAX_DIMENSION);
  png_set_chunk_cache_max(png, PNG_SHIM_MAX_CHUNK_CACHE);
  png_set_chunk_malloc_max(png, PNG_SHIM_MAX_CHUNK_BYTES);
}

static void shim_fill_info(png_structp png, png_infop info,
                           PNGShimImageInfo *out) {
  out->width = png_get_image_width(png, info);
  out->height = png_get_image_height(png, info);
  out->color_type = png_get_color_type(png, info);
  out->bit_depth = png_get_bit_depth(png, info);
  out->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
  out->has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
}

/* 1 (and the message) when width * height exceeds max_pixels (0 means
 * PNG_SHIM_DEFAULT_MAX_PIXELS), width * height * 4 bytes overflow size_t, or
 * the width exceeds PNG_SHIM_MAX_READ_DIMENSION (libpng's row buffers grow
 * with the width, 8 bytes a pixel for 16-bit RGBA: at most 8 MiB). */
static int shim_too_large(const PNGShimImageInfo *info, uint64_t max_pixels,
                          shim_error *error) {
  uint64_t pixels = (uint64_t)info->width * (uint64_t)info->height;
  if (max_pixels == 0) max_pixels = PNG_SHIM_DEFAULT_MAX_PIXELS;
  /* The decoded buffer's byte count must also fit in size_t. */
  if (pixels > max_pixels || pixels > (uint64_t)(SIZE_MAX / 4) ||
      info->width > PNG_SHIM_MAX_READ_DIMENSION) {
    shim_set_message(error, NULL, "image has more pixels than allowed");
    return 1;
  }
  return 0;
}

/*
 * After png_read_info: every colour type and bit depth to 8-bit straight RGBA,
 * sample values not gamma-corrected. Palette and tRNS are expanded, gray
 * becomes RGB, 16-bit samples are scaled with rounding (png_set_scale_16:
 * round(v * 255 / 65535), not the high byte), and images without alpha get
 * A = 0xFF. Calls png_read_update_info, checks the result is width * 4 bytes
 * per row (png_error otherwise) and returns the number of interlace passes
 * (1, or 7 for Adam7). May longjmp: call it under the caller's setjmp.
 */
static int shim_set_rgba8_transforms(png_structp png, png_infop info,
                                     const PNGShimImageInfo *image) {
  int passes;
  if (image->color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (image->color_type == PNG_COLOR_TYPE_GRAY && image->bit_depth < 8)
    png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  png_set_expand(png);
  if (image->bit_depth == 16) png_set_scale_16(png); /* round(v * 255 / 65535) */
  if (image->color_type == PNG_COLOR_TYPE_GRAY ||
      image->color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
    png_set_gray_to_rgb(png);
  if ((image->color_type & PNG_COLOR_MASK_ALPHA) == 0 && !image->has_trns)
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
  passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);

  if (png_get_channels(png, info) != 4 || png_get_bit_depth(png, info) != 8 ||
      png_get_rowbytes(png, info) != (size_t)image->width * 4)
    png_error(png, "internal error: transformations did not yield RGBA8");
  return passes;
}

#endif
