extension GeoJSONFastReader {
  /// The keys met in one object the reader interprets: the ones it reads by
  /// number (a bit each), any others by name. A key met twice is a syntax
  /// error for the parser, so the reader gives up on it.
  struct MemberNames {
    private var known: UInt8 = 0
    private var others: [String] = []
    private var otherSet: Set<String>? = nil

    /// Marks the reader's key number `bit`.
    mutating func see(_ bit: Int) throws(JSONSyntaxError) {
      let mask: UInt8 = 1 << bit
      guard known & mask == 0 else { throw GeoJSONFastReader.offShape }
      known |= mask
    }

    /// Marks an ignored key, compared as the parser compares keys (String
    /// equality): linearly while few, then in a set.
    mutating func see(_ key: String) throws(JSONSyntaxError) {
      if otherSet != nil {
        guard otherSet!.insert(key).inserted else { throw GeoJSONFastReader.offShape }
        return
      }
      guard !others.contains(key) else { throw GeoJSONFastReader.offShape }
      others.append(key)
      if others.count > JSONObject.linearSearchLimit {
        otherSet = Set(others)
      }
    }
  }
}
