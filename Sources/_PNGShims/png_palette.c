/*
 * png_palette.c — palette (colour type 3) PNG encoding: PLTE, tRNS when an
 * entry is translucent, indices packed to the smallest bit depth that holds
 * the palette. Error handling as in png_shims.c: the setjmp is in the entry
 * point, everything is destroyed on every path, nothing is printed.
 */
#include "png_palette.h"
#include "png_shim_io.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

int png_shim_palette_bit_depth(uint32_t palette_count) {
  if (palette_count <= 2) return 1;
  if (palette_count <= 4) return 2;
  if (palette_count <= 16) return 4;
  return 8;
}

int png_shim_encode_palette(const uint8_t *indices, uint32_t width, uint32_t height,
                            size_t row_stride, const uint8_t *palette_rgba,
                            uint32_t palette_count, uint32_t translucent_count,
                            int zlib_level, int filter, PNGShimBuffer *out,
                            char *error_message, size_t error_capacity) {
  static const char prefix[] = "png_shim_encode_palette: ";
  shim_error error = {error_message, error_capacity, 0};
  shim_output output = {NULL, 0, 0, &error};
  png_structp png;
  png_infop info;
  png_color plte[256];
  png_byte trns[256];
  uint32_t i, x, y;
  int bit_depth;
  int status;

  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (out == NULL || indices == NULL || palette_rgba == NULL) {
    shim_set_message(&error, prefix, "null pointer argument");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  out->data = NULL;
  out->size = 0;
  status = shim_check_size(&error, prefix, width, height);
  if (status != PNG_SHIM_OK) return status;
  if (row_stride < width) {
    shim_set_message(&error, prefix, "row stride is smaller than width");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  if (palette_count == 0 || palette_count > 256 || translucent_count > palette_count) {
    shim_set_message(&error, prefix,
                     "palette must have 1...256 entries, at most all of them translucent");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  status = shim_check_deflate(&error, prefix, zlib_level, filter);
  if (status != PNG_SHIM_OK) return status;
  for (i = 0; i < palette_count; i++) {
    plte[i].red = palette_rgba[4 * i];
    plte[i].green = palette_rgba[4 * i + 1];
    plte[i].blue = palette_rgba[4 * i + 2];
    trns[i] = palette_rgba[4 * i + 3];
    if (i >= translucent_count && trns[i] != 255) {
      shim_set_message(&error, prefix,
                       "a translucent entry comes after the first translucent_count entries");
      return PNG_SHIM_INVALID_ARGUMENT;
    }
  }
  /* An index past the palette would make a file decoders refuse. */
  for (y = 0; y < height; y++) {
    const uint8_t *row = indices + (size_t)y * row_stride;
    uint8_t largest = 0;
    for (x = 0; x < width; x++) largest = row[x] > largest ? row[x] : largest;
    if (largest >= palette_count) {
      shim_set_message(&error, prefix, "an index is not below palette_count");
      return PNG_SHIM_INVALID_ARGUMENT;
    }
  }
  bit_depth = png_shim_palette_bit_depth(palette_count);

  status = shim_create_writer(&error, &output, &png, &info);
  if (status != PNG_SHIM_OK) return status;

  if (setjmp(png_jmpbuf(png))) return shim_abandon_writer(&png, &info, &output);

  shim_set_compression(png, zlib_level, PNG_SHIM_STRATEGY_DEFAULT, filter);

  png_set_IHDR(png, info, width, height, bit_depth, PNG_COLOR_TYPE_PALETTE,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_set_PLTE(png, info, plte, (int)palette_count);
  if (translucent_count > 0) png_set_tRNS(png, info, trns, (int)translucent_count, NULL);
  png_write_info(png, info);
  /* Rows hold one byte per index; libpng packs them for depths below 8. */
  if (bit_depth < 8) png_set_packing(png);

  for (y = 0; y < height; y++) png_write_row(png, indices + (size_t)y * row_stride);
  return shim_finish_writer(&png, &info, &output, out);
}
