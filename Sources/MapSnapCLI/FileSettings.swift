import ArgumentParser
import MapSnap

/// What `--root` and `--max-source-bytes` ask for, as plain values, whoever
/// read them (`FileOptions` through ArgumentParser, or `QuickRender`).
struct FileSettings: Equatable {
  var root: String? = nil
  /// In bytes.
  var maxSourceBytes: Int = SourceLoader.defaultMaximumSourceBytes

  func validate() throws {
    if let root {
      do { _ = try Confinement(root: root) } catch { throw ValidationError("--root \(root): \(error.reason)") }
    }
  }

  /// The files the command line's overlays name (`--geojson` files,
  /// `--marker` icons): the operator's, never confined.
  static func paths(of overlays: [Overlay]) -> Set<String> {
    var out = Set<String>()
    for o in overlays {
      if case .geojson(let source) = o.target, case .file(_, let resolved) = source { out.insert(resolved) }
      if let icon = o.style.marker?.icon { out.insert(icon) }
    }
    return out
  }

  /// The confinement `--root` asks for (nil without it), with the paths the
  /// operator gave on the command line left out.
  func confinement(exempt: Set<String> = []) throws -> Confinement? {
    guard let root else { return nil }
    do {
      return try Confinement(root: root, exempt: exempt)
    } catch {
      throw ValidationError("--root \(root): \(error.reason)")
    }
  }
}
