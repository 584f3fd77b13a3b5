import MapSnap

/// `render`: a scene decoded and rendered end to end (`FramePlan.make`:
/// resolving, text placement, view annotations, the display list; the tile
/// renderer; the report, `explain` and the PNG), the frame clamped to 64 × 64
/// (`FrameRenderer`), with the bundled fonts. Paths in the scene resolve
/// against an empty folder, so only inline data draws.
public enum RenderFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("render")
    defer { folder.remove() }
    let scene: Scene
    do {
      scene = try SceneLoader.decode(Array(data), file: folder.path + "/scene.json", baseDirectory: folder.path)
    } catch {
      return .rejected
    }
    return FrameRenderer.render(scene)
  }
}
