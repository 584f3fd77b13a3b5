/*
 * png_parallel.c — PNG encoding with the zlib stream compressed in parallel,
 * whole or as a stream of row strips.
 *
 * The image's scanlines (filter byte 0, then RGB or RGBA bytes) are cut into
 * segments of a fixed number of rows that depends only on the image width
 * (png_shim_segment_rows). Each segment is compressed as raw deflate on its
 * own thread, primed with the 32 KiB of scanlines before it as its dictionary
 * (so matches may reach back across the cut, as pigz does) and ended with a
 * sync flush; the last segment ends the stream. A worker makes the scanline
 * bytes of its segment, dictionary included, from the pixels itself, into a
 * buffer of its own that stays in its cache, just before compressing them:
 * a separate pass making every scanline first was bound by memory bandwidth
 * and did not get faster with more threads. A segment is deflated by zlib or
 * by ISA-L's igzip (the `fast` preset: five to eight times faster than
 * zlib's level 2 on map frames, 9–17 % larger), each from a fresh state, so
 * its bytes depend only on its scanlines and dictionary. The zlib header, the segments
 * and the combined Adler-32 form one valid zlib stream, written as IDAT
 * chunks of 1 MiB (the last one shorter) through libpng, which also writes
 * the signature, IHDR, IEND and every CRC.
 *
 * A stream (png_stream.h) takes the rows a strip at a time, whole segments
 * per strip, and keeps only the last 32 KiB of scanlines and the part of the
 * zlib stream that does not fill an IDAT chunk yet; the whole-image encoder
 * is that stream fed in blocks of segments. So the bytes written do not
 * depend on the number of threads or on how the rows are cut into strips.
 *
 * Or the caller's own threads compress runs of whole segments
 * (png_shim_stream_compress_rows, each with a worker index of its own) and
 * hand them back in row order (png_shim_stream_append_rows): a thread then
 * compresses the rows it has just drawn. Such a run carries the rows before
 * it whose scanlines are its first segment's dictionary, so no state passes
 * between runs but the Adler-32, combined as they are appended.
 */
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <isa-l/igzip_lib.h>

#include "lazy_libraries.h"
#include "system_shims.h"
#include "png_shims.h"
#include "png_stream.h"
#include "png_shim_io.h"

enum {
  /* Scanline bytes per segment: large enough that the sync flush between
   * segments costs little, small enough that a frame has many to share out. */
  SEGMENT_TARGET_BYTES = 256 * 1024,
  /* Fewest rows per segment, for very wide images. */
  SEGMENT_MIN_ROWS = 8,
  /* deflate's window: a segment's dictionary. */
  WINDOW = 32768,
  MAX_THREADS = 64,
  /* Bytes of the zlib stream per IDAT chunk. */
  IDAT_BYTES = 1 << 20,
  /* Segments the whole-image encoder hands the stream at a time (about
   * 16 MiB of scanlines). */
  BLOCK_SEGMENTS = 64,
};

typedef struct segment {
  size_t start;   /* offset of the first raw byte in the job's buffer */
  size_t length;  /* raw bytes */
  uint8_t *out;   /* compressed bytes (malloc; kept by the stream for the next strip) */
  size_t out_size;
  size_t out_capacity;
  uLong adler;
  int failed;
} segment;

/* One igzip state per worker, with the buffer its level needs. */
typedef struct igzip_state {
  struct isal_zstream z;
  uint8_t *level_buf;
  uint32_t level_buf_size;
} igzip_state;

/* One strip's worth of segments. */
typedef struct job {
  const uint8_t *pixels;  /* the strip's first row */
  size_t row_stride;
  uint32_t width;
  uint32_t rows;          /* rows in the strip */
  int write_rgb;
  int deflater;           /* a PNGShimDeflater */
  int level;
  size_t raw_row;         /* bytes per scanline including the filter byte */
  uint32_t segment_rows;
  /* The strip's scanline bytes are numbered from the start of `window` (the
   * last `prefix` bytes of earlier scanlines: the first segment's
   * dictionary), then the strip's own rows. */
  size_t prefix;
  const uint8_t *window;
  /* Per worker: a buffer for one segment's scanlines and its dictionary. */
  uint8_t **work;
  size_t *work_capacity;
  segment *segments;
  size_t count;
  int ends_image;         /* the strip's last segment ends the zlib stream */
  atomic_size_t next;
  /* One deflate state per worker, set up once per stream and reset per
   * segment (deflateReset gives the same bytes as a fresh deflateInit2). */
  z_stream *deflaters;
  int *deflater_ready;
  /* Or, for igzip, one state per worker (allocated on first use). */
  igzip_state **igzips;
} job;

#if defined(__x86_64__)
#include <tmmintrin.h>

/* 16 RGBA pixels at a time into 48 bytes: each 4-pixel load packed by a
 * byte shuffle into its 12 low bytes, the four joined into three stores.
 * SSSE3 (pshufb): every x86-64 processor since 2011, checked at run time. */
__attribute__((target("ssse3"))) static size_t rgba_to_rgb_ssse3(const uint8_t *src, uint8_t *dst, size_t n) {
  const __m128i pack = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  size_t done = 0;
  for (; n - done >= 16; done += 16, src += 64, dst += 48) {
    __m128i a = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)src), pack);
    __m128i b = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(src + 16)), pack);
    __m128i c = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(src + 32)), pack);
    __m128i d = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(src + 48)), pack);
    _mm_storeu_si128((__m128i *)dst, _mm_or_si128(a, _mm_slli_si128(b, 12)));
    _mm_storeu_si128((__m128i *)(dst + 16), _mm_or_si128(_mm_srli_si128(b, 4), _mm_slli_si128(c, 8)));
    _mm_storeu_si128((__m128i *)(dst + 32), _mm_or_si128(_mm_srli_si128(c, 8), _mm_slli_si128(d, 4)));
  }
  return done;
}

#endif

/* `n` RGBA pixels as RGB bytes. */
static void rgba_to_rgb(const uint8_t *src, uint8_t *dst, size_t n) {
#if defined(__x86_64__)
  if (n >= 16 && (mapsnap_cpu_features() & MAPSNAP_CPU_SSSE3)) {
    size_t done = rgba_to_rgb_ssse3(src, dst, n);
    src += 4 * done;
    dst += 3 * done;
    n -= done;
  }
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* Four pixels (16 bytes) into three words (12 bytes) at a time. */
  for (; n >= 4; n -= 4, src += 16, dst += 12) {
    uint32_t a, b, c, d;
    memcpy(&a, src, 4);
    memcpy(&b, src + 4, 4);
    memcpy(&c, src + 8, 4);
    memcpy(&d, src + 12, 4);
    uint32_t o0 = (a & 0xFFFFFFu) | (b << 24);
    uint32_t o1 = ((b >> 8) & 0xFFFFu) | (c << 16);
    uint32_t o2 = ((c >> 16) & 0xFFu) | (d << 8);
    memcpy(dst, &o0, 4);
    memcpy(dst + 4, &o1, 4);
    memcpy(dst + 8, &o2, 4);
  }
#endif
  for (; n > 0; n--, src += 4, dst += 3) {
    dst[0] = src[0];
    dst[1] = src[1];
    dst[2] = src[2];
  }
}

/* Writes the strip's scanline bytes [from, to) (numbered as in `job`) to
 * `dst`: window bytes, then each scanline's filter byte 0 and pixel bytes,
 * from any byte of a row to any other. */
static void raw_bytes(const job *j, size_t from, size_t to, uint8_t *dst) {
  if (from < j->prefix) {
    size_t end = to < j->prefix ? to : j->prefix;
    memcpy(dst, j->window + from, end - from);
    dst += end - from;
    from = end;
  }
  size_t bpp = j->write_rgb ? 3 : 4;
  while (from < to) {
    size_t off = from - j->prefix;
    size_t y = off / j->raw_row;
    size_t col = off % j->raw_row; /* 0: the filter byte */
    size_t end = to - from < j->raw_row - col ? col + (to - from) : j->raw_row;
    const uint8_t *src = j->pixels + y * j->row_stride;
    from += end - col;
    if (col == 0) {
      *dst++ = 0;
      col = 1;
    }
    if (!j->write_rgb) {
      memcpy(dst, src + (col - 1), end - col);
      dst += end - col;
      continue;
    }
    /* Pixel byte b = col - 1 is channel b % 3 of pixel b / 3. */
    while (col < end && (col - 1) % bpp != 0) {
      *dst++ = src[(col - 1) / bpp * 4 + (col - 1) % bpp];
      col++;
    }
    size_t whole = (end - col) / bpp;
    rgba_to_rgb(src + (col - 1) / bpp * 4, dst, whole);
    dst += whole * bpp;
    col += whole * bpp;
    while (col < end) {
      *dst++ = src[(col - 1) / bpp * 4 + (col - 1) % bpp];
      col++;
    }
  }
}

/* The bytes igzip's level needs beside its state (igzip_lib.h's defaults). */
static uint32_t igzip_level_buf_size(int level) {
  switch (level) {
  case 1: return ISAL_DEF_LVL1_DEFAULT;
  case 2: return ISAL_DEF_LVL2_DEFAULT;
  case 3: return ISAL_DEF_LVL3_DEFAULT;
  default: return 0;
  }
}

/* Grows a segment's output buffer to at least `bound` bytes, keeping what it
 * holds; false when out of memory. */
static int grow_output(segment *seg, size_t bound) {
  if (seg->out_capacity >= bound) return 1;
  uint8_t *grown = (uint8_t *)realloc(seg->out, bound);
  if (grown == NULL) return 0;
  seg->out = grown;
  seg->out_capacity = bound;
  return 1;
}

/* One segment's scanlines (raw[dict..]) deflated by igzip from a fresh
 * state, primed with the `dict` bytes before them, ended with a sync flush
 * (or the end of the stream). */
static void igzip_segment(job *j, segment *seg, int w, uint8_t *raw, size_t dict, int last) {
  igzip_state *st = j->igzips[w];
  if (st == NULL) {
    st = (igzip_state *)calloc(1, sizeof *st);
    if (st != NULL) {
      st->level_buf_size = igzip_level_buf_size(j->level);
      st->level_buf = st->level_buf_size ? (uint8_t *)malloc(st->level_buf_size) : NULL;
      if (st->level_buf_size && st->level_buf == NULL) {
        free(st);
        st = NULL;
      }
    }
    j->igzips[w] = st;
    if (st == NULL) {
      seg->failed = 1;
      return;
    }
  }
  struct isal_zstream *z = &st->z;
  isal_deflate_init(z);
  z->level = (uint32_t)j->level;
  z->level_buf = st->level_buf;
  z->level_buf_size = st->level_buf_size;
  if (dict > 0 && isal_deflate_set_dict(z, raw, (uint32_t)dict) != COMP_OK) {
    seg->failed = 1;
    return;
  }
  /* Stored blocks at worst, plus the flush; grown if ever short. */
  size_t bound = seg->length + seg->length / 8 + 1024;
  if (!grow_output(seg, bound)) {
    seg->failed = 1;
    return;
  }
  z->next_in = raw + dict;
  z->avail_in = (uint32_t)seg->length;
  z->end_of_stream = last ? 1 : 0;
  z->flush = last ? NO_FLUSH : SYNC_FLUSH;
  size_t written = 0;
  for (;;) {
    z->next_out = seg->out + written;
    z->avail_out = (uint32_t)(seg->out_capacity - written);
    if (isal_deflate(z) != COMP_OK) {
      seg->failed = 1;
      return;
    }
    written = seg->out_capacity - z->avail_out;
    /* Done once the input is taken and the output did not fill: igzip
     * returns with room left only when it has written the flush (or the
     * stream's end) too. */
    if (z->avail_in == 0 && z->avail_out > 0 && (!last || z->internal_state.state == ZSTATE_END)) break;
    if (!grow_output(seg, seg->out_capacity * 2)) {
      seg->failed = 1;
      return;
    }
  }
  seg->out_size = written;
}

/* One segment's scanlines (raw[dict..]) deflated by zlib on worker `w`'s
 * state, reset (deflateReset gives the bytes of a fresh deflateInit2), primed
 * with the `dict` bytes before them, ended with a sync flush (or the end of
 * the stream). */
static void zlib_segment(job *j, segment *seg, int w, uint8_t *raw, size_t dict, int last) {
  z_stream *z = &j->deflaters[w];
  if (!j->deflater_ready[w]) {
    memset(z, 0, sizeof *z);
    if (deflateInit2(z, j->level, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
      seg->failed = 1;
      return;
    }
    j->deflater_ready[w] = 1;
  } else if (deflateReset(z) != Z_OK) {
    seg->failed = 1;
    return;
  }
  if (dict > 0) deflateSetDictionary(z, raw, (uInt)dict);
  size_t bound = deflateBound(z, (uLong)seg->length) + 64;
  if (!grow_output(seg, bound)) {
    seg->failed = 1;
    return;
  }
  z->next_in = raw + dict;
  z->avail_in = (uInt)seg->length;
  z->next_out = seg->out;
  z->avail_out = (uInt)bound;
  int rc = deflate(z, last ? Z_FINISH : Z_SYNC_FLUSH);
  if ((last && rc != Z_STREAM_END) || (!last && rc != Z_OK) || z->avail_in != 0) seg->failed = 1;
  seg->out_size = bound - z->avail_out;
}

/* Phase 2: one segment as raw deflate, primed with the bytes before it, on
 * worker `w`'s state and scanline buffer; its output buffer is reused from
 * earlier strips when large enough. */
static void compress_segment(job *j, size_t s, int w) {
  segment *seg = &j->segments[s];
  /* The segment's scanlines, after the (at most) WINDOW bytes before them. */
  size_t dict = seg->start < WINDOW ? seg->start : WINDOW;
  size_t need = dict + seg->length;
  if (j->work_capacity[w] < need) {
    free(j->work[w]);
    j->work[w] = (uint8_t *)malloc(need);
    j->work_capacity[w] = j->work[w] != NULL ? need : 0;
    if (j->work[w] == NULL) {
      seg->failed = 1;
      return;
    }
  }
  uint8_t *raw = j->work[w];
  raw_bytes(j, seg->start - dict, seg->start + seg->length, raw);
  int last = j->ends_image && s + 1 == j->count;
  if (j->deflater == PNG_SHIM_DEFLATE_IGZIP) {
    igzip_segment(j, seg, w, raw, dict, last);
    /* ISA-L's Adler-32 (vectorised): the same value as zlib's scalar one,
     * which took more time than igzip's deflate itself. */
    seg->adler = isal_adler32(1u, raw + dict, seg->length);
  } else {
    zlib_segment(j, seg, w, raw, dict, last);
    seg->adler = adler32(1L, raw + dict, (uInt)seg->length);
  }
}

typedef struct worker_arg {
  job *j;
  int index; /* the worker's deflate state and buffer */
} worker_arg;

static void *worker(void *p) {
  worker_arg *a = (worker_arg *)p;
  job *j = a->j;
  for (;;) {
    size_t s = atomic_fetch_add(&j->next, 1);
    if (s >= j->count) break;
    compress_segment(j, s, a->index);
  }
  return NULL;
}

static void run_workers(job *j, int threads) {
  pthread_t ids[MAX_THREADS];
  worker_arg args[MAX_THREADS];
  int started = 0;
  atomic_store(&j->next, 0);
  for (int t = 0; t < threads; t++) args[t] = (worker_arg){j, t};
  for (int t = 1; t < threads; t++) {
    if (pthread_create(&ids[started], NULL, worker, &args[t]) == 0) started++;
  }
  worker(&args[0]); /* the calling thread works too */
  for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
}

uint32_t png_shim_segment_rows(uint32_t width, int write_rgb) {
  size_t raw_row = 1 + (size_t)width * (write_rgb ? 3 : 4);
  size_t rows = SEGMENT_TARGET_BYTES / raw_row;
  return rows < SEGMENT_MIN_ROWS ? SEGMENT_MIN_ROWS : (uint32_t)rows;
}

/* ------------------------------------------------------------------------ */
/* The stream                                                                */

struct PNGShimStream {
  uint32_t width;
  uint32_t height;
  int write_rgb;
  int deflater;
  int level;
  int filter;
  int threads;
  size_t raw_row;
  uint32_t segment_rows;
  uint32_t rows_written;
  int failed;
  /* The last scanline bytes written (at most WINDOW): the next segment's
   * dictionary. */
  uint8_t window[WINDOW];
  size_t window_size;
  /* Set once rows came through png_shim_stream_append_rows, which leaves
   * no window: png_shim_stream_write_rows is refused after. */
  int window_unknown;
  /* Adler-32 of every scanline so far. */
  uLong adler;
  /* zlib stream bytes not yet in an IDAT chunk (fewer than IDAT_BYTES
   * between calls). */
  uint8_t *pending;
  size_t pending_size;
  size_t pending_capacity;
  /* Buffers kept from strip to strip, so that a print-size frame does not
   * map, fault and unmap fresh memory for every strip: per worker a buffer
   * for a segment's scanlines and a deflate state, and the segments with
   * their output buffers. */
  uint8_t *work[MAX_THREADS];
  size_t work_capacity[MAX_THREADS];
  /* The next strip's window, made before it replaces `window`. */
  uint8_t next_window[WINDOW];
  segment *segments;
  size_t segments_capacity;
  z_stream deflaters[MAX_THREADS];
  int deflater_ready[MAX_THREADS];
  igzip_state *igzips[MAX_THREADS];
  /* Workers kept for the stream's life (started on its first strip): a
   * print-size frame is compressed a strip at a time, and threads made
   * afresh for every strip started where their parent ran and took the
   * scheduler milliseconds to spread (8192² on 2 threads: 16 strips, with
   * stretches of one busy core inside each). Pool thread i compresses with
   * deflate state i + 1; the caller works too, with state 0. */
  pthread_t pool[MAX_THREADS];
  int pool_size;
  int pool_ready;
  pthread_mutex_t pool_lock;
  pthread_cond_t pool_wake;
  pthread_cond_t pool_done;
  job *pool_job;
  unsigned pool_generation;
  int pool_busy;
  int pool_quit;
  /* File bytes ready for the caller. */
  shim_output output;
  shim_error error;
  png_structp png;
  png_infop info;
};

static int stream_fail(PNGShimStream *s, int status, const char *message) {
  s->failed = 1;
  if (message != NULL) shim_set_message(&s->error, NULL, message);
  return status;
}

typedef struct pool_arg {
  PNGShimStream *s;
  int index;
} pool_arg;

/* A pool thread: waits for a job (a new generation), compresses segments
 * of it until none is left, reports, and waits again until the stream
 * closes. */
static void *pool_main(void *p) {
  pool_arg a = *(pool_arg *)p;
  free(p);
  PNGShimStream *s = a.s;
  unsigned seen = 0;
  pthread_mutex_lock(&s->pool_lock);
  for (;;) {
    while (!s->pool_quit && s->pool_generation == seen) pthread_cond_wait(&s->pool_wake, &s->pool_lock);
    if (s->pool_quit) break;
    seen = s->pool_generation;
    worker_arg w = {s->pool_job, a.index};
    pthread_mutex_unlock(&s->pool_lock);
    worker(&w);
    pthread_mutex_lock(&s->pool_lock);
    if (--s->pool_busy == 0) pthread_cond_signal(&s->pool_done);
  }
  pthread_mutex_unlock(&s->pool_lock);
  return NULL;
}

/* Runs `j` on the caller and the stream's pool (up to `threads` in all),
 * starting pool threads on first use; with fewer threads to be had, the
 * ones there are do the work (the output does not depend on who does). */
static void stream_run_workers(PNGShimStream *s, job *j, int threads) {
  if (threads <= 1) {
    run_workers(j, 1); /* the caller alone */
    return;
  }
  if (!s->pool_ready) {
    if (pthread_mutex_init(&s->pool_lock, NULL) != 0) {
      run_workers(j, threads);
      return;
    }
    pthread_cond_init(&s->pool_wake, NULL);
    pthread_cond_init(&s->pool_done, NULL);
    s->pool_ready = 1;
  }
  while (s->pool_size < s->threads - 1) {
    pool_arg *a = (pool_arg *)malloc(sizeof *a);
    if (a == NULL) break;
    *a = (pool_arg){s, s->pool_size + 1};
    if (pthread_create(&s->pool[s->pool_size], NULL, pool_main, a) != 0) {
      free(a);
      break;
    }
    s->pool_size++;
  }
  atomic_store(&j->next, 0);
  pthread_mutex_lock(&s->pool_lock);
  s->pool_job = j;
  s->pool_busy = s->pool_size;
  s->pool_generation++;
  pthread_cond_broadcast(&s->pool_wake);
  pthread_mutex_unlock(&s->pool_lock);
  worker_arg w = {j, 0};
  worker(&w);
  pthread_mutex_lock(&s->pool_lock);
  while (s->pool_busy > 0) pthread_cond_wait(&s->pool_done, &s->pool_lock);
  pthread_mutex_unlock(&s->pool_lock);
}

static void stream_stop_pool(PNGShimStream *s) {
  if (!s->pool_ready) return;
  pthread_mutex_lock(&s->pool_lock);
  s->pool_quit = 1;
  pthread_cond_broadcast(&s->pool_wake);
  pthread_mutex_unlock(&s->pool_lock);
  for (int t = 0; t < s->pool_size; t++) pthread_join(s->pool[t], NULL);
  pthread_cond_destroy(&s->pool_wake);
  pthread_cond_destroy(&s->pool_done);
  pthread_mutex_destroy(&s->pool_lock);
  s->pool_ready = 0;
}

/* True when `level` is one of `deflater`'s. */
static int valid_level(int deflater, int level) {
  if (deflater == PNG_SHIM_DEFLATE_IGZIP) return level >= ISAL_DEF_MIN_LEVEL && level <= ISAL_DEF_MAX_LEVEL;
  return deflater == PNG_SHIM_DEFLATE_ZLIB && level >= 0 && level <= 9;
}

int png_shim_stream_open(uint32_t width, uint32_t height, int write_rgb, int deflater, int level, int filter,
                         int threads, PNGShimStream **out, char *error_message, size_t error_capacity) {
  shim_error error = {error_message, error_capacity, 0};
  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (out == NULL || width == 0 || height == 0 || width > PNG_SHIM_MAX_DIMENSION ||
      height > PNG_SHIM_MAX_DIMENSION || !valid_level(deflater, level) ||
      (filter != PNG_SHIM_FILTER_NONE && filter != PNG_SHIM_FILTER_ADAPTIVE) ||
      (filter == PNG_SHIM_FILTER_ADAPTIVE && deflater != PNG_SHIM_DEFLATE_ZLIB)) {
    shim_set_message(&error, "png_shim_stream_open: ", "invalid argument");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  /* An image of one segment is deflated by zlib at the same level: it takes
   * a millisecond at most, less than opening ISA-L (0.1–0.4 ms, which an
   * empty scene's start would pay: issue 13's start-up target). */
  if (deflater == PNG_SHIM_DEFLATE_IGZIP && filter == PNG_SHIM_FILTER_NONE &&
      height <= png_shim_segment_rows(width, write_rgb))
    deflater = PNG_SHIM_DEFLATE_ZLIB;
  if (deflater == PNG_SHIM_DEFLATE_IGZIP) {
    const char *missing = mapsnap_isal_unavailable();
    if (missing != NULL) {
      shim_set_message(&error, "igzip: ", missing);
      return PNG_SHIM_ENCODE_FAILED;
    }
  }
  *out = NULL;
  PNGShimStream *s = (PNGShimStream *)calloc(1, sizeof(PNGShimStream));
  if (s == NULL) {
    shim_set_message(&error, NULL, "out of memory creating the PNG stream");
    return PNG_SHIM_OUT_OF_MEMORY;
  }
  s->width = width;
  s->height = height;
  s->write_rgb = write_rgb;
  s->deflater = deflater;
  s->level = level;
  s->filter = filter;
  s->threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
  s->raw_row = 1 + (size_t)width * (write_rgb ? 3 : 4);
  s->segment_rows = png_shim_segment_rows(width, write_rgb);
  s->adler = 1L;
  s->error = error;
  s->output.error = &s->error;
  if (shim_create_writer(&s->error, &s->output, &s->png, &s->info) != PNG_SHIM_OK) {
    png_shim_stream_close(s);
    return PNG_SHIM_OUT_OF_MEMORY;
  }
  if (setjmp(png_jmpbuf(s->png))) {
    int status = s->error.out_of_memory ? PNG_SHIM_OUT_OF_MEMORY : PNG_SHIM_ENCODE_FAILED;
    png_shim_stream_close(s);
    return status;
  }
  if (filter == PNG_SHIM_FILTER_ADAPTIVE) {
    /* Exactly png_shim_encode_rgba8's settings. */
    shim_set_compression(s->png, level, PNG_SHIM_STRATEGY_DEFAULT, PNG_SHIM_FILTER_ADAPTIVE);
  }
  png_set_IHDR(s->png, s->info, width, height, 8, write_rgb ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_write_info(s->png, s->info);
  if (filter == PNG_SHIM_FILTER_ADAPTIVE && write_rgb) png_set_filler(s->png, 0, PNG_FILLER_AFTER);
  *out = s;
  return PNG_SHIM_OK;
}

/* Appends zlib stream bytes to the pending buffer (no libpng call). */
static int stream_append(PNGShimStream *s, const uint8_t *bytes, size_t length) {
  if (length > s->pending_capacity - s->pending_size) {
    size_t needed = s->pending_size + length;
    size_t capacity = s->pending_capacity != 0 ? s->pending_capacity : (size_t)IDAT_BYTES;
    while (capacity < needed) capacity *= 2;
    uint8_t *grown = (uint8_t *)realloc(s->pending, capacity);
    if (grown == NULL) return 0;
    s->pending = grown;
    s->pending_capacity = capacity;
  }
  memcpy(s->pending + s->pending_size, bytes, length);
  s->pending_size += length;
  return 1;
}

/* Writes the pending bytes as IDAT chunks of IDAT_BYTES, the last one shorter
 * when `all`; keeps the rest. Call under the caller's setjmp. */
static void stream_emit(PNGShimStream *s, int all) {
  size_t at = 0;
  while (s->pending_size - at >= IDAT_BYTES || (all && at < s->pending_size)) {
    size_t n = s->pending_size - at < IDAT_BYTES ? s->pending_size - at : IDAT_BYTES;
    png_write_chunk(s->png, (png_const_bytep) "IDAT", s->pending + at, n);
    at += n;
  }
  memmove(s->pending, s->pending + at, s->pending_size - at);
  s->pending_size -= at;
}

/* Grows `*segments` (with `*capacity` entries, new ones zeroed) to at least
 * `count`; false when out of memory. */
static int reserve_segments(segment **segments, size_t *capacity, size_t count) {
  if (*capacity >= count) return 1;
  segment *grown = (segment *)realloc(*segments, count * sizeof(segment));
  if (grown == NULL) return 0;
  memset(grown + *capacity, 0, (count - *capacity) * sizeof(segment));
  *segments = grown;
  *capacity = count;
  return 1;
}

/* A job over `rows` of the stream's rows at `pixels`, cut into segments in
 * `segments` (at least as many as the rows need), whose dictionary comes
 * before them: a strip's from the `prefix` bytes of `window` (the stream's
 * last scanlines), a run's from its own `lead` rows of pixels before its
 * rows (then `prefix` is 0). The workers' buffers and deflate states are
 * the stream's, one per worker index, so different workers may run at
 * once. */
static void stream_job(PNGShimStream *s, job *j, const uint8_t *window, size_t prefix, const uint8_t *pixels,
                       size_t row_stride, uint32_t lead, uint32_t rows, int ends, segment *segments) {
  memset(j, 0, sizeof *j);
  j->window = window;
  j->prefix = prefix;
  j->pixels = pixels;
  j->row_stride = row_stride;
  j->width = s->width;
  j->rows = lead + rows;
  j->write_rgb = s->write_rgb;
  j->deflater = s->deflater;
  j->level = s->level;
  j->raw_row = s->raw_row;
  j->segment_rows = s->segment_rows;
  j->ends_image = ends;
  j->count = (rows + j->segment_rows - 1) / j->segment_rows;
  j->segments = segments;
  j->work = s->work;
  j->work_capacity = s->work_capacity;
  j->deflaters = s->deflaters;
  j->deflater_ready = s->deflater_ready;
  j->igzips = s->igzips;
  for (size_t k = 0; k < j->count; k++) {
    segments[k].out_size = 0;
    segments[k].adler = 0;
    segments[k].failed = 0;
    uint32_t y0 = (uint32_t)(k * j->segment_rows);
    uint32_t y1 = y0 + j->segment_rows > rows ? rows : y0 + j->segment_rows;
    segments[k].start = prefix + ((size_t)lead + y0) * j->raw_row;
    segments[k].length = (size_t)(y1 - y0) * j->raw_row;
  }
}

/* Appends compressed segments, the stream's next rows, to the pending zlib
 * stream: the zlib header before the first, the Adler-32 after the image's
 * last; fails the stream when a segment failed. */
static int stream_append_segments(PNGShimStream *s, const segment *segments, size_t count, int ends) {
  int status = PNG_SHIM_OK;
  for (size_t k = 0; k < count; k++)
    if (segments[k].failed) status = PNG_SHIM_ENCODE_FAILED;
  if (status == PNG_SHIM_OK && s->rows_written == 0) {
    /* The zlib header: deflate, 32 KiB window, the level's FLEVEL (igzip:
     * the fastest), no dictionary. */
    unsigned flevel = s->deflater == PNG_SHIM_DEFLATE_IGZIP ? 0 : s->level < 2 ? 0 : s->level < 6 ? 1 : s->level == 6 ? 2 : 3;
    unsigned cmf = 0x78, flg = flevel << 6;
    flg += 31 - ((cmf * 256 + flg) % 31);
    uint8_t header[2] = {(uint8_t)cmf, (uint8_t)flg};
    if (!stream_append(s, header, 2)) status = PNG_SHIM_OUT_OF_MEMORY;
  }
  for (size_t k = 0; k < count && status == PNG_SHIM_OK; k++) {
    if (!stream_append(s, segments[k].out, segments[k].out_size)) status = PNG_SHIM_OUT_OF_MEMORY;
    s->adler = adler32_combine(s->adler, segments[k].adler, (z_off_t)segments[k].length);
  }
  if (status == PNG_SHIM_OK && ends) {
    uint8_t trailer[4] = {(uint8_t)(s->adler >> 24), (uint8_t)(s->adler >> 16), (uint8_t)(s->adler >> 8),
                          (uint8_t)s->adler};
    if (!stream_append(s, trailer, 4)) status = PNG_SHIM_OUT_OF_MEMORY;
  }
  if (status != PNG_SHIM_OK)
    return stream_fail(s, status, status == PNG_SHIM_OUT_OF_MEMORY ? "out of memory compressing"
                                                                    : "deflate failed to compress a segment");
  return PNG_SHIM_OK;
}

/* The parallel path: compresses `rows` rows (whole segments unless the last). */
static int stream_compress(PNGShimStream *s, const uint8_t *pixels, size_t row_stride, uint32_t rows) {
  int ends = s->rows_written + rows == s->height;
  size_t count = (rows + s->segment_rows - 1) / s->segment_rows;
  if (!reserve_segments(&s->segments, &s->segments_capacity, count))
    return stream_fail(s, PNG_SHIM_OUT_OF_MEMORY, "out of memory preparing scanlines");
  job j;
  /* The strip's scanlines come after the last WINDOW bytes of the earlier
   * ones. */
  stream_job(s, &j, s->window, s->window_size, pixels, row_stride, 0, rows, ends, s->segments);
  int workers = s->threads < (int)j.count ? s->threads : (int)j.count;
  stream_run_workers(s, &j, workers);
  int status = stream_append_segments(s, j.segments, j.count, ends);
  /* The next strip's dictionary: the last WINDOW bytes of scanlines. */
  size_t total = j.prefix + j.raw_row * rows;
  size_t next_size = total < WINDOW ? total : WINDOW;
  raw_bytes(&j, total - next_size, total, s->next_window);
  memcpy(s->window, s->next_window, next_size);
  s->window_size = next_size;
  return status;
}

/* ------------------------------------------------------------------------ */
/* Rows compressed on the caller's threads                                   */

struct PNGShimRows {
  uint32_t first_row;
  uint32_t rows;
  segment *segments;
  size_t count;
  size_t capacity;
};

PNGShimRows *png_shim_rows_create(void) { return (PNGShimRows *)calloc(1, sizeof(PNGShimRows)); }

void png_shim_rows_free(PNGShimRows *r) {
  if (r == NULL) return;
  for (size_t k = 0; k < r->capacity; k++) free(r->segments[k].out);
  free(r->segments);
  free(r);
}

uint32_t png_shim_stream_dictionary_rows(const PNGShimStream *s, uint32_t first_row) {
  size_t rows = (WINDOW + s->raw_row - 1) / s->raw_row;
  return rows < first_row ? (uint32_t)rows : first_row;
}

int png_shim_stream_compress_rows(PNGShimStream *s, int worker, const void *pixels, size_t row_stride,
                                  uint32_t first_row, uint32_t rows, PNGShimRows *out, char *error_message,
                                  size_t error_capacity) {
  shim_error error = {error_message, error_capacity, 0};
  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (s == NULL || out == NULL || pixels == NULL || worker < 0 || worker >= s->threads || rows == 0 ||
      s->filter != PNG_SHIM_FILTER_NONE || row_stride / 4 < s->width || first_row > s->height ||
      rows > s->height - first_row || first_row % s->segment_rows != 0 ||
      (first_row + rows < s->height && rows % s->segment_rows != 0)) {
    shim_set_message(&error, "png_shim_stream_compress_rows: ",
                     "invalid argument (rows outside the image, not whole segments, or no such worker)");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  size_t count = (rows + s->segment_rows - 1) / s->segment_rows;
  if (!reserve_segments(&out->segments, &out->capacity, count)) {
    shim_set_message(&error, NULL, "out of memory preparing scanlines");
    return PNG_SHIM_OUT_OF_MEMORY;
  }
  job j;
  stream_job(s, &j, NULL, 0, (const uint8_t *)pixels, row_stride, png_shim_stream_dictionary_rows(s, first_row),
             rows, first_row + rows == s->height, out->segments);
  for (size_t k = 0; k < j.count; k++) compress_segment(&j, k, worker);
  out->first_row = first_row;
  out->rows = rows;
  out->count = j.count;
  for (size_t k = 0; k < j.count; k++) {
    if (j.segments[k].failed) {
      shim_set_message(&error, NULL, "deflate failed to compress a segment (or ran out of memory)");
      return PNG_SHIM_ENCODE_FAILED;
    }
  }
  return PNG_SHIM_OK;
}

/* The start of each call that adds rows: the caller's message buffer taken,
 * and a stream that failed earlier refused. */
static int stream_enter(PNGShimStream *s, char *error_message, size_t error_capacity) {
  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (s == NULL) return PNG_SHIM_INVALID_ARGUMENT;
  s->error.message = error_message;
  s->error.capacity = error_capacity;
  if (s->failed) {
    shim_set_message(&s->error, NULL, "the PNG stream failed earlier");
    return PNG_SHIM_ENCODE_FAILED;
  }
  return PNG_SHIM_OK;
}

int png_shim_stream_append_rows(PNGShimStream *s, const PNGShimRows *rows, char *error_message,
                                size_t error_capacity) {
  int entered = stream_enter(s, error_message, error_capacity);
  if (entered != PNG_SHIM_OK) return entered;
  if (rows == NULL || rows->rows == 0 || rows->first_row != s->rows_written || s->filter != PNG_SHIM_FILTER_NONE) {
    shim_set_message(&s->error, "png_shim_stream_append_rows: ", "invalid argument (not the stream's next rows)");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  int ends = rows->first_row + rows->rows == s->height;
  int status = stream_append_segments(s, rows->segments, rows->count, ends);
  if (status != PNG_SHIM_OK) return status;
  /* Strips handed to png_shim_stream_write_rows after this would need the
   * window these rows leave, which is not kept. */
  s->window_unknown = 1;
  if (setjmp(png_jmpbuf(s->png))) {
    s->failed = 1;
    return s->error.out_of_memory ? PNG_SHIM_OUT_OF_MEMORY : PNG_SHIM_ENCODE_FAILED;
  }
  stream_emit(s, ends);
  s->rows_written += rows->rows;
  if (ends) png_write_chunk(s->png, (png_const_bytep) "IEND", NULL, 0);
  return PNG_SHIM_OK;
}

int png_shim_stream_write_rows(PNGShimStream *s, const void *pixels, size_t row_stride, uint32_t rows,
                               char *error_message, size_t error_capacity) {
  int entered = stream_enter(s, error_message, error_capacity);
  if (entered != PNG_SHIM_OK) return entered;
  if (rows == 0) return PNG_SHIM_OK;
  if (pixels == NULL || s->window_unknown || row_stride / 4 < s->width || rows > s->height - s->rows_written ||
      (s->filter == PNG_SHIM_FILTER_NONE && s->rows_written + rows < s->height && rows % s->segment_rows != 0)) {
    shim_set_message(&s->error, "png_shim_stream_write_rows: ",
                     "invalid argument (more rows than are left, or not whole segments)");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  const uint8_t *bytes = (const uint8_t *)pixels;
  if (s->filter == PNG_SHIM_FILTER_NONE) {
    int status = stream_compress(s, bytes, row_stride, rows);
    if (status != PNG_SHIM_OK) return status;
  }
  if (setjmp(png_jmpbuf(s->png))) {
    s->failed = 1;
    return s->error.out_of_memory ? PNG_SHIM_OUT_OF_MEMORY : PNG_SHIM_ENCODE_FAILED;
  }
  if (s->filter == PNG_SHIM_FILTER_NONE) {
    stream_emit(s, s->rows_written + rows == s->height);
  } else {
    for (uint32_t y = 0; y < rows; y++) png_write_row(s->png, bytes + (size_t)y * row_stride);
  }
  s->rows_written += rows;
  if (s->rows_written == s->height) {
    if (s->filter == PNG_SHIM_FILTER_NONE)
      png_write_chunk(s->png, (png_const_bytep) "IEND", NULL, 0);
    else
      png_write_end(s->png, NULL);
  }
  return PNG_SHIM_OK;
}

const uint8_t *png_shim_stream_output(const PNGShimStream *s, size_t *size) {
  *size = s->output.size;
  return s->output.data;
}

void png_shim_stream_clear_output(PNGShimStream *s) { s->output.size = 0; }

uint32_t png_shim_stream_rows_written(const PNGShimStream *s) { return s->rows_written; }

void png_shim_stream_close(PNGShimStream *s) {
  if (s == NULL) return;
  stream_stop_pool(s);
  if (s->png != NULL) png_destroy_write_struct(&s->png, s->info != NULL ? &s->info : NULL);
  free(s->output.data);
  free(s->pending);
  for (int w = 0; w < MAX_THREADS; w++) free(s->work[w]);
  for (size_t k = 0; k < s->segments_capacity; k++) free(s->segments[k].out);
  free(s->segments);
  for (int w = 0; w < MAX_THREADS; w++) {
    if (s->deflater_ready[w]) deflateEnd(&s->deflaters[w]);
    if (s->igzips[w] != NULL) free(s->igzips[w]->level_buf);
    free(s->igzips[w]);
  }
  free(s);
}

/* ------------------------------------------------------------------------ */
/* The whole image                                                           */

int png_shim_encode_parallel(const void *pixels, uint32_t width, uint32_t height,
                             size_t row_stride, int write_rgb, int deflater, int level, int threads,
                             PNGShimBuffer *out, char *error_message, size_t error_capacity) {
  shim_error error = {error_message, error_capacity, 0};
  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (out == NULL || pixels == NULL || width == 0 || height == 0 || row_stride / 4 < width ||
      !valid_level(deflater, level) || width > PNG_SHIM_MAX_DIMENSION || height > PNG_SHIM_MAX_DIMENSION) {
    shim_set_message(&error, "png_shim_encode_parallel: ", "invalid argument");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  out->data = NULL;
  out->size = 0;
  PNGShimStream *s = NULL;
  int status = png_shim_stream_open(width, height, write_rgb, deflater, level, PNG_SHIM_FILTER_NONE, threads, &s,
                                    error_message, error_capacity);
  if (status != PNG_SHIM_OK) return status;
  const uint8_t *rows = (const uint8_t *)pixels;
  uint32_t block = s->segment_rows * BLOCK_SEGMENTS;
  if (block / BLOCK_SEGMENTS != s->segment_rows) block = height; /* overflow: one block */
  for (uint32_t y = 0; y < height && status == PNG_SHIM_OK; y += block) {
    uint32_t n = height - y < block ? height - y : block;
    status = png_shim_stream_write_rows(s, rows + (size_t)y * row_stride, row_stride, n, error_message, error_capacity);
  }
  if (status == PNG_SHIM_OK) {
    /* Hand the stream's buffer over instead of copying it. */
    out->data = s->output.data;
    out->size = s->output.size;
    s->output.data = NULL;
  }
  png_shim_stream_close(s);
  return status;
}
