/// Leaf directories kept decoded, by their offset in the archive, within a
/// budget of entry bytes: the least recently used go first when a new one
/// would pass it. A directory larger than the whole budget is not kept.
struct PMTilesDirectoryCache: Sendable {
  struct Slot: Sendable {
    var directory: PMTilesDirectory
    var lastUse: UInt64
  }

  let budget: Int
  var slots: [UInt64: Slot] = [:]
  var bytes = 0
  var clock: UInt64 = 0

  init(budget: Int) { self.budget = budget }

  mutating func get(_ offset: UInt64) -> PMTilesDirectory? {
    guard slots[offset] != nil else { return nil }
    clock += 1
    slots[offset]!.lastUse = clock
    return slots[offset]!.directory
  }

  mutating func put(_ offset: UInt64, _ directory: PMTilesDirectory) {
    let size = directory.memoryBytes
    guard size <= budget, slots[offset] == nil else { return }
    while bytes + size > budget, let oldest = slots.min(by: { $0.value.lastUse < $1.value.lastUse }) {
      bytes -= oldest.value.directory.memoryBytes
      slots[oldest.key] = nil
    }
    clock += 1
    slots[offset] = Slot(directory: directory, lastUse: clock)
    bytes += size
  }
}
