import ArgumentParser
import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// `mapsnap`: render map scenes to PNG on the CPU. `render` is the default
/// subcommand, so `mapsnap scene.json --scale 2000 -o out.png` works.
@main
struct Mapsnap: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mapsnap",
    abstract: "Render map scenes (JSON) to PNG on the CPU.",
    usage: """
      mapsnap <scene.json> [--scale <denominator>] [-o <file>] [--report <file>] [options]
      mapsnap render <scene.json> [options]
      mapsnap explain <scene.json> [--scale <denominator>] [options]
      mapsnap batch <manifest.jsonl> [--jobs N] [--shard I/N] [--resume] [--summary <file>]
      mapsnap diff <a.png> <b.png> [-o diff.png] [--threshold T] [--reports a.json b.json]
      mapsnap test <cases> [--filter text] [--record missing|failed|all]
      mapsnap serve <folder> [--host 127.0.0.1] [--port 8080]
      """,
    discussion: """
      Main options (run 'mapsnap render --help' for all of them):
        -o, --output <file>        the PNG ('-' for standard output)
        --scale <denominator>      map scale: 2000 means 1:2000
        --zoom <level>             256-px zoom level instead of a scale
        --center <lon,lat>         --size <WxH>         --pixel-ratio <ratio>
        --report <file>            the JSON report of what was drawn and why
        --strict                   fail when a layer's source cannot be loaded
        --marker <lon,lat[|…]>     overlays: markers,
        --highlight <layer:id[|…]> highlighted features,
        --geojson <file[|…]>       and GeoJSON files drawn on top

      Exit status: 0 rendered; 1 render failed (a source could not be loaded with --strict, \
      or the output could not be written); 2 invalid scene (nothing is written); 64 usage error.
      """,
    version: MapSnapVersion.current,
    subcommands: [Render.self, Explain.self, Batch.self, Diff.self, TestCommand.self, Serve.self],
    defaultSubcommand: Render.self
  )

  /// A write to a closed pipe is an error reported with its exit status
  /// (EPIPE), not a silent death by SIGPIPE; SIGTERM and SIGINT end the
  /// process by that signal with no temporary file left
  /// (`TemporaryFiles`). A plain render is read by
  /// `QuickRender` and run as ArgumentParser would run it; everything else
  /// goes through ArgumentParser. Freed memory stays with the process for
  /// the next frame (`MemoryPolicy`), and Dispatch's workers start at once
  /// (`WorkerThreads`).
  static func main() {
    signal(SIGPIPE, SIG_IGN)
    // Before any other thread starts: SIGTERM and SIGINT are then waited
    // for by one thread, which removes the temporary files first.
    TemporaryFiles.removeOnSignals()
    MemoryPolicy.keepFreedMemory()
    WorkerThreads.startEarly()
    if let render = QuickRender.settings(from: Array(CommandLine.arguments.dropFirst())) {
      do {
        try render.run()
      } catch {
        exit(withError: error)
      }
      return
    }
    main(nil)
  }
}
