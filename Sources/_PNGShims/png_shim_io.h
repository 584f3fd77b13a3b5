/*
 * png_shim_io.h — the error and output plumbing shared by the shim's encoders
 * (png_shims.c, png_palette.c, png_parallel.c; the row reader, png_reader.c,
 * uses the error half): libpng messages copied into the caller's buffer,
 * longjmp back to the entry point's setjmp, a growable in-memory output, and
 * the writer every encoder creates and configures. Internal to the _PNGShims
 * target (not in include/).
 */
#ifndef MAPSNAP_PNG_SHIM_IO_H
#define MAPSNAP_PNG_SHIM_IO_H

#include <png.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "png_shims.h"

/* First allocation for the encoded file; grows by doubling. */
#define SHIM_INITIAL_OUTPUT_CAPACITY (64u * 1024u)

/* zlib's internal output buffer for IDAT data; one IDAT chunk per fill. */
#define SHIM_COMPRESSION_BUFFER_SIZE (256u * 1024u)

/* ------------------------------------------------------------------------ */
/* Error plumbing                                                            */

typedef struct shim_error {
  char *message;   /* caller's buffer, may be NULL */
  size_t capacity; /* its size in bytes */
  /* Set by callbacks between setjmp and longjmp, so kept volatile. */
  volatile int out_of_memory;
} shim_error;

static void shim_set_message(shim_error *error, const char *prefix,
                             const char *text) {
  size_t used = 0;
  if (error->message == NULL || error->capacity == 0) return;
  error->message[0] = '\0';
  if (prefix != NULL) {
    size_t length = strlen(prefix);
    if (length >= error->capacity) length = error->capacity - 1;
    memcpy(error->message, prefix, length);
    used = length;
  }
  if (text != NULL && used + 1 < error->capacity) {
    size_t length = strlen(text);
    if (length > error->capacity - 1 - used) length = error->capacity - 1 - used;
    memcpy(error->message + used, text, length);
    used += length;
  }
  error->message[used] = '\0';
}

static void shim_on_error(png_structp png, png_const_charp message) {
  shim_error *error = (shim_error *)png_get_error_ptr(png);
  if (error != NULL) shim_set_message(error, "libpng: ", message);
  png_longjmp(png, 1);
}

static void shim_on_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message; /* warnings (bad ancillary chunks, sRGB profiles...) are ignored */
}

/* Modified by shim_write between setjmp and a possible longjmp and read on
 * the error path, so the members are volatile (C11 7.13.2.1p3). */
typedef struct shim_output {
  uint8_t *volatile data;
  volatile size_t size;
  volatile size_t capacity;
  shim_error *error;
} shim_output;

static void shim_write(png_structp png, png_bytep bytes, size_t length) {
  shim_output *output = (shim_output *)png_get_io_ptr(png);
  if (length > output->capacity - output->size) {
    size_t needed = output->size + length;
    size_t capacity =
        output->capacity != 0 ? output->capacity : SHIM_INITIAL_OUTPUT_CAPACITY;
    uint8_t *grown;
    if (needed < output->size) { /* overflow */
      output->error->out_of_memory = 1;
      png_error(png, "encoded PNG does not fit in memory");
    }
    while (capacity < needed) {
      if (capacity > SIZE_MAX / 2) {
        capacity = needed;
        break;
      }
      capacity *= 2;
    }
    grown = (uint8_t *)realloc(output->data, capacity);
    if (grown == NULL) {
      output->error->out_of_memory = 1;
      png_error(png, "out of memory growing the PNG output buffer");
    }
    output->data = grown;
    output->capacity = capacity;
  }
  memcpy(output->data + output->size, bytes, length);
  output->size += length;
}

static void shim_flush(png_structp png) { (void)png; }

/* ------------------------------------------------------------------------ */
/* Writer                                                                    */

/* The image size every encoder accepts: each side 1...PNG_SHIM_MAX_DIMENSION.
 * Returns PNG_SHIM_OK, or PNG_SHIM_INVALID_ARGUMENT with the message set
 * after `prefix` (the entry point's name). */
static int shim_check_size(shim_error *error, const char *prefix,
                           uint32_t width, uint32_t height) {
  if (width == 0 || height == 0 || width > PNG_SHIM_MAX_DIMENSION ||
      height > PNG_SHIM_MAX_DIMENSION) {
    shim_set_message(error, prefix, "width and height must be in 1...2147483647");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  return PNG_SHIM_OK;
}

/* The deflate choices every libpng encoder accepts: a zlib level 0...9 and
 * PNG_SHIM_FILTER_NONE or PNG_SHIM_FILTER_ADAPTIVE. Returns as
 * shim_check_size does. */
static int shim_check_deflate(shim_error *error, const char *prefix,
                              int zlib_level, int filter) {
  if (zlib_level < 0 || zlib_level > 9) {
    shim_set_message(error, prefix, "zlib level must be in 0...9");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  if (filter != PNG_SHIM_FILTER_NONE && filter != PNG_SHIM_FILTER_ADAPTIVE) {
    shim_set_message(error, prefix, "unknown filter");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  return PNG_SHIM_OK;
}

/* Creates an encoder's libpng writer and its info: libpng's errors go to
 * `error` (and longjmp to the caller's setjmp), its bytes to `output`, and
 * its dimension limits are the shim's, since libpng's defaults (1,000,000)
 * would refuse legal wide images. None of these calls raises a libpng error,
 * so the caller's setjmp follows this, before its first libpng call that can.
 * Returns PNG_SHIM_OK, or PNG_SHIM_OUT_OF_MEMORY with the message set and
 * nothing left to destroy (*png and *info NULL). */
static int shim_create_writer(shim_error *error, shim_output *output,
                              png_structp *png, png_infop *info) {
  *info = NULL;
  *png = png_create_write_struct(PNG_LIBPNG_VER_STRING, error, shim_on_error,
                                 shim_on_warning);
  if (*png == NULL) {
    shim_set_message(error, NULL, "out of memory creating the libpng writer");
    return PNG_SHIM_OUT_OF_MEMORY;
  }
  *info = png_create_info_struct(*png);
  if (*info == NULL) {
    png_destroy_write_struct(png, NULL);
    shim_set_message(error, NULL, "out of memory creating the libpng info");
    return PNG_SHIM_OUT_OF_MEMORY;
  }
  png_set_write_fn(*png, output, shim_write, shim_flush);
  png_set_user_limits(*png, PNG_SHIM_MAX_DIMENSION, PNG_SHIM_MAX_DIMENSION);
  return PNG_SHIM_OK;
}

/* What an encoder returns when libpng longjmps back to its setjmp: the
 * writer and the partial output freed, PNG_SHIM_OUT_OF_MEMORY when the output
 * could not grow and PNG_SHIM_ENCODE_FAILED for any other libpng error (its
 * message already set). */
static int shim_abandon_writer(png_structp *png, png_infop *info,
                               shim_output *output) {
  png_destroy_write_struct(png, info);
  free(output->data);
  return output->error->out_of_memory ? PNG_SHIM_OUT_OF_MEMORY
                                      : PNG_SHIM_ENCODE_FAILED;
}

/* Ends the file, frees the writer and hands the output to `out`. libpng may
 * longjmp from png_write_end to the caller's setjmp. */
static int shim_finish_writer(png_structp *png, png_infop *info,
                              shim_output *output, PNGShimBuffer *out) {
  png_write_end(*png, NULL);
  png_destroy_write_struct(png, info);
  out->data = output->data;
  out->size = output->size;
  return PNG_SHIM_OK;
}

/* Sets an encoder's deflate and filter choices: zlib at `level` (0...9) with
 * `strategy` (a zlib strategy, or PNG_SHIM_STRATEGY_LIBPNG_DEFAULT to keep
 * libpng's own), output in SHIM_COMPRESSION_BUFFER_SIZE chunks, and rows
 * unfiltered (PNG_SHIM_FILTER_NONE) or filtered by libpng's adaptive choice
 * among all five filters. Called after the caller's setjmp. */
static void shim_set_compression(png_structp png, int level, int strategy,
                                 int filter) {
  png_set_compression_level(png, level);
  if (strategy != PNG_SHIM_STRATEGY_LIBPNG_DEFAULT)
    png_set_compression_strategy(png, strategy);
  png_set_compression_buffer_size(png, SHIM_COMPRESSION_BUFFER_SIZE);
  png_set_filter(png, PNG_FILTER_TYPE_BASE,
                 filter == PNG_SHIM_FILTER_NONE ? PNG_FILTER_NONE : PNG_ALL_FILTERS);
}

#endif
