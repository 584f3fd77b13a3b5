/* libjpeg's entry points as used by jpeg_shims.c, opened on first use
 * (lazy_libraries.h). Each forwarder has the header's exact signature. The
 * decoder asks mapsnap_jpeg_unavailable() first, so the others are only
 * called once the library is loaded. */
#include "lazy_libraries.h"
#include "lazy_open.h"

#include <pthread.h>
#include <stdio.h>

#pragma GCC visibility push(hidden)
#include <jpeglib.h>

#define JPEG_ENTRY_POINTS(X)                                                                                         \
  X(jpeg_std_error) X(jpeg_CreateDecompress) X(jpeg_destroy_decompress) X(jpeg_mem_src) X(jpeg_read_header)         \
  X(jpeg_start_decompress) X(jpeg_read_scanlines) X(jpeg_finish_decompress)

LAZY_LIBRARY("libjpeg.so.62", "libjpeg62-turbo", JPEG_ENTRY_POINTS)

#pragma GCC visibility pop

const char *mapsnap_jpeg_unavailable(void) { return ready() ? NULL : library.message; }

#pragma GCC visibility push(hidden)

struct jpeg_error_mgr *jpeg_std_error(struct jpeg_error_mgr *err) { return ready() ? REAL(jpeg_std_error)(err) : err; }
void jpeg_CreateDecompress(j_decompress_ptr cinfo, int version, size_t size) {
  if (ready()) REAL(jpeg_CreateDecompress)(cinfo, version, size);
}
void jpeg_destroy_decompress(j_decompress_ptr cinfo) {
  if (ready()) REAL(jpeg_destroy_decompress)(cinfo);
}
void jpeg_mem_src(j_decompress_ptr cinfo, const unsigned char *buffer, unsigned long size) {
  if (ready()) REAL(jpeg_mem_src)(cinfo, buffer, size);
}
int jpeg_read_header(j_decompress_ptr cinfo, boolean require) { return ready() ? REAL(jpeg_read_header)(cinfo, require) : 0; }
boolean jpeg_start_decompress(j_decompress_ptr cinfo) { return ready() ? REAL(jpeg_start_decompress)(cinfo) : FALSE; }
JDIMENSION jpeg_read_scanlines(j_decompress_ptr cinfo, JSAMPARRAY lines, JDIMENSION max) {
  return ready() ? REAL(jpeg_read_scanlines)(cinfo, lines, max) : 0;
}
boolean jpeg_finish_decompress(j_decompress_ptr cinfo) { return ready() ? REAL(jpeg_finish_decompress)(cinfo) : FALSE; }

#pragma GCC visibility pop
