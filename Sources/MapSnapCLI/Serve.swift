import ArgumentParser
import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// `mapsnap serve DIR`: hands over to `mapsnap-server`, the HTTP server,
/// which is a program of its own so that `mapsnap` neither links nor builds
/// SwiftNIO and Hummingbird (docs/serve.md). The server is looked for
/// beside this binary, then as `MAPSNAP_SERVER_BINARY`; the arguments go
/// to it unchanged, and it replaces this process (exec), so signals reach it.
struct Serve: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve a folder's scenes and styles over HTTP: the Mapbox Static Images API's URLs (docs/serve.md).",
    discussion: """
      mapsnap serve DIR [--host 127.0.0.1] [--port 8080] [--workers N] [--queue N] …; \
      'mapsnap serve --help' prints every option. Needs mapsnap-server beside mapsnap \
      (make server, or make dist).
      """
  )

  @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The folder to serve and the server's options.", valueName: "DIR [options]"))
  var arguments: [String] = []

  func run() throws {
    let beside = FileIO.directory(of: FileIO.canonicalPath("/proc/self/exe") ?? ".") + "/mapsnap-server"
    var candidates = [beside]
    if let env = getenv("MAPSNAP_SERVER_BINARY") { candidates.insert(String(cString: env), at: 0) }
    guard let server = candidates.first(where: { access($0, X_OK) == 0 }) else {
      FileIO.writeToStandardError(
        "mapsnap serve: no mapsnap-server at \(beside): build it with 'make server' "
          + "(swift build -c release --product mapsnap-server), or set MAPSNAP_SERVER_BINARY\n")
      throw ExitCode(ExitStatus.usage.rawValue)
    }
    let argv = ([server] + arguments).map { strdup($0) } + [nil]
    execv(server, argv)
    FileIO.writeToStandardError("mapsnap serve: cannot run \(server): \(String(cString: strerror(errno)))\n")
    throw ExitCode(1)
  }
}
