import Foundation
import Testing
import _MapSnapTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one run of the `mapsnap` executable produced.
struct CLIResult: CustomStringConvertible {
  var status: Int32
  /// True when the process ended by a signal (a crash) rather than `exit`.
  var crashed: Bool
  /// True when the run was killed for taking too long.
  var timedOut: Bool
  var stdout: [UInt8]
  var stderr: String

  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

  var description: String {
    "status \(status)\(crashed ? " (signal)" : "")\(timedOut ? " (timed out)" : ""), "
      + "\(stdout.count) bytes on stdout, stderr: \(stderr.isEmpty ? "<empty>" : stderr)"
  }
}

/// Runs the built `mapsnap` binary the way a user does.
enum CLI {
  /// The `mapsnap` executable in the products folder (`.build/<config>/`), which
  /// is the folder holding the running test executable. `MAPSNAP_BINARY`
  /// overrides it.
  static let executable: URL? = {
    let fm = FileManager.default
    func isExecutableFile(_ url: URL) -> Bool {
      var isDir: ObjCBool = false
      return fm.fileExists(atPath: url.path, isDirectory: &isDir) && !isDir.boolValue
        && fm.isExecutableFile(atPath: url.path)
    }
    if let env = ProcessInfo.processInfo.environment["MAPSNAP_BINARY"], !env.isEmpty {
      return URL(fileURLWithPath: env)
    }
    var folders: [URL] = []
    // Linux: …/debug/mapsnapPackageTests.xctest is the test executable itself.
    if let arg0 = CommandLine.arguments.first {
      folders.append(URL(fileURLWithPath: arg0).resolvingSymlinksInPath().deletingLastPathComponent())
    }
    #if os(Linux)
      if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        folders.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
      }
    #endif
    // macOS: …/debug/mapsnapPackageTests.xctest/Contents/MacOS/mapsnapPackageTests.
    for bundle in [Bundle.main] + Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      folders.append(bundle.bundleURL.deletingLastPathComponent())
    }
    folders.append(Bundle.main.bundleURL)
    for folder in folders {
      let candidate = folder.appendingPathComponent("mapsnap")
      if isExecutableFile(candidate) { return candidate }
    }
    return nil
  }()

  /// Runs `mapsnap arguments…` in `directory`.
  ///
  /// - Parameter stdin: bytes fed to standard input, which is then closed;
  ///   `nil` gives an empty standard input (end of file at once).
  /// - Parameter environment: variables set for the child on top of this
  ///   process's (nil removes one, as `CI` must be for record-mode tests).
  /// - Parameter shell: shell commands run before `mapsnap` is exec'd in
  ///   the same process (`ulimit -f 64` limits the files it may write).
  static func run(
    _ arguments: [String], in directory: String, stdin: [UInt8]? = nil, timeout: TimeInterval = 300,
    environment: [String: String?] = [:], shell: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> CLIResult {
    let exe = try #require(executable, "mapsnap executable not found next to the test bundle (\(CommandLine.arguments.first ?? "?"))", sourceLocation: sourceLocation)
    let process = Process()
    if let shell {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", shell + "; exec \"$0\" \"$@\"", exe.path] + arguments
    } else {
      process.executableURL = exe
      process.arguments = arguments
    }
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    if !environment.isEmpty {
      var env = ProcessInfo.processInfo.environment
      for (k, v) in environment { env[k] = v }
      process.environment = env
    }
    let inPipe = Pipe()
    let outPipe = Pipe()
    let errPipe = Pipe()
    process.standardInput = inPipe
    process.standardOutput = outPipe
    process.standardError = errPipe

    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    try process.run()

    // Drain both pipes concurrently so a large PNG on stdout cannot block the child.
    let out = Box()
    let err = Box()
    let readers = DispatchGroup()
    for (pipe, box) in [(outPipe, out), (errPipe, err)] {
      readers.enter()
      DispatchQueue.global().async {
        box.set(pipe.fileHandleForReading.readDataToEndOfFile())
        readers.leave()
      }
    }
    if let stdin { inPipe.fileHandleForWriting.write(Data(stdin)) }
    try? inPipe.fileHandleForWriting.close()

    var timedOut = false
    if done.wait(timeout: .now() + timeout) == .timedOut {
      timedOut = true
      process.terminate()
      // The child inherits this process's blocked signals (SIGTERM among
      // them on the test runner's threads): SIGKILL cannot be blocked.
      if done.wait(timeout: .now() + 2) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
        done.wait()
      }
    }
    readers.wait()
    process.waitUntilExit()
    return CLIResult(
      status: process.terminationStatus,
      crashed: process.terminationReason == .uncaughtSignal,
      timedOut: timedOut,
      stdout: [UInt8](out.get()),
      stderr: String(decoding: err.get(), as: UTF8.self))
  }
}

/// A lock-protected cell for handing bytes back from a reader thread.
private final class Box: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
  func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

// MARK: - Report JSON

/// A parsed `--report` document with convenient accessors.
struct Report {
  let root: [String: Any]

  init(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let value = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    root = try #require(value as? [String: Any], "the report is not a JSON object", sourceLocation: sourceLocation)
  }

  init(path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try self.init(try Files.read(path), sourceLocation: sourceLocation)
  }

  var map: [String: Any]? { root["map"] as? [String: Any] }
  var scale: Double? { (map?["scale"] as? NSNumber)?.doubleValue }
  var center: [Double]? { (map?["center"] as? [NSNumber])?.map(\.doubleValue) }
  var layers: [[String: Any]] { root["layers"] as? [[String: Any]] ?? [] }

  func layer(_ id: String) -> [String: Any]? { layers.first { $0["id"] as? String == id } }
  func status(_ id: String) -> [String]? { layer(id)?["status"] as? [String] }
  func features(_ id: String) -> (total: Int, drawn: Int)? {
    guard let f = layer(id)?["features"] as? [String: Any],
      let t = (f["total"] as? NSNumber)?.intValue, let d = (f["drawn"] as? NSNumber)?.intValue
    else { return nil }
    return (t, d)
  }
}
