/* ISA-L's igzip entry points as used by png_parallel.c (the `fast` PNG
 * compression), opened on first use (lazy_libraries.h). Each forwarder has
 * the header's exact signature. png_parallel.c asks
 * mapsnap_isal_unavailable() before the first igzip stream, so the others
 * are only called once the library is loaded. */
#include "lazy_libraries.h"
#include "lazy_open.h"

#include <pthread.h>

#pragma GCC visibility push(hidden)
#include <isa-l/igzip_lib.h>

#define ISAL_ENTRY_POINTS(X) X(isal_deflate_init) X(isal_deflate_set_dict) X(isal_deflate) X(isal_adler32)

LAZY_LIBRARY("libisal.so.2", "libisal2", ISAL_ENTRY_POINTS)

#pragma GCC visibility pop

const char *mapsnap_isal_unavailable(void) { return ready() ? NULL : library.message; }

#pragma GCC visibility push(hidden)

void isal_deflate_init(struct isal_zstream *stream) {
  if (ready()) REAL(isal_deflate_init)(stream);
}
int isal_deflate_set_dict(struct isal_zstream *stream, uint8_t *dict, uint32_t dict_len) {
  return ready() ? REAL(isal_deflate_set_dict)(stream, dict, dict_len) : ISAL_INVALID_STATE;
}
int isal_deflate(struct isal_zstream *stream) { return ready() ? REAL(isal_deflate)(stream) : ISAL_INVALID_STATE; }
uint32_t isal_adler32(uint32_t init, const unsigned char *buf, uint64_t len) {
  return ready() ? REAL(isal_adler32)(init, buf, len) : init;
}

#pragma GCC visibility pop
