import Testing
import _MapSnapFuzzTargets

#if canImport(Glibc)
  import Glibc
#endif

/// The fuzz targets' reproducers, replayed: every file of
/// `Tests/Fixtures/fuzz/<target>/` goes through the same target function as
/// under libFuzzer (`mapsnap-fuzz <target>`), and must return (no trap, no
/// hang) with the outcome its name starts with: `rejected-` (the library
/// refuses the input with an error) or `accepted-` (it decodes, or renders).
/// A few seeds of each corpus (`Fuzz/corpus/<target>/`) run too, so a target
/// that no longer builds or works fails here and not only under `make fuzz`.
///
/// Serialized: the targets share one font library (`FrameRenderer.fonts`).
@Suite(.serialized) struct FuzzRegressionTests {
  /// Reproducers that still crash the library: skipped until it is fixed
  /// (fixed by the main branch's reliability work, issue 12; remove each
  /// entry with its fix). Keyed "<target>/<file>".
  static let knownFailing: Set<String> = []

  static let repository: String = {
    var root = #filePath
    for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }  // …/Tests/FuzzTests/FuzzRegressionTests.swift
    return root
  }()

  static func list(_ folder: String) -> [String] {
    guard let dir = opendir(folder) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      if !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted()
  }

  static func read(_ path: String) throws -> [UInt8] {
    guard let bytes = FuzzTargets.read(path) else { throw ReadError(path: path) }
    return bytes
  }

  struct ReadError: Error { var path: String }

  static var fixtures: String { repository + "/Tests/Fixtures/fuzz" }

  @Test func everyFixtureFolderNamesATarget() {
    for folder in Self.list(Self.fixtures) {
      #expect(FuzzTargets.named(folder) != nil, "Tests/Fixtures/fuzz/\(folder) is not a fuzz target")
    }
    for key in Self.knownFailing {
      let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
      #expect(parts.count == 2 && Self.list(Self.fixtures + "/" + parts[0]).contains(parts[1]), "known-failing \(key) is not a fixture")
    }
  }

  @Test(arguments: FuzzTargets.all.map(\.name))
  func reproducersKeepTheirOutcome(_ name: String) throws {
    let target = try #require(FuzzTargets.named(name))
    for file in Self.list(Self.fixtures + "/" + name) {
      let key = "\(name)/\(file)"
      guard let expected = FuzzOutcome.allCases.first(where: { file.hasPrefix($0.rawValue + "-") }) else {
        Issue.record("\(key): the name must start with accepted- or rejected-")
        continue
      }
      if Self.knownFailing.contains(key) { continue }
      let outcome = target.run(try Self.read(Self.fixtures + "/" + key))
      #expect(outcome == expected, "\(key)")
    }
  }

  /// The first seeds of each corpus (in name order): each target runs.
  @Test(arguments: FuzzTargets.all.map(\.name))
  func seedsRun(_ name: String) throws {
    let target = try #require(FuzzTargets.named(name))
    let folder = Self.repository + "/Fuzz/corpus/" + name
    let seeds = Self.list(folder)
    #expect(!seeds.isEmpty, "Fuzz/corpus/\(name) has no seeds")
    var outcomes = Set<FuzzOutcome>()
    for seed in seeds.prefix(8) {
      outcomes.insert(target.run(try Self.read(folder + "/" + seed)))
    }
    #expect(seeds.isEmpty || outcomes.contains(.accepted), "no seed of Fuzz/corpus/\(name) among the first 8 is accepted")
  }
}
