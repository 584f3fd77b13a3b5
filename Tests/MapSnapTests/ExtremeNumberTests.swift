import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Every number of every golden scene, one at a time, set to extreme values
/// (1e-300, 1e155, 1e200, -1e300, 1e300, -1): each scene is then either
/// refused as an input error naming the path or drawn, never a trap (the
/// issue's fuzzing pass found scales, dpi, marker sizes and stroke widths of
/// such values trapping in integer conversions).
@Suite struct ExtremeNumberTests {
  static let values: [Double] = [1e-300, 1e155, 1e200, -1e300, 1e300, -1]

  /// Paths to every number in `v`.
  private static func numberPaths(_ v: JSONValue, _ prefix: [PathStep] = []) -> [[PathStep]] {
    switch v {
    case .number: return [prefix]
    case .array(let a): return a.indices.flatMap { numberPaths(a[$0], prefix + [.index($0)]) }
    case .object(let o): return o.pairs.flatMap { numberPaths($0.value, prefix + [.key($0.key)]) }
    default: return []
    }
  }

  enum PathStep: Hashable { case key(String), index(Int) }

  private static func replacing(_ v: JSONValue, at path: ArraySlice<PathStep>, with n: Double) -> JSONValue {
    guard let step = path.first else { return .number(n) }
    switch (v, step) {
    case (.array(var a), .index(let i)):
      a[i] = replacing(a[i], at: path.dropFirst(), with: n)
      return .array(a)
    case (.object(let o), .key(let k)):
      return .object(JSONObject(o.pairs.map { ($0.key, $0.key == k ? replacing($0.value, at: path.dropFirst(), with: n) : $0.value) }))
    default: return v
    }
  }

  static let cases: [String] = Repository.listDirectory(Repository.root + "/Golden").filter {
    FileIO.canonicalPath(Repository.root + "/Golden/\($0)/scene.json") != nil
  }.sorted()

  @Test(arguments: cases)
  func extremeNumbersAreRefusedOrDrawn(_ name: String) throws {
    let dir = Repository.root + "/Golden/" + name
    let original = try JSONParser.parse(try FileIO.read(dir + "/scene.json"))
    let fonts = try FontLibrary(directories: [FontLibrary.bundledDirectory])
    let sources = SourceLoader()
    // Keys seen in another place of this scene with the same shape are tried once.
    var tried = Set<String>()
    var refused = 0
    var drawn = 0
    for path in Self.numberPaths(original) {
      let shape = path.map { if case .key(let k) = $0 { k } else { "#" } }.joined(separator: "/")
      guard tried.insert(shape).inserted else { continue }
      for n in Self.values {
        let bytes = JSONWriter().writeBytes(Self.replacing(original, at: path[...], with: n))
        let scene: Scene
        do {
          scene = try SceneLoader.decode(bytes, file: "scene.json", baseDirectory: dir)
        } catch {
          #expect(!error.path.isEmpty || error.kind == .noScale, "\(shape) = \(n): \(error)")
          refused += 1
          continue
        }
        // Small frames keep the sweep fast; a size or ratio under test stays.
        let touchesFrame = shape.hasPrefix("map/size") || shape.hasPrefix("map/pixelRatio")
        let overrides = touchesFrame ? ViewOverrides() : ViewOverrides(size: (48, 32))
        do {
          let plan = try FramePlan.make(scene, overrides: overrides, sources: sources, fonts: fonts, threads: 1)
          _ = Snapshot.render(plan, options: RenderOptions(threads: 1))
          drawn += 1
        } catch {
          refused += 1
        }
      }
    }
    #expect(refused + drawn > 0)
  }
}
