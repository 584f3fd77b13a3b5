#include "jpeg_shims.h"

#include "lazy_libraries.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

/* The error manager: libjpeg's, plus where to jump and where to write. */
typedef struct shim_error_mgr {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  char *message;
  size_t capacity;
  int warnings; /* corrupt-data warnings (a truncated stream raises one) */
} shim_error_mgr;

static void shim_copy(shim_error_mgr *e, const char *text) {
  if (e->message == NULL || e->capacity == 0) return;
  strncpy(e->message, text, e->capacity - 1);
  e->message[e->capacity - 1] = '\0';
}

static void shim_error_exit(j_common_ptr cinfo) {
  shim_error_mgr *e = (shim_error_mgr *)cinfo->err;
  char text[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, text);
  shim_copy(e, text);
  longjmp(e->jump, 1);
}

/* Warnings (level -1) mean corrupt data; libjpeg would go on and pad the
 * image. Remember the first and fail after decoding. */
static void shim_emit_message(j_common_ptr cinfo, int level) {
  shim_error_mgr *e = (shim_error_mgr *)cinfo->err;
  if (level == -1 && e->warnings++ == 0) {
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    shim_copy(e, text);
  }
}

static void shim_output_message(j_common_ptr cinfo) { (void)cinfo; }

int jpeg_shim_decode_rgba8(const void *data, size_t size, uint64_t max_pixels,
                           uint8_t **out_pixels, uint32_t *out_width, uint32_t *out_height,
                           char *error_message, size_t error_capacity) {
  struct jpeg_decompress_struct cinfo;
  shim_error_mgr err;
  /* Assigned after setjmp and needed on the error path: must be volatile. */
  uint8_t *volatile pixels = NULL;
  volatile int status = JPEG_SHIM_DECODE_FAILED;
  JSAMPROW row_pointer[1];
  uint8_t *volatile row = NULL;
  uint32_t width, height, x;
  size_t rgba_size;

  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (data == NULL || out_pixels == NULL || out_width == NULL || out_height == NULL) return JPEG_SHIM_INVALID_ARGUMENT;
  *out_pixels = NULL;
  *out_width = 0;
  *out_height = 0;
  {
    const uint8_t *b = (const uint8_t *)data;
    if (size < 3 || b[0] != 0xFF || b[1] != 0xD8 || b[2] != 0xFF) {
      if (error_message != NULL && error_capacity != 0) {
        strncpy(error_message, "not a JPEG (no FF D8 FF start marker)", error_capacity - 1);
        error_message[error_capacity - 1] = '\0';
      }
      return JPEG_SHIM_NOT_A_JPEG;
    }
  }
  {
    /* libjpeg is opened on first use (lazy_libraries.h). */
    const char *missing = mapsnap_jpeg_unavailable();
    if (missing != NULL) {
      if (error_message != NULL && error_capacity != 0) {
        strncpy(error_message, missing, error_capacity - 1);
        error_message[error_capacity - 1] = '\0';
      }
      return JPEG_SHIM_DECODE_FAILED;
    }
  }
  memset(&err, 0, sizeof err);
  err.message = error_message;
  err.capacity = error_capacity;
  cinfo.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = shim_error_exit;
  err.pub.emit_message = shim_emit_message;
  err.pub.output_message = shim_output_message;
  if (setjmp(err.jump)) {
    jpeg_destroy_decompress(&cinfo);
    free(row);
    free(pixels);
    return status;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, (const unsigned char *)data, (unsigned long)size);
  jpeg_read_header(&cinfo, TRUE);
  width = cinfo.image_width;
  height = cinfo.image_height;
  *out_width = width;
  *out_height = height;
  if (width == 0 || height == 0 || (uint64_t)width * height > max_pixels) {
    shim_copy(&err, "the JPEG is larger than the decoder's limit");
    jpeg_destroy_decompress(&cinfo);
    return JPEG_SHIM_TOO_LARGE;
  }
  if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
    shim_copy(&err, "CMYK JPEGs are not supported");
    jpeg_destroy_decompress(&cinfo);
    return JPEG_SHIM_DECODE_FAILED;
  }
  cinfo.out_color_space = JCS_RGB;
  jpeg_start_decompress(&cinfo);
  rgba_size = (size_t)width * height * 4;
  pixels = (uint8_t *)malloc(rgba_size);
  row = (uint8_t *)malloc((size_t)width * 3);
  if (pixels == NULL || row == NULL) {
    status = JPEG_SHIM_OUT_OF_MEMORY;
    shim_copy(&err, "out of memory");
    longjmp(err.jump, 1);
  }
  row_pointer[0] = row;
  while (cinfo.output_scanline < cinfo.output_height) {
    uint32_t y = cinfo.output_scanline;
    uint8_t *dst = pixels + (size_t)y * width * 4;
    jpeg_read_scanlines(&cinfo, row_pointer, 1);
    for (x = 0; x < width; x++) {
      dst[4 * x] = row[3 * x];
      dst[4 * x + 1] = row[3 * x + 1];
      dst[4 * x + 2] = row[3 * x + 2];
      dst[4 * x + 3] = 255;
    }
  }
  if (err.warnings > 0) {
    /* Corrupt or truncated data: libjpeg padded the image; refuse it. */
    status = JPEG_SHIM_DECODE_FAILED;
    longjmp(err.jump, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  free(row);
  *out_pixels = pixels;
  return JPEG_SHIM_OK;
}
