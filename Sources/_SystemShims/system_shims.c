#define _GNU_SOURCE
#include <sched.h>
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
