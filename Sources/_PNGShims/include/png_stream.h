/*
 * png_stream.h — a PNG written top to bottom, a strip of rows at a time
 * (png_parallel.c), so that a frame never has to be held whole.
 *
 * The bytes are exactly those of the whole-image encoders for the same
 * pixels and settings: with PNG_SHIM_FILTER_NONE those of
 * png_shim_encode_parallel (which is itself this stream fed in blocks), with
 * PNG_SHIM_FILTER_ADAPTIVE those of png_shim_encode_rgba8 (libpng's own
 * row-by-row writer). Nothing depends on how the rows are cut into calls or
 * on the thread count.
 */
#ifndef MAPSNAP_PNG_STREAM_H
#define MAPSNAP_PNG_STREAM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A PNG being written. Not thread-safe: use it from one thread at a time. */
typedef struct PNGShimStream PNGShimStream;

/**
 * The rows of one parallel-deflate segment for an image `width` pixels wide
 * (3 bytes a pixel when write_rgb, else 4): every call to
 * png_shim_stream_write_rows but the one that ends the image must hand over a
 * whole number of segments, so that segments are cut at the same rows as in
 * the whole-image encoder. The rule: 256 KiB of scanline bytes (filter byte
 * included) per segment, rounded down, at least 8 rows.
 */
uint32_t png_shim_segment_rows(uint32_t width, int write_rgb);

/**
 * Starts a PNG of width × height 8-bit pixels, colour type 2 (write_rgb) or
 * 6, not interlaced, filtered with `filter` (a PNGShimFilter). With
 * PNG_SHIM_FILTER_NONE the segments are compressed by `deflater` (a
 * PNGShimDeflater) at `level` on up to `threads` threads; the adaptive filter
 * is libpng's own, with zlib at `level` (`deflater` must be zlib). On PNG_SHIM_OK, *out is
 * the stream and its output (png_shim_stream_output) holds the signature and
 * IHDR: a caller may write ancillary chunks of its own right after them.
 * Release it with png_shim_stream_close.
 */
int png_shim_stream_open(uint32_t width, uint32_t height, int write_rgb, int deflater, int level, int filter,
                         int threads, PNGShimStream **out, char *error_message, size_t error_capacity);

/**
 * Compresses the next `rows` rows (4 bytes a pixel: R, G, B, A straight
 * alpha, or any 4th byte when write_rgb; each row `row_stride` bytes after
 * the previous). With PNG_SHIM_FILTER_NONE, `rows` must be a multiple of
 * png_shim_segment_rows unless these are the image's last rows. The call
 * that hands over the last row also ends the file (IEND). Whole IDAT chunks
 * are appended to the output as they fill. After a failure every later call
 * fails.
 */
int png_shim_stream_write_rows(PNGShimStream *stream, const void *pixels, size_t row_stride, uint32_t rows,
                               char *error_message, size_t error_capacity);

/**
 * Rows compressed on the caller's own threads, a run of whole segments at a
 * time (png_shim_stream_compress_rows), then appended to the stream in row
 * order (png_shim_stream_append_rows): so that a thread compresses the rows
 * it has just drawn, from its own cache. The bytes are those of
 * png_shim_stream_write_rows for the same rows. A stream takes its rows one
 * way or the other: png_shim_stream_write_rows is refused once rows were
 * appended this way.
 */
typedef struct PNGShimRows PNGShimRows;

/** An empty run of compressed rows (reused from call to call), or NULL when out of memory. */
PNGShimRows *png_shim_rows_create(void);

/** Frees a run of compressed rows. Accepts NULL. */
void png_shim_rows_free(PNGShimRows *rows);

/**
 * The rows before `first_row` whose scanlines png_shim_stream_compress_rows
 * reads as its first segment's dictionary (32 KiB of scanlines before it, or
 * all there are): ceil(32768 / scanline bytes), at most `first_row`.
 */
uint32_t png_shim_stream_dictionary_rows(const PNGShimStream *stream, uint32_t first_row);

/**
 * Compresses image rows [first_row, first_row + rows) into `out`, on the
 * calling thread with worker `worker`'s deflate state and scanline buffer
 * (0 <= worker < the `threads` given to png_shim_stream_open). `pixels`
 * points at row first_row - png_shim_stream_dictionary_rows(first_row)
 * (4 bytes a pixel as for png_shim_stream_write_rows, each row `row_stride`
 * bytes after the previous). `first_row` is a multiple of
 * png_shim_segment_rows, and so is `rows` unless the run ends the image.
 * PNG_SHIM_FILTER_NONE only. Calls with different workers may run at once
 * on different threads (and beside png_shim_stream_append_rows and the
 * output calls, which do not touch the workers' state); nothing else may.
 */
int png_shim_stream_compress_rows(PNGShimStream *stream, int worker, const void *pixels, size_t row_stride,
                                  uint32_t first_row, uint32_t rows, PNGShimRows *out, char *error_message,
                                  size_t error_capacity);

/**
 * Appends rows compressed by png_shim_stream_compress_rows, which must be
 * the stream's next rows: whole IDAT chunks go to the output as they fill,
 * and the run that holds the last row ends the file (IEND). One thread at a
 * time. After a failure every later call fails.
 */
int png_shim_stream_append_rows(PNGShimStream *stream, const PNGShimRows *rows, char *error_message,
                                size_t error_capacity);

/** The file bytes produced and not yet cleared; *size receives their count. */
const uint8_t *png_shim_stream_output(const PNGShimStream *stream, size_t *size);

/** Forgets the output produced so far (the caller has written it). */
void png_shim_stream_clear_output(PNGShimStream *stream);

/** Rows written so far. */
uint32_t png_shim_stream_rows_written(const PNGShimStream *stream);

/** Frees everything. Accepts NULL. */
void png_shim_stream_close(PNGShimStream *stream);

#ifdef __cplusplus
}
#endif

#endif /* MAPSNAP_PNG_STREAM_H */
