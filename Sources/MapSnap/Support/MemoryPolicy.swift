internal import _SystemShims

/// How a process that renders frames should let the C library keep memory.
///
/// A frame allocates its large arrays (a chunk's edges, grown by doubling;
/// the frame's display list; outline paths; strip buffers) afresh, and glibc's
/// defaults hand every block over 128 KiB back to the kernel when it is freed
/// (its own mapping, or the heap's top trimmed). The next block of that size
/// then starts on fresh pages, and each 4 KiB page costs a page fault and a
/// cleared page: on nyc-250000 (252,237 edges) the page faults were a quarter
/// of the display list's time, in the same process frame after frame.
///
/// The rule: blocks up to `mmapThreshold` come from the heap and up to
/// `trimThreshold` of freed heap stays with the process, so a batch's frames,
/// and a frame's own regrown arrays, reuse pages instead of faulting in new
/// ones. A process keeps at most its peak use plus `trimThreshold`; blocks
/// over `mmapThreshold` (a print-size frame's buffers) still get their own
/// mappings and are returned when freed.
public enum MemoryPolicy {
  /// 32 MiB: the largest mmap threshold glibc accepts on 64-bit systems
  /// (`DEFAULT_MMAP_THRESHOLD_MAX`), above every per-frame array of a
  /// 1024² frame (nyc-250000's edges are 5 MB).
  public static let mmapThreshold = 32 << 20
  /// 128 MiB: freed heap kept for the next frame, a few frames' worth of
  /// arrays, and small beside the memory of a batch worker's machine.
  public static let trimThreshold = 128 << 20

  /// Applies the rule to the whole process (glibc's `mallopt`), and returns
  /// whether the C library took it (false elsewhere than glibc). Call it
  /// first thing in a program that renders; the `mapsnap` command does. A
  /// library embedded in an app never calls it on the app's behalf.
  @discardableResult
  public static func keepFreedMemory() -> Bool {
    mapsnap_keep_freed_memory(UInt(mmapThreshold), UInt(trimThreshold)) != 0
  }

  /// Bytes the C library holds in blocks mapped on their own, or nil when
  /// it cannot tell (not glibc): how tests see the rule at work.
  static var mappedBytes: Int? {
    let n = mapsnap_malloc_mapped_bytes()
    return n < 0 ? nil : n
  }
}
