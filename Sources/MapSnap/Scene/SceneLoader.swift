/// Reads scene files. Relative paths inside a scene resolve against the
/// scene file's folder, never the working directory.
public enum SceneLoader {
  /// The largest scene file read by default: 1 GiB (`FileIO`'s bound on a
  /// file read whole).
  public static let defaultMaximumBytes = FileIO.defaultMaximumBytes

  /// Reads and decodes the scene at `path`, a regular file of at most
  /// `maximumBytes` (inside `confinement`'s root when given: a batch line's
  /// scene under `--root`).
  /// `-` reads the scene from standard input; its relative paths then
  /// resolve against the working directory.
  public static func load(
    path: String, maximumBytes: Int = SceneLoader.defaultMaximumBytes, confinement: Confinement? = nil
  ) throws(SceneError) -> Scene {
    if path == "-" {
      let bytes: [UInt8]
      do {
        bytes = try FileIO.readStandardInput(maximumBytes: maximumBytes)
      } catch {
        throw SceneError(file: "<stdin>", kind: .unreadable(reason: error.reason))
      }
      return try decode(bytes, file: "<stdin>", baseDirectory: "")
    }
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(path, maximumBytes: maximumBytes, limitName: "--max-source-bytes", confinement: confinement)
    } catch {
      switch error {
      case .notFound: throw SceneError(file: path, kind: .fileNotFound)
      case .isDirectory, .failed: throw SceneError(file: path, kind: .unreadable(reason: error.reason))
      }
    }
    guard confinement != nil else { return try decode(bytes, file: path, baseDirectory: FileIO.directory(of: path)) }
    // Under --root (a scene someone else named), messages quote no content
    // of the file: positions and what was expected only.
    do {
      return try decode(bytes, file: path, baseDirectory: FileIO.directory(of: path), quotingContent: false)
    } catch {
      var e = error
      if case .syntax = e.kind {} else { e.found = nil }
      throw e
    }
  }

  /// Decodes scene JSON held in memory; `file` names it in messages.
  /// `quotingContent` false: a syntax error's message quotes nothing of
  /// the input (`JSONSyntaxError.messageWithoutContent`).
  public static func decode(_ bytes: [UInt8], file: String, baseDirectory: String, quotingContent: Bool = true) throws(SceneError) -> Scene {
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw SceneError(
        file: file, kind: .syntax(line: error.line, column: error.column), expected: "valid JSON",
        found: error.message(quotingContent: quotingContent))
    }
    var scene = try StyleScene.isStyle(json)
      ? StyleScene.scene(json, file: file, baseDirectory: baseDirectory)
      : SceneDecoder(file: file, baseDirectory: baseDirectory).decode(json)
    scene.contentDigest = SHA256.hex(of: bytes)
    return scene
  }
}
