#include "serve_shims.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <webp/encode.h>

// libjpeg reports errors by calling error_exit, which must not return: it
// jumps back to the encoder with the message kept.
struct jpeg_failure {
  struct jpeg_error_mgr manager;
  jmp_buf back;
  char *message;
  size_t capacity;
};

static void jpeg_failed(j_common_ptr info) {
  struct jpeg_failure *f = (struct jpeg_failure *)info->err;
  if (f->message && f->capacity) {
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    snprintf(f->message, f->capacity, "%s", text);
  }
  longjmp(f->back, 1);
}

int mapsnap_jpeg_encode(const uint8_t *rgba, int width, int height, int stride, int quality,
                        uint8_t **out, size_t *size, char *message, size_t capacity) {
  struct jpeg_compress_struct info;
  struct jpeg_failure failure;
  // Read after longjmp: `row` is volatile; `b`'s address is libjpeg's
  // (jpeg_mem_dest), so it is read from memory.
  unsigned char *b = NULL;
  unsigned char *volatile row = NULL;
  unsigned long length = 0;
  memset(&info, 0, sizeof info);
  info.err = jpeg_std_error(&failure.manager);
  failure.manager.error_exit = jpeg_failed;
  failure.message = message;
  failure.capacity = capacity;
  if (setjmp(failure.back)) {
    jpeg_destroy_compress(&info);
    free(row);
    free(b);
    return -1;
  }
  jpeg_create_compress(&info);
  jpeg_mem_dest(&info, &b, &length);
  info.image_width = (JDIMENSION)width;
  info.image_height = (JDIMENSION)height;
  info.input_components = 3;
  info.in_color_space = JCS_RGB;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  jpeg_start_compress(&info, TRUE);
  row = malloc((size_t)width * 3);
  if (!row) {
    snprintf(message, capacity, "out of memory");
    jpeg_destroy_compress(&info);
    free(b);
    return -1;
  }
  while (info.next_scanline < info.image_height) {
    const uint8_t *src = rgba + (size_t)info.next_scanline * (size_t)stride;
    for (int x = 0; x < width; x++) {
      // Straight alpha over white: c·a + 255·(1 − a), rounded.
      unsigned a = src[4 * x + 3];
      for (int c = 0; c < 3; c++) {
        unsigned v = src[4 * x + c] * a + 255u * (255u - a);
        row[3 * x + c] = (unsigned char)((v + 127u) / 255u);
      }
    }
    JSAMPROW rows[1] = {row};
    jpeg_write_scanlines(&info, rows, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  free(row);
  *out = b;
  *size = length;
  return 0;
}

int mapsnap_webp_encode(const uint8_t *rgba, int width, int height, int stride, float quality,
                        uint8_t **out, size_t *size) {
  uint8_t *b = NULL;
  size_t n = quality < 0 ? WebPEncodeLosslessRGBA(rgba, width, height, stride, &b)
                         : WebPEncodeRGBA(rgba, width, height, stride, quality, &b);
  if (n == 0) {
    if (b) WebPFree(b);
    return -1;
  }
  *out = b;
  *size = n;
  return 0;
}

void mapsnap_jpeg_free(uint8_t *p) { free(p); }
void mapsnap_webp_free(uint8_t *p) { WebPFree(p); }
