import Synchronization

/// A Mapbox Vector Tile (specification 2.1), decoded lazily: `init(bytes:)`
/// only indexes the layers (name → byte range); `layer(named:)` parses one
/// layer's keys, values and feature ranges; a feature's properties and
/// geometry are decoded only when asked for (`VectorTileFeature`).
///
/// A layer is parsed once per tile value: every style layer that reads it
/// (and every copy of the tile, on any thread) shares the parsed layer.
///
/// The bytes must be the inflated tile (`Inflate.ifCompressed` first for
/// gzip'd tiles). Layer names are unique by the specification; where a tile
/// repeats one, the first layer of that name is the one read.
package struct VectorTile: Sendable {
  /// The tile's bytes, shared (not copied) by every layer parsed from it.
  package let bytes: [UInt8]
  /// The layers' names, in tile order.
  package let layerNames: [String]
  /// Each layer's message, as byte ranges parallel to `layerNames`.
  let layerRanges: [Range<Int>]
  /// The layers parsed so far, by index (shared by copies of the tile).
  let parsed: Parsed

  /// The parsed layers, behind a lock.
  final class Parsed: Sendable {
    let layers: Mutex<[VectorTileLayer?]>
    init(count: Int) { layers = Mutex(Array(repeating: nil, count: count)) }
  }

  /// The tile message's only field: `repeated Layer layers = 3`.
  static let layersField: UInt64 = 3

  /// Indexes the layers. Fails on bytes that are not a tile message, on a
  /// layer without a name, and past `VectorTileLimits.maxLayers` layers.
  package init(bytes: [UInt8]) throws(VectorTileError) {
    self.bytes = bytes
    var names: [String] = []
    var ranges: [Range<Int>] = []
    try bytes.withUnsafeBufferPointer { (buffer) throws(VectorTileError) in
      var reader = ProtobufReader(buffer, start: 0, end: buffer.count)
      while !reader.isAtEnd {
        let (field, wire) = try reader.key()
        guard field == Self.layersField else {
          try reader.skip(wire)
          continue
        }
        try reader.expect(wire, .lengthDelimited, field: field)
        let range = try reader.lengthDelimited()
        guard names.count < VectorTileLimits.maxLayers else { throw .tooManyLayers(limit: VectorTileLimits.maxLayers) }
        names.append(try Self.layerName(buffer, range))
        ranges.append(range)
      }
    }
    self.layerNames = names
    self.layerRanges = ranges
    self.parsed = Parsed(count: names.count)
  }

  /// The `name` field of the layer message in `range`. Encoders write it
  /// first, so the scan usually stops at the first field.
  static func layerName(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(VectorTileError) -> String {
    var reader = ProtobufReader(buffer, start: range.lowerBound, end: range.upperBound)
    while !reader.isAtEnd {
      let (field, wire) = try reader.key()
      if field == VectorTileLayer.Field.name {
        try reader.expect(wire, .lengthDelimited, field: field)
        return reader.string(try reader.lengthDelimited())
      }
      try reader.skip(wire)
    }
    throw .layerWithoutName(offset: range.lowerBound)
  }

  /// The layer named `name`, parsed (its keys and values decoded, its
  /// features indexed), or nil when the tile has no such layer.
  package func layer(named name: String) throws(VectorTileError) -> VectorTileLayer? {
    guard let i = layerNames.firstIndex(of: name) else { return nil }
    return try layer(at: i)
  }

  /// The layer at `index` of `layerNames`, parsed on first use. A layer
  /// that fails to parse fails again on each call (the error is not kept).
  package func layer(at index: Int) throws(VectorTileError) -> VectorTileLayer {
    if let layer = parsed.layers.withLock({ $0[index] }) { return layer }
    let layer = try VectorTileLayer(bytes: bytes, range: layerRanges[index], name: layerNames[index])
    // Two threads may parse the same layer at once: the first kept wins.
    return parsed.layers.withLock { layers in
      if let kept = layers[index] { return kept }
      layers[index] = layer
      return layer
    }
  }
}
