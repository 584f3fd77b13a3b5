import MapSnap

/// `style`: bytes read as a MapLibre style (a document with `"version": 8`):
/// validated (`StyleValidator` with the expression compiler), read
/// (`StyleDocument`), then planned and drawn at 64×64 at most with every
/// layer's expressions evaluated over its inline GeoJSON sources.
public enum StyleFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("style")
    defer { folder.remove() }
    let scene: Scene
    do {
      scene = try SceneLoader.decode(Array(data), file: folder.path + "/style.json", baseDirectory: folder.path)
    } catch {
      _ = error.description
      return .rejected
    }
    return FrameRenderer.render(scene)
  }
}
