/* ISA-L's igzip entry points as used by png_parallel.c (the `fast` PNG
 * compression), opened on first use (lazy_libraries.h). Each forwarder has
 * the header's exact signature. png_parallel.c asks
 * mapsnap_isal_unavailable() before the first igzip stream, so the others
 * are only called once the library is loaded. */
#include "lazy_libraries.h"
#include "lazy_open.h"

#include <pthread.h>
#include "system_shims.h"

#pragma GCC visibility push(hidden)
#include <isa-l/igzip_lib.h>

#define ISAL_ENTRY_POINTS(X) X(isal_deflate_init) X(isal_deflate_set_dict) X(isal_deflate) X(isal_adler32)

LAZY_LIBRARY("libisal.so.2", "libisal2", ISAL_ENTRY_POINTS)

#pragma GCC visibility pop

const char *mapsnap_isal_unavailable(void) { return ready() ? NULL : library.message; }

#pragma GCC visibility push(hidden)

/* ISA-L's AVX-512 routines (the deflate's hashing, adler32) return with the
 * upper halves of the vector registers dirty: they end without vzeroupper.
 * Until something clears them, every legacy-SSE instruction on that thread
 * carries a false dependency on those halves, and the C libraries and
 * Swift's own floating point are SSE code: measured here, libm's tan and
 * log took 368 ns per Web Mercator projection after an igzip stream
 * against 25 ns before (a batch's second frame projected its sources 13
 * times slower, and every strip drawn on a thread that had compressed one
 * ran dirty). Each forwarder clears them on its way out, on processors
 * with AVX (vzeroupper is an AVX instruction; without AVX nothing is
 * dirty). */
static inline void clean_upper_halves(void) {
#if defined(__x86_64__)
  if (mapsnap_cpu_features() & MAPSNAP_CPU_AVX) __asm__ volatile("vzeroupper" ::: "memory");
#endif
}

void isal_deflate_init(struct isal_zstream *stream) {
  if (ready()) REAL(isal_deflate_init)(stream);
  clean_upper_halves();
}
int isal_deflate_set_dict(struct isal_zstream *stream, uint8_t *dict, uint32_t dict_len) {
  int r = ready() ? REAL(isal_deflate_set_dict)(stream, dict, dict_len) : ISAL_INVALID_STATE;
  clean_upper_halves();
  return r;
}
int isal_deflate(struct isal_zstream *stream) {
  int r = ready() ? REAL(isal_deflate)(stream) : ISAL_INVALID_STATE;
  clean_upper_halves();
  return r;
}
uint32_t isal_adler32(uint32_t init, const unsigned char *buf, uint64_t len) {
  uint32_t r = ready() ? REAL(isal_adler32)(init, buf, len) : init;
  clean_upper_halves();
  return r;
}

#pragma GCC visibility pop
