/*
 * png_shims.c — libpng 1.6 encode/decode with setjmp-contained error handling.
 *
 * Every entry point creates its libpng structures, installs an error handler
 * that copies libpng's message into the caller's buffer and longjmps back to
 * the setjmp in the same entry point, and destroys everything on every path.
 * Nothing in here prints to stderr: warnings are ignored, errors are returned.
 */
#include "png_shims.h"
#include "png_shim_io.h"
#include "png_shim_decode.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

_Static_assert(PNG_SHIM_STRATEGY_DEFAULT == Z_DEFAULT_STRATEGY,
               "PNG_SHIM_STRATEGY_DEFAULT must be zlib's Z_DEFAULT_STRATEGY");

/* ------------------------------------------------------------------------ */
/* Encoding                                                                  */



int png_shim_encode_rgba8(const void *pixels, uint32_t width, uint32_t height,
                          size_t row_stride, int write_rgb, int zlib_level,
                          int zlib_strategy, int filter, PNGShimBuffer *out,
                          char *error_message, size_t error_capacity) {
  static const char prefix[] = "png_shim_encode_rgba8: ";
  shim_error error = {error_message, error_capacity, 0};
  shim_output output = {NULL, 0, 0, &error};
  png_structp png;
  png_infop info;
  const uint8_t *rows = (const uint8_t *)pixels;
  uint32_t y;
  int status;

  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (out == NULL || pixels == NULL) {
    shim_set_message(&error, prefix, "null pointer argument");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  out->data = NULL;
  out->size = 0;
  status = shim_check_size(&error, prefix, width, height);
  if (status != PNG_SHIM_OK) return status;
  if (row_stride / 4 < width) {
    shim_set_message(&error, prefix, "row stride is smaller than width * 4 bytes");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  status = shim_check_deflate(&error, prefix, zlib_level, filter);
  if (status != PNG_SHIM_OK) return status;

  status = shim_create_writer(&error, &output, &png, &info);
  if (status != PNG_SHIM_OK) return status;

  /* output lives in memory reached through png's io pointer, not registers. */
  if (setjmp(png_jmpbuf(png))) return shim_abandon_writer(&png, &info, &output);

  shim_set_compression(png, zlib_level, zlib_strategy, filter);

  png_set_IHDR(png, info, width, height, 8,
               write_rgb ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE,
               PNG_FILTER_TYPE_BASE);
  png_write_info(png, info);
  /* Input rows carry 4 bytes per pixel; for RGB, libpng drops the 4th. */
  if (write_rgb) png_set_filler(png, 0, PNG_FILLER_AFTER);

  for (y = 0; y < height; y++) png_write_row(png, rows + (size_t)y * row_stride);
  return shim_finish_writer(&png, &info, &output, out);
}

/* ------------------------------------------------------------------------ */
/* Decoding                                                                  */

typedef struct shim_input {
  const uint8_t *data;
  size_t size;
  size_t position;
} shim_input;

static void shim_read(png_structp png, png_bytep bytes, size_t length) {
  shim_input *input = (shim_input *)png_get_io_ptr(png);
  if (length > input->size - input->position)
    png_error(png, "unexpected end of data (the PNG is truncated)");
  memcpy(bytes, input->data + input->position, length);
  input->position += length;
}

static int shim_check_signature(const void *data, size_t size,
                                shim_error *error) {
  if (data == NULL || size < 8 ||
      png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
    shim_set_message(error, NULL,
                     size < 8 ? "data is shorter than the 8-byte PNG signature"
                              : "data does not start with the PNG signature");
    return 0;
  }
  return 1;
}

/* Creates a reader over the input. Returns 0 (and sets the message) on OOM. */
static int shim_create_reader(shim_error *error, shim_input *input,
                              png_structp *png_out, png_infop *info_out) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, error,
                                           shim_on_error, shim_on_warning);
  png_infop info;
  if (png == NULL) {
    shim_set_message(error, NULL, "out of memory creating the libpng reader");
    return 0;
  }
  info = png_create_info_struct(png);
  if (info == NULL) {
    png_destroy_read_struct(&png, NULL, NULL);
    shim_set_message(error, NULL, "out of memory creating the libpng info");
    return 0;
  }
  png_set_read_fn(png, input, shim_read);
  shim_set_read_limits(png);
  *png_out = png;
  *info_out = info;
  return 1;
}

int png_shim_read_info(const void *data, size_t size, uint64_t max_pixels,
                       PNGShimImageInfo *info_out, char *error_message,
                       size_t error_capacity) {
  shim_error error = {error_message, error_capacity, 0};
  shim_input input = {(const uint8_t *)data, size, 0};
  png_structp png;
  png_infop info;

  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (info_out == NULL) {
    shim_set_message(&error, "png_shim_read_info: ", "null info pointer");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  memset(info_out, 0, sizeof *info_out);
  if (!shim_check_signature(data, size, &error)) return PNG_SHIM_NOT_A_PNG;
  if (!shim_create_reader(&error, &input, &png, &info))
    return PNG_SHIM_OUT_OF_MEMORY;

  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    return error.out_of_memory ? PNG_SHIM_OUT_OF_MEMORY : PNG_SHIM_DECODE_FAILED;
  }
  png_read_info(png, info);
  shim_fill_info(png, info, info_out);
  png_destroy_read_struct(&png, &info, NULL);
  return shim_too_large(info_out, max_pixels, &error) ? PNG_SHIM_TOO_LARGE
                                                       : PNG_SHIM_OK;
}

int png_shim_decode_rgba8(const void *data, size_t size, uint64_t max_pixels,
                          void *dst, size_t dst_capacity,
                          uint8_t **out_allocated, PNGShimImageInfo *info_out,
                          char *error_message, size_t error_capacity) {
  shim_error error = {error_message, error_capacity, 0};
  shim_input input = {(const uint8_t *)data, size, 0};
  png_structp png;
  png_infop info;
  /* Assigned after setjmp and needed on the error path: must be volatile. */
  uint8_t *volatile allocated = NULL;
  uint8_t *pixels;
  size_t stride, needed;
  uint32_t y, width, height;
  int pass, passes;

  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (info_out == NULL || (dst == NULL && out_allocated == NULL)) {
    shim_set_message(&error, "png_shim_decode_rgba8: ", "null pointer argument");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  memset(info_out, 0, sizeof *info_out);
  if (out_allocated != NULL) *out_allocated = NULL;
  if (!shim_check_signature(data, size, &error)) return PNG_SHIM_NOT_A_PNG;
  if (!shim_create_reader(&error, &input, &png, &info))
    return PNG_SHIM_OUT_OF_MEMORY;

  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    free(allocated);
    return error.out_of_memory ? PNG_SHIM_OUT_OF_MEMORY : PNG_SHIM_DECODE_FAILED;
  }

  png_read_info(png, info);
  shim_fill_info(png, info, info_out);
  if (shim_too_large(info_out, max_pixels, &error)) {
    png_destroy_read_struct(&png, &info, NULL);
    return PNG_SHIM_TOO_LARGE;
  }
  width = info_out->width;
  height = info_out->height;

  /* Everything to 8-bit straight RGBA (png_shim_decode.h), the same
   * conversion as the row reader's. */
  passes = shim_set_rgba8_transforms(png, info, info_out);
  stride = (size_t)width * 4;
  needed = stride * height; /* cannot overflow: checked by shim_too_large */

  if (dst != NULL) {
    if (dst_capacity < needed) {
      png_destroy_read_struct(&png, &info, NULL);
      shim_set_message(&error, NULL,
                       "destination buffer is smaller than width * height * 4");
      return PNG_SHIM_BUFFER_TOO_SMALL;
    }
    pixels = (uint8_t *)dst;
  } else {
    allocated = (uint8_t *)malloc(needed);
    if (allocated == NULL) {
      png_destroy_read_struct(&png, &info, NULL);
      shim_set_message(&error, NULL, "out of memory allocating decoded pixels");
      return PNG_SHIM_OUT_OF_MEMORY;
    }
    pixels = allocated;
  }

  /* For interlaced images each pass merges its pixels into the full rows. */
  for (pass = 0; pass < passes; pass++)
    for (y = 0; y < height; y++)
      png_read_row(png, pixels + (size_t)y * stride, NULL);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);

  if (out_allocated != NULL) *out_allocated = allocated;
  return PNG_SHIM_OK;
}

void png_shim_free(void *pointer) { free(pointer); }
