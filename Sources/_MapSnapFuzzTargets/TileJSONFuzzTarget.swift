import MapSnap

/// `tilejson`: the `tiles.json` of an XYZ tile folder, drawn as a `tiles`
/// layer (`TileSource`'s TileJSON reading: zooms, scheme, tileMatrixSet,
/// attribution; then level choice and stitching over the fixture tiles).
public enum TileJSONFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("tilejson")
    defer { folder.remove() }
    for c in TileFixture.coordinates {
      folder.write(TileFixture.png, to: "tiles/\(c.z)/\(c.x)/\(c.y).png")
    }
    folder.write(data, to: "tiles/tiles.json")
    let scene = """
      {"version": 1, "map": {"center": [0, 0], "scale": \(TileFixture.scale), "size": [64, 64], "attribution": true},
       "layers": [{"id": "basemap", "type": "tiles", "tileSize": 64, "source": {"xyz": "tiles/{z}/{x}/{y}.png"}}]}
      """
    return FrameRenderer.render(json: scene, in: folder.path)
  }
}
