#ifndef MAPSNAP_SYSTEM_SHIMS_H
#define MAPSNAP_SYSTEM_SHIMS_H

/// The processors this process may run on (its CPU affinity, which Slurm
/// and `taskset` set), or 0 when the system cannot tell. One system call
/// (sched_getaffinity), which Swift's Glibc module does not declare.
int mapsnap_affinity_processor_count(void);

/// Sets glibc malloc's policy for a process that renders frame after frame:
/// blocks up to `mmap_threshold` bytes come from the heap rather than from
/// fresh mappings, and up to `trim_threshold` bytes of freed heap stay with
/// the process. Returns 0 when the C library refused either (or is not
/// glibc). See MemoryPolicy.swift for the measurements behind the values.
int mapsnap_keep_freed_memory(unsigned long mmap_threshold, unsigned long trim_threshold);

/// Bytes glibc malloc holds in blocks mapped on their own (mallinfo2's
/// hblkhd), or -1 elsewhere: how tests see which blocks the policy above
/// keeps on the heap.
long mapsnap_malloc_mapped_bytes(void);

/// Whether this thread's vector registers hold state above their low 128
/// bits (the upper halves of ymm0–15 or zmm0–15), as XGETBV 1 reports it:
/// 1 yes, 0 no, -1 when the processor cannot tell (or is not x86-64). For
/// the test that an igzip stream leaves them clean (isal_forward.c).
int mapsnap_vector_upper_state(void);

/// Processor features the C shims choose code paths by (x86-64 CPUID),
/// as bits of `mapsnap_cpu_features()`.
enum {
  /// SSSE3 (pshufb): the RGBA-to-RGB packing of the PNG encoder.
  MAPSNAP_CPU_SSSE3 = 1 << 0,
  /// SSE4.1: with SSSE3 and SHA, the SHA-NI digest.
  MAPSNAP_CPU_SSE41 = 1 << 1,
  /// AVX with OSXSAVE: vzeroupper may be executed (isal_forward.c).
  MAPSNAP_CPU_AVX = 1 << 2,
  /// The SHA extensions (sha256rnds2 and its message instructions).
  MAPSNAP_CPU_SHA = 1 << 3,
};

/// The processor's `MAPSNAP_CPU_*` features (0 on other architectures).
/// Asked of CPUID once per process; threads racing to ask store the same
/// value, atomically (relaxed), so the cached answer is not a data race.
int mapsnap_cpu_features(void);

#endif
