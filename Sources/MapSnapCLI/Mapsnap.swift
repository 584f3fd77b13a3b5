import ArgumentParser

/// `mapsnap`: render map scenes to PNG on the CPU. `render` is the default
/// subcommand, so `mapsnap scene.json --scale 2000 -o out.png` works.
@main
struct Mapsnap: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mapsnap",
    abstract: "Render map scenes (JSON) to PNG on the CPU.",
    discussion: """
      Exit status: 0 rendered; 1 render failed (a source could not be loaded with --strict, \
      or the output could not be written); 2 invalid scene (nothing is written); 64 usage error.
      """,
    version: "0.1.0",
    subcommands: [Render.self],
    defaultSubcommand: Render.self
  )
}
