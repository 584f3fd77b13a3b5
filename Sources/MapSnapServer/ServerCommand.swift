import ArgumentParser
import Hummingbird
import Logging
import MapSnap
import ServiceLifecycle
import _MapSnapServe

#if canImport(Glibc)
  import Glibc
#endif

/// `mapsnap-server DIR` (run as `mapsnap serve DIR`): the static map API
/// over HTTP/1.1 on Hummingbird. Requests are parsed on SwiftNIO's event
/// loops and drawn on the render queue's threads; SIGTERM and SIGINT stop
/// it gracefully (in-flight and queued requests finish, new ones get 503
/// until the listener closes).
@main
struct ServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mapsnap serve",
    abstract: "Serve a folder's scenes and styles as static map images over HTTP (docs/serve.md).",
    discussion: """
      URLs: /{name}/static/[{overlays}/]{lon},{lat},{zoom}[,{bearing}]|[w,s,e,n]|auto/{w}x{h}[@2x][.png|.jpg|.webp], \
      /styles/v1/{user}/{name}/static/… (the Mapbox Static Images API), /{name}/scale/{lon},{lat},{scale}/{w}x{h}, \
      /{name}/report/… and /{name}/explain/… (JSON), POST /{name}/static (a JSON body), / (a preview page), \
      /scenes, /health and /metrics (Prometheus).
      """
  )

  @Argument(help: "The folder whose scenes and styles are served (nothing outside it is read).")
  var directory: String

  @Option(help: "The address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on.")
  var port = 8080

  @Option(help: "Render threads (0: one per processor this process may run on).")
  var workers = 0

  @Option(help: "Requests that may wait for a render thread; beyond them a request gets 503 at once (0: 16 per worker).")
  var queue = 0

  @Option(help: ArgumentHelp("Seconds a request may wait in the queue before it is answered 503 instead of drawn.", valueName: "seconds"))
  var timeout = 30.0

  @Option(name: .customLong("cache-mb"), help: "Megabytes of encoded images kept in memory (0: none).")
  var cacheMegabytes = 256

  @Option(help: "The Cache-Control header of images, reports and explanations.")
  var cacheControl = "public, max-age=3600"

  @Option(help: "The widest and tallest image in logical pixels (@2x doubles its device pixels).")
  var maxSide = 1280

  @Option(help: "The most overlays in one request.")
  var maxOverlays = 200

  @Option(help: "The longest URL (path and query) in bytes; longer gets 414.")
  var maxUrlBytes = 8192

  @Option(help: "The largest POST body in bytes; larger gets 413.")
  var maxBodyBytes = 1 << 20

  @Option(name: .customLong("fonts"), help: ArgumentHelp("A folder of fonts searched before the bundled ones (repeatable).", valueName: "dir"))
  var fontDirectories: [String] = []

  func validate() throws {
    guard (1...65535).contains(port) else { throw ValidationError("--port must be 1 to 65535, got \(port)") }
    guard workers >= 0, workers <= 1024 else { throw ValidationError("--workers must be 0 to 1024, got \(workers)") }
    guard queue >= 0, queue <= 1_000_000 else { throw ValidationError("--queue must be 0 to 1000000, got \(queue)") }
    guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be more than 0 and at most 3600 seconds") }
    guard cacheMegabytes >= 0, cacheMegabytes <= 1 << 20 else { throw ValidationError("--cache-mb must be 0 to 1048576") }
    guard (1...8192).contains(maxSide) else { throw ValidationError("--max-side must be 1 to 8192") }
    guard (0...100_000).contains(maxOverlays) else { throw ValidationError("--max-overlays must be 0 to 100000") }
    guard (256...1 << 20).contains(maxUrlBytes) else { throw ValidationError("--max-url-bytes must be 256 to 1048576") }
    guard (0...1 << 30).contains(maxBodyBytes) else { throw ValidationError("--max-body-bytes must be 0 to 1073741824") }
    guard !cacheControl.contains(where: { $0.isNewline }) else { throw ValidationError("--cache-control must be one line") }
  }

  func run() async throws {
    var limits = ServeLimits()
    limits.maxSide = maxSide
    limits.maxOverlays = maxOverlays
    limits.maxURLBytes = maxUrlBytes
    limits.maxBodyBytes = maxBodyBytes
    let catalog: SceneCatalog
    do throws(ServeError) { catalog = try SceneCatalog(root: directory) } catch {
      FileIO.writeToStandardError("mapsnap serve: \(error.message)\(error.hint.map { " (\($0))" } ?? "")\n")
      throw ExitCode(64)
    }
    let renderer = try StaticRenderer(catalog: catalog, limits: limits, cacheBytes: cacheMegabytes << 20, fontDirectories: fontDirectories)
    let threads = workers > 0 ? workers : availableProcessorCount()
    let renderQueue = RenderQueue(workers: threads, capacity: queue > 0 ? queue : 16 * threads, budgetSeconds: timeout)
    let responder = StaticMapResponder(
      renderer: renderer, queue: renderQueue, metrics: ServerMetrics(),
      settings: ServerSettings(limits: limits, cacheControl: cacheControl))
    var logger = Logger(label: "mapsnap-server")
    logger.logLevel = .notice
    let names = catalog.entries.map(\.name)
    let (host, port) = (self.host, self.port)
    let app = Application(
      responder: responder,
      configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "mapsnap/\(MapSnapVersion.current)"),
      services: [QueueDrain(queue: renderQueue)],
      onServerRunning: { channel in
        let address = channel.localAddress.map { "\($0)" } ?? "\(host):\(port)"
        FileIO.writeToStandardError(
          "mapsnap serve: \(names.count) scenes and styles from \(catalog.root) (\(names.joined(separator: ", "))) on \(address), \(threads) render threads\n")
        for s in catalog.shadowed { FileIO.writeToStandardError("mapsnap serve: \(s) is not served: another file has its name\n") }
      },
      logger: logger)
    try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
  }
}

/// A service that, when the server is asked to stop, refuses new requests
/// (503) and waits for the queued and running ones before the server closes.
struct QueueDrain: Service {
  let queue: RenderQueue
  func run() async throws {
    try? await gracefulShutdown()
    await queue.drain()
  }
}
