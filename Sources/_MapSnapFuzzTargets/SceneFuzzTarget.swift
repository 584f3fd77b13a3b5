import MapSnap

/// `scene`: a scene file's bytes through `SceneLoader.decode` (the JSON
/// parser and `SceneDecoder`, with inline GeoJSON, styles, colours, rules).
/// Paths in the scene resolve against a folder that does not exist; the
/// decoder reads no file.
public enum SceneFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    do {
      _ = try SceneLoader.decode(Array(data), file: "fuzz.json", baseDirectory: "/nonexistent/mapsnap-fuzz")
      return .accepted
    } catch {
      _ = error.description
      return .rejected
    }
  }
}
