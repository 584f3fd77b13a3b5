/*
 * png_shim_io.h — the error and output plumbing shared by the shim's encoders
 * (png_shims.c, png_parallel.c; the row reader, png_reader.c, uses the error
 * half): libpng messages copied into the caller's buffer, longjmp back to the
 * entry point's setjmp, and a growable in-memory output. Internal to the
 * _PNGShims target (not in include/).
 */
#ifndef MAPSNAP_PNG_SHIM_IO_H
#define MAPSNAP_PNG_SHIM_IO_H

#include <png.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* First allocation for the encoded file; grows by doubling. */
#define SHIM_INITIAL_OUTPUT_CAPACITY (64u * 1024u)

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

#endif
