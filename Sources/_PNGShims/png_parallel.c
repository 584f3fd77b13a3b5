/*
 * png_parallel.c — PNG encoding with the zlib stream compressed in parallel.
 *
 * The image's scanlines (filter byte 0, then RGB or RGBA bytes) are cut into
 * segments of a fixed number of rows that depends only on the image width.
 * Each segment is compressed as raw deflate on its own thread, primed with the
 * previous segment's last 32 KiB as its dictionary (so matches may reach back
 * across the cut, as pigz does) and ended with a sync flush; the last segment
 * ends the stream. The zlib header, the segments and the combined Adler-32
 * form one valid zlib stream, written as IDAT chunks through libpng, which
 * also writes the signature, IHDR, IEND and every CRC.
 *
 * The bytes written do not depend on the number of threads.
 */
#include <png.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "png_shims.h"
#include "png_shim_io.h"

enum { SEGMENT_TARGET_BYTES = 256 * 1024, WINDOW = 32768, MAX_THREADS = 64 };

typedef struct segment {
  size_t start;   /* offset of the first raw byte */
  size_t length;  /* raw bytes */
  uint8_t *out;   /* compressed bytes (malloc) */
  size_t out_size;
  uLong adler;
  int failed;
} segment;

typedef struct job {
  const uint8_t *pixels;
  size_t row_stride;
  uint32_t width;
  uint32_t height;
  int write_rgb;
  int level;
  size_t raw_row;      /* bytes per scanline including the filter byte */
  uint32_t segment_rows;
  uint8_t *raw;        /* all scanlines */
  segment *segments;
  size_t count;
  atomic_size_t next;
} job;

/* Phase 1: scanlines of one segment (filter byte 0 + pixel bytes). */
static void build_rows(job *j, size_t s) {
  uint32_t y0 = (uint32_t)(s * j->segment_rows);
  uint32_t y1 = y0 + j->segment_rows;
  if (y1 > j->height) y1 = j->height;
  for (uint32_t y = y0; y < y1; y++) {
    uint8_t *dst = j->raw + (size_t)y * j->raw_row;
    const uint8_t *src = j->pixels + (size_t)y * j->row_stride;
    *dst++ = 0;
    if (j->write_rgb) {
      for (uint32_t x = 0; x < j->width; x++, src += 4, dst += 3) {
        dst[0] = src[0];
        dst[1] = src[1];
        dst[2] = src[2];
      }
    } else {
      memcpy(dst, src, (size_t)j->width * 4);
    }
  }
}

/* Phase 2: one segment as raw deflate, primed with the bytes before it. */
static void compress_segment(job *j, size_t s) {
  segment *seg = &j->segments[s];
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, j->level, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    seg->failed = 1;
    return;
  }
  if (seg->start > 0) {
    size_t dict = seg->start < WINDOW ? seg->start : WINDOW;
    deflateSetDictionary(&z, j->raw + seg->start - dict, (uInt)dict);
  }
  size_t bound = deflateBound(&z, (uLong)seg->length) + 64;
  seg->out = (uint8_t *)malloc(bound);
  if (seg->out == NULL) {
    deflateEnd(&z);
    seg->failed = 1;
    return;
  }
  z.next_in = j->raw + seg->start;
  z.avail_in = (uInt)seg->length;
  z.next_out = seg->out;
  z.avail_out = (uInt)bound;
  int last = s + 1 == j->count;
  int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
  if ((last && rc != Z_STREAM_END) || (!last && rc != Z_OK) || z.avail_in != 0) seg->failed = 1;
  seg->out_size = bound - z.avail_out;
  deflateEnd(&z);
  seg->adler = adler32(1L, j->raw + seg->start, (uInt)seg->length);
}

typedef struct worker_arg {
  job *j;
  int phase;
} worker_arg;

static void *worker(void *p) {
  worker_arg *a = (worker_arg *)p;
  job *j = a->j;
  for (;;) {
    size_t s = atomic_fetch_add(&j->next, 1);
    if (s >= j->count) break;
    if (a->phase == 1) build_rows(j, s); else compress_segment(j, s);
  }
  return NULL;
}

static void run_phase(job *j, int phase, int threads) {
  pthread_t ids[MAX_THREADS];
  worker_arg arg = {j, phase};
  int started = 0;
  atomic_store(&j->next, 0);
  for (int t = 1; t < threads; t++) {
    if (pthread_create(&ids[started], NULL, worker, &arg) == 0) started++;
  }
  worker(&arg); /* the calling thread works too */
  for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
}

int png_shim_encode_parallel(const void *pixels, uint32_t width, uint32_t height,
                             size_t row_stride, int write_rgb, int zlib_level, int threads,
                             PNGShimBuffer *out, char *error_message, size_t error_capacity) {
  shim_error error = {error_message, error_capacity, 0};
  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (out == NULL || pixels == NULL || width == 0 || height == 0 || row_stride / 4 < width ||
      zlib_level < 0 || zlib_level > 9 || width > PNG_SHIM_MAX_DIMENSION || height > PNG_SHIM_MAX_DIMENSION) {
    shim_set_message(&error, "png_shim_encode_parallel: ", "invalid argument");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  out->data = NULL;
  out->size = 0;
  if (threads < 1) threads = 1;
  if (threads > MAX_THREADS) threads = MAX_THREADS;

  job j;
  memset(&j, 0, sizeof j);
  j.pixels = (const uint8_t *)pixels;
  j.row_stride = row_stride;
  j.width = width;
  j.height = height;
  j.write_rgb = write_rgb;
  j.level = zlib_level;
  j.raw_row = 1 + (size_t)width * (write_rgb ? 3 : 4);
  j.segment_rows = (uint32_t)(SEGMENT_TARGET_BYTES / j.raw_row);
  if (j.segment_rows < 8) j.segment_rows = 8;
  j.count = (height + j.segment_rows - 1) / j.segment_rows;
  j.raw = (uint8_t *)malloc(j.raw_row * height);
  j.segments = (segment *)calloc(j.count, sizeof(segment));
  if (j.raw == NULL || j.segments == NULL) {
    free(j.raw);
    free(j.segments);
    shim_set_message(&error, NULL, "out of memory preparing scanlines");
    return PNG_SHIM_OUT_OF_MEMORY;
  }
  for (size_t s = 0; s < j.count; s++) {
    uint32_t y0 = (uint32_t)(s * j.segment_rows);
    uint32_t y1 = y0 + j.segment_rows > height ? height : y0 + j.segment_rows;
    j.segments[s].start = (size_t)y0 * j.raw_row;
    j.segments[s].length = (size_t)(y1 - y0) * j.raw_row;
  }
  int workers = threads < (int)j.count ? threads : (int)j.count;
  run_phase(&j, 1, workers);
  run_phase(&j, 2, workers);
  free(j.raw);

  /* One zlib stream: header, segments, Adler-32 of all scanlines. */
  int status = PNG_SHIM_OK;
  size_t total = 2 + 4;
  uLong adler = 1L;
  for (size_t s = 0; s < j.count; s++) {
    if (j.segments[s].failed) status = PNG_SHIM_ENCODE_FAILED;
    total += j.segments[s].out_size;
    adler = adler32_combine(adler, j.segments[s].adler, (z_off_t)j.segments[s].length);
  }
  uint8_t *stream = status == PNG_SHIM_OK ? (uint8_t *)malloc(total) : NULL;
  if (status == PNG_SHIM_OK && stream == NULL) status = PNG_SHIM_OUT_OF_MEMORY;
  if (stream != NULL) {
    unsigned flevel = zlib_level < 2 ? 0 : zlib_level < 6 ? 1 : zlib_level == 6 ? 2 : 3;
    unsigned cmf = 0x78, flg = flevel << 6;
    flg += 31 - ((cmf * 256 + flg) % 31);
    size_t at = 0;
    stream[at++] = (uint8_t)cmf;
    stream[at++] = (uint8_t)flg;
    for (size_t s = 0; s < j.count; s++) {
      memcpy(stream + at, j.segments[s].out, j.segments[s].out_size);
      at += j.segments[s].out_size;
    }
    stream[at++] = (uint8_t)(adler >> 24);
    stream[at++] = (uint8_t)(adler >> 16);
    stream[at++] = (uint8_t)(adler >> 8);
    stream[at++] = (uint8_t)adler;
  }
  for (size_t s = 0; s < j.count; s++) free(j.segments[s].out);
  free(j.segments);
  if (status != PNG_SHIM_OK) {
    shim_set_message(&error, NULL, status == PNG_SHIM_OUT_OF_MEMORY ? "out of memory compressing" : "zlib failed to compress a segment");
    return status;
  }

  /* Signature, IHDR, IDAT chunks and IEND through libpng. */
  shim_output output = {NULL, 0, 0, &error};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, shim_on_error, shim_on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (png == NULL || info == NULL) {
    png_destroy_write_struct(&png, &info);
    free(stream);
    shim_set_message(&error, NULL, "out of memory creating the libpng writer");
    return PNG_SHIM_OUT_OF_MEMORY;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(stream);
    free(output.data);
    return error.out_of_memory ? PNG_SHIM_OUT_OF_MEMORY : PNG_SHIM_ENCODE_FAILED;
  }
  png_set_write_fn(png, &output, shim_write, shim_flush);
  png_set_user_limits(png, PNG_SHIM_MAX_DIMENSION, PNG_SHIM_MAX_DIMENSION);
  png_set_IHDR(png, info, width, height, 8, write_rgb ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_write_info(png, info);
  const size_t chunk = 1 << 20;
  for (size_t at = 0; at < total; at += chunk) {
    size_t n = total - at < chunk ? total - at : chunk;
    png_write_chunk(png, (png_const_bytep) "IDAT", stream + at, n);
  }
  png_write_chunk(png, (png_const_bytep) "IEND", NULL, 0);
  png_destroy_write_struct(&png, &info);
  free(stream);
  out->data = output.data;
  out->size = output.size;
  return PNG_SHIM_OK;
}
