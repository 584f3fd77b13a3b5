/*
 * png_shims.h — a small C layer over libpng 1.6 for mapsnap.
 *
 * libpng reports errors by longjmp-ing out of the failing call, which Swift
 * cannot survive. Every function here owns its own setjmp, destroys the libpng
 * structures on every path and reports failure as a PNGShimStatus plus a
 * NUL-terminated message copied into a caller-supplied buffer.
 *
 * This header deliberately does not include <png.h>, so importing the module
 * from Swift does not drag libpng's API along with it.
 */
#ifndef MAPSNAP_PNG_SHIMS_H
#define MAPSNAP_PNG_SHIMS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Result of every shim call. On anything but OK, the error buffer holds a message. */
typedef enum PNGShimStatus {
  PNG_SHIM_OK = 0,
  /** Bad arguments (null pointers, zero or oversized dimensions, bad level). */
  PNG_SHIM_INVALID_ARGUMENT = 1,
  /** libpng failed while writing. */
  PNG_SHIM_ENCODE_FAILED = 2,
  /** The input does not begin with the 8-byte PNG signature. */
  PNG_SHIM_NOT_A_PNG = 3,
  /** libpng failed while reading (corrupt or truncated data). */
  PNG_SHIM_DECODE_FAILED = 4,
  /** The image has more pixels than the caller's limit; the info is filled in. */
  PNG_SHIM_TOO_LARGE = 5,
  /** The caller-provided destination is smaller than width * height * 4 bytes. */
  PNG_SHIM_BUFFER_TOO_SMALL = 6,
  /** malloc/realloc failed. */
  PNG_SHIM_OUT_OF_MEMORY = 7,
  /** The file to read does not exist (ENOENT). */
  PNG_SHIM_FILE_NOT_FOUND = 8,
  /** The file could not be opened or read, or is not a regular file; the
   *  message is the reason ("is a directory", "not a regular file", strerror). */
  PNG_SHIM_FILE_READ_FAILED = 9,
} PNGShimStatus;

/** The deflate implementation of the segmented stream (filter NONE). */
typedef enum PNGShimDeflater {
  /** zlib, levels 0–9. */
  PNG_SHIM_DEFLATE_ZLIB = 0,
  /** ISA-L's igzip, levels 0–3: several times faster than zlib's fastest
   * level, a tenth or so larger. An image of one segment is deflated by
   * zlib at the same level instead (quicker than opening libisal). libisal
   * is opened on first use; a stream fails to open (PNG_SHIM_ENCODE_FAILED,
   * with the loader's message) when it cannot be. */
  PNG_SHIM_DEFLATE_IGZIP = 1,
} PNGShimDeflater;

/** Row filtering used when encoding. */
typedef enum PNGShimFilter {
  /** Filter type 0 on every row: fastest, best for flat-colour images. */
  PNG_SHIM_FILTER_NONE = 0,
  /** libpng's adaptive choice among all five filters (PNG_ALL_FILTERS). */
  PNG_SHIM_FILTER_ADAPTIVE = 1,
} PNGShimFilter;

/** Pass as zlib_strategy to keep libpng's own choice of zlib strategy. */
#define PNG_SHIM_STRATEGY_LIBPNG_DEFAULT (-1)
/** zlib's Z_DEFAULT_STRATEGY (the value mapsnap uses). */
#define PNG_SHIM_STRATEGY_DEFAULT 0

/** Decoding refuses images with more pixels than this unless told otherwise (1 << 28). */
#define PNG_SHIM_DEFAULT_MAX_PIXELS ((uint64_t)1 << 28)

/** Largest width or height PNG allows (2^31 - 1). */
#define PNG_SHIM_MAX_DIMENSION 0x7fffffffu

/** Widest image any decoder reads (2^20 = 1,048,576 pixels): a row of
 * 16-bit RGBA is then at most 8 MiB. */
#define PNG_SHIM_MAX_READ_DIMENSION (1u << 20)

/** Ancillary chunks (text, unknown, sPLT) a decoder keeps at most. */
#define PNG_SHIM_MAX_CHUNK_CACHE 256u

/** Bytes any one chunk may need when read (decompressed text and iCCP
 * included): 16 MiB. */
#define PNG_SHIM_MAX_CHUNK_BYTES ((size_t)16 << 20)

/** A byte buffer allocated by the shim. Release it with png_shim_free(data). */
typedef struct PNGShimBuffer {
  uint8_t *data;
  size_t size;
} PNGShimBuffer;

/** What the IHDR (and tRNS) of a PNG said, before any conversion. */
typedef struct PNGShimImageInfo {
  uint32_t width;
  uint32_t height;
  /** IHDR colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA. */
  int32_t color_type;
  /** IHDR bit depth: 1, 2, 4, 8 or 16. */
  int32_t bit_depth;
  /** 1 if Adam7-interlaced. */
  int32_t interlaced;
  /** 1 if a tRNS chunk is present (transparency without an alpha channel). */
  int32_t has_trns;
} PNGShimImageInfo;

/**
 * Encodes 8-bit pixels stored as 4 bytes R,G,B,A per pixel (straight alpha,
 * or opaque) into a PNG held in memory.
 *
 * - pixels: height rows, each starting row_stride bytes after the previous,
 *   each holding width * 4 bytes. row_stride must be >= width * 4.
 * - write_rgb: non-zero writes colour type 2 (RGB); libpng drops every 4th
 *   byte itself (png_set_filler, PNG_FILLER_AFTER), so nothing is copied.
 *   Zero writes colour type 6 (RGBA).
 * - zlib_level: 0...9.
 * - zlib_strategy: PNG_SHIM_STRATEGY_DEFAULT (Z_DEFAULT_STRATEGY), any other
 *   zlib strategy value, or PNG_SHIM_STRATEGY_LIBPNG_DEFAULT.
 * - filter: a PNGShimFilter.
 *
 * On PNG_SHIM_OK, *out holds the file; free it with png_shim_free(out->data).
 * On failure *out is {NULL, 0} and nothing needs freeing.
 */
int png_shim_encode_rgba8(const void *pixels, uint32_t width, uint32_t height,
                          size_t row_stride, int write_rgb, int zlib_level,
                          int zlib_strategy, int filter, PNGShimBuffer *out,
                          char *error_message, size_t error_capacity);

/**
 * Reads the PNG signature and header chunks (up to the first IDAT) and fills
 * *info. Returns PNG_SHIM_TOO_LARGE (with *info filled) when width * height
 * exceeds max_pixels (0 means PNG_SHIM_DEFAULT_MAX_PIXELS).
 */
int png_shim_read_info(const void *data, size_t size, uint64_t max_pixels,
                       PNGShimImageInfo *info, char *error_message,
                       size_t error_capacity);

/**
 * Decodes a whole PNG of any colour type, bit depth and interlacing into
 * 8-bit straight RGBA, rows packed (stride width * 4), no gamma correction:
 * palette and tRNS are expanded, gray becomes RGB, 16-bit samples are scaled
 * to 8 bits with rounding, and images without alpha get A = 0xFF.
 *
 * Destination: if dst is non-NULL it must hold dst_capacity >= width * height
 * * 4 bytes (call png_shim_read_info first to learn the size) and
 * *out_allocated is set to NULL. If dst is NULL the shim mallocs the pixels
 * and returns them in *out_allocated; free them with png_shim_free.
 *
 * *info receives the original IHDR values (also on PNG_SHIM_TOO_LARGE).
 * Data ending before IEND is an error; bytes after IEND are ignored.
 */
int png_shim_decode_rgba8(const void *data, size_t size, uint64_t max_pixels,
                          void *dst, size_t dst_capacity,
                          uint8_t **out_allocated, PNGShimImageInfo *info,
                          char *error_message, size_t error_capacity);

/** Frees memory returned by the shim. Accepts NULL. */
void png_shim_free(void *pointer);

/* ------------------------------------------------------------------------ */
/* Streaming row reader (png_reader.c)                                       */

/**
 * A PNG file being decoded top to bottom, a few rows at a time, with the same
 * conversion to 8-bit straight RGBA as png_shim_decode_rgba8 (byte for byte).
 *
 * Memory: libpng's row buffers (the current and previous row, at most 8 bytes
 * a pixel each), zlib's window and a stdio buffer, whatever the height. Exception: an Adam7-interlaced image cannot be
 * streamed (its last pass touches every row), so it is decoded whole when the
 * reader is opened, into one width * height * 4 buffer that max_pixels bounds,
 * and rows are served from there.
 *
 * A reader is not thread-safe; use it from one thread at a time.
 */
typedef struct PNGShimReader PNGShimReader;

/**
 * Opens the PNG file at path and reads its header chunks (for interlaced
 * images, the whole image).
 *
 * Only regular files are read: the file is opened non-blocking and checked
 * with fstat before any read, so a FIFO, a device or a socket is refused with
 * PNG_SHIM_FILE_READ_FAILED ("not a regular file") without blocking, and a
 * folder the same way ("is a directory"). A missing file gives
 * PNG_SHIM_FILE_NOT_FOUND. Fewer than 8 bytes or no PNG signature gives
 * PNG_SHIM_NOT_A_PNG. When width * height exceeds max_pixels (0 means
 * PNG_SHIM_DEFAULT_MAX_PIXELS) the result is PNG_SHIM_TOO_LARGE with *info
 * filled in, before any pixel memory is allocated.
 *
 * On PNG_SHIM_OK, *out is the reader (close it with png_shim_reader_close)
 * and *info holds the IHDR values. On failure *out is NULL and nothing needs
 * closing.
 */
int png_shim_reader_open_file(const char *path, uint64_t max_pixels,
                              PNGShimReader **out, PNGShimImageInfo *info,
                              char *error_message, size_t error_capacity);

/**
 * Decodes the next `count` rows into rows (count * width * 4 bytes, rows
 * packed), as 8-bit straight RGBA.
 *
 * - count larger than the rows left is PNG_SHIM_INVALID_ARGUMENT and reads
 *   nothing; count 0 does nothing.
 * - Corrupt or truncated data is PNG_SHIM_DECODE_FAILED; the rows decoded
 *   before the failure are in the buffer (png_shim_reader_rows_read tells how
 *   many in all) and every later call fails with the same message.
 * - The call that decodes the last row also reads the rest of the file up to
 *   IEND (Adler-32, CRCs), as png_shim_decode_rgba8 does; if that fails the
 *   call fails although every row was decoded.
 */
int png_shim_reader_read_rows(PNGShimReader *reader, void *rows, uint32_t count,
                              char *error_message, size_t error_capacity);

/** The number of rows decoded so far (complete rows only). */
uint32_t png_shim_reader_rows_read(const PNGShimReader *reader);

/** Closes the file and frees everything. Accepts NULL. */
void png_shim_reader_close(PNGShimReader *reader);

/**
 * Encodes 8-bit pixels (4 bytes per pixel: R, G, B, A straight alpha, or any
 * 4th byte when write_rgb is set) with filter type NONE, the zlib stream
 * compressed in fixed segments by `deflater` (a PNGShimDeflater) at `level`
 * on up to `threads` threads (see png_parallel.c). The output bytes are the
 * same for every thread count.
 * On success *out holds the PNG file; free it with png_shim_free(out->data).
 */
int png_shim_encode_parallel(const void *pixels, uint32_t width, uint32_t height,
                             size_t row_stride, int write_rgb, int deflater, int level, int threads,
                             PNGShimBuffer *out, char *error_message, size_t error_capacity);

#ifdef __cplusplus
}
#endif

/* Palette (colour type 3) encoding, for PNG8 output. */
#include "png_palette.h"

#endif /* MAPSNAP_PNG_SHIMS_H */
