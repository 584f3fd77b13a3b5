import Foundation

#if canImport(Glibc)
  import Glibc
#endif
import _MapSnapTestSupport

@testable import MapSnap

/// A real nginx on 127.0.0.1 for the HTTP client's tests, started by
/// scripts/nginx-test-server.sh in a temporary folder that also holds the
/// fetchers' cache; stopped by `stop` (or its own watchdog).
final class HTTPTestServer {
  let folder: TemporaryFolder
  let port: Int
  private var stopped = false
  var root: String { folder.path + "/root" }
  var work: String { folder.path + "/work" }
  var cache: String { folder.path + "/cache" }

  /// The locations every test's server has: see each test for its use.
  static let locations = """
    location /cached/ { expires 1h; }
    location /nostore/ { add_header Cache-Control no-store; }
    location /norange/ { max_ranges 0; }
    location /gzip/ { gzip on; gzip_types *; gzip_min_length 0; }
    location = /redirect { return 302 /plain/hello.txt; }
    location = /loop { return 302 /loop; }
    location ~ ^/hop/(.*)$ { return 302 /hop/$1a; }
    location = /to-ftp { return 302 ftp://127.0.0.1/file; }
    """

  /// Serves `files` (path → bytes) with `locations`.
  init(files: [String: [UInt8]]) throws {
    folder = try TemporaryFolder(prefix: "mapsnap-http")
    for (path, bytes) in files {
      let full = folder.path + "/root/" + path
      try FileManager.default.createDirectory(atPath: FileIO.directory(of: full), withIntermediateDirectories: true)
      try Files.write(bytes, to: full)
    }
    try FileManager.default.createDirectory(atPath: folder.path + "/work", withIntermediateDirectories: true)
    try folder.write("locations.conf", Self.locations)
    let output = try Self.script(
      ["start", folder.path + "/root", folder.path + "/work", folder.path + "/locations.conf"], in: folder.path + "/script")
    guard let port = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      folder.cleanUp()
      throw ServerError(message: "nginx-test-server.sh printed no port: \(output)")
    }
    self.port = port
  }

  /// The URL of `path` on this server.
  func url(_ path: String) -> String { "http://127.0.0.1:\(port)" + path }

  /// Requests nginx logged for `path` (its access log: "GET /path HTTP/1.1 200 6").
  /// nginx logs a request just after sending its response, so the log is
  /// read until two reads 20 ms apart agree.
  func requests(_ path: String) -> [String] {
    func read() -> String { (try? String(contentsOfFile: work + "/access.log", encoding: .utf8)) ?? "" }
    var log = read()
    for _ in 0..<50 {
      usleep(20_000)
      let again = read()
      if again == log { break }
      log = again
    }
    return log.split(separator: "\n").filter { $0.hasPrefix("GET \(path) ") }.map(String.init)
  }

  /// Stops the server and removes its folder (once).
  func stop() {
    guard !stopped else { return }
    stopped = true
    _ = try? script(["stop", work])
    folder.cleanUp()
  }

  struct ServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// Runs scripts/nginx-test-server.sh (posix_spawn and waitpid: Foundation's
  /// Process can miss a child's exit when several tests start one at once);
  /// its standard output, or an error with its standard error.
  private func script(_ arguments: [String]) throws -> String {
    try Self.script(arguments, in: folder.path + "/script")
  }

  private static func script(_ arguments: [String], in scratch: String) throws -> String {
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    let out = scratch + "/stdout", err = scratch + "/stderr"
    let argv = ["/bin/bash", Repository.root + "/scripts/nginx-test-server.sh"] + arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let cArgs = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    // The script and its watchdog start with no signal blocked and default
    // handlers: the test runner's threads block some (TERM among them),
    // which a spawned process would inherit.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid = pid_t()
    let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, environ)
    guard spawned == 0 else { throw ServerError(message: "posix_spawn: \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    // Exited normally with status 0 (the wait status's low 7 bits 0, then the code).
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
      throw ServerError(message: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "nginx-test-server.sh failed")
    }
    return stdout
  }
}
