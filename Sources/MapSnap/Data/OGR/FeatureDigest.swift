/// The digest of what a read of an `ogr` layer returned, feature by
/// feature: its FID, its geometry's bytes as stored (WKB or GeoPackage
/// binary) and its properties (kind and value). The source's part of a
/// frame's `InputDigest`: a database has no file to hash, and a frame reads
/// only part of a dataset.
///
/// The pieces are gathered in order (`ContentDigest.Pending`) and hashed
/// later (`ContentDigest`: off the read, when a worker is free), up to
/// `Pending.keptLimit` bytes; past that the gathered bytes are hashed as the
/// read goes, so a read of a whole large table holds at most that much
/// besides its features. A feature's pieces are short (an 8-byte FID, a
/// key, a tag byte), so they are copied together rather than each handed
/// to `SHA256` (that cost more than reading the feature). The bytes hashed,
/// and so the digest, are the same whichever way.
struct FeatureDigest: ~Copyable {
  private var pending = ContentDigest.Pending()

  init() {}

  deinit { pending.deallocate() }

  /// Adds the feature's pieces, each kind of value tagged so that no two
  /// features hash alike by shifting bytes between fields.
  mutating func add(fid: Int, geometry: UnsafeRawBufferPointer, properties: JSONObject) {
    begin(fid: fid, geometry: geometry)
    for (key, value) in properties.pairs { property(key, value) }
  }

  /// The first pieces of a feature, before its properties (`property`, in
  /// their order): what `add` hashes, for a reader that hashes properties
  /// as it makes them.
  mutating func begin(fid: Int, geometry: UnsafeRawBufferPointer) {
    pending.append(Int64(fid).littleEndian)
    pending.append(geometry)
  }

  /// One property of the feature begun last.
  mutating func property(_ key: String, _ value: JSONValue) {
    text(key)
    switch value {
    case .string(let t):
      pending.append(UInt8(1))
      text(t)
    case .number(let n):
      pending.append(UInt8(2))
      pending.append(n.bitPattern.littleEndian)
    case .bool(let v):
      pending.append(UInt8(3))
      pending.append(UInt8(v ? 1 : 0))
    default: pending.append(UInt8(0))
    }
  }

  /// A string's UTF-8 bytes.
  private mutating func text(_ text: String) {
    var text = text
    text.withUTF8 { pending.append(UnsafeRawBufferPointer($0)) }
  }

  /// The digest, its gathered bytes handed over to be hashed when asked.
  consuming func finish() -> ContentDigest {
    let handed = pending
    pending = ContentDigest.Pending()
    return ContentDigest(pending: handed)
  }
}
