#define _GNU_SOURCE
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <sched.h>
#include <stdatomic.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "system_shims.h"

int mapsnap_affinity_processor_count(void) {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  return CPU_COUNT(&set);
#else
  return 0;
#endif
}

int mapsnap_keep_freed_memory(unsigned long mmap_threshold, unsigned long trim_threshold) {
#if defined(__GLIBC__)
  if (mmap_threshold > (unsigned long)0x7fffffff || trim_threshold > (unsigned long)0x7fffffff) return 0;
  int a = mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold);
  int b = mallopt(M_TRIM_THRESHOLD, (int)trim_threshold);
  return a == 1 && b == 1;
#else
  (void)mmap_threshold;
  (void)trim_threshold;
  return 0;
#endif
}

long mapsnap_malloc_mapped_bytes(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  struct mallinfo2 info = mallinfo2();
  return (long)info.hblkhd;
#else
  return -1;
#endif
}

int mapsnap_vector_upper_state(void) {
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1)) return -1;  /* no OSXSAVE */
  if (__get_cpuid_max(0, 0) < 0xD) return -1;
  __cpuid_count(0xD, 1, a, b, c, d);
  if (!((a >> 2) & 1)) return -1;  /* no XGETBV with ECX = 1 */
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
  /* XINUSE: bit 2 the upper halves of ymm0-15, bit 6 those of zmm0-15. */
  return ((lo >> 2) & 1) || ((lo >> 6) & 1);
#else
  return -1;
#endif
}

int mapsnap_cpu_features(void) {
#if defined(__x86_64__)
  static _Atomic int known = -1;
  int k = atomic_load_explicit(&known, memory_order_relaxed);
  if (k >= 0) return k;
  unsigned a, b, c, d;
  int features = 0;
  if (__get_cpuid(1, &a, &b, &c, &d)) {
    if ((c >> 9) & 1) features |= MAPSNAP_CPU_SSSE3;
    if ((c >> 19) & 1) features |= MAPSNAP_CPU_SSE41;
    if (((c >> 27) & 1) && ((c >> 28) & 1)) features |= MAPSNAP_CPU_AVX; /* OSXSAVE and AVX */
  }
  if (__get_cpuid_max(0, 0) >= 7 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && ((b >> 29) & 1))
    features |= MAPSNAP_CPU_SHA;
  atomic_store_explicit(&known, features, memory_order_relaxed);
  return features;
#else
  return 0;
#endif
}
