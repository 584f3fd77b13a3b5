import ArgumentParser
import MapSnap

/// `mapsnap explain`: what a frame shows and why, as a table, without drawing
/// it. What a map author runs when something is missing from the picture.
struct Explain: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Explain what a scene shows at a scale and why, without rendering.",
    discussion: """
      Prints each layer and annotation class with its status (active, notVisible, outOfScale, \
      error, warning) and why, feature and label counts, and each view annotation placed or \
      hidden and why. Exit statuses as for render.
      """
  )

  @Argument(help: "The scene file (JSON, scene format version 1).")
  var scene: String

  @OptionGroup var view: ViewOptions

  func run() throws {
    let plan = try view.plan(sceneAt: scene)
    do {
      try FileIO.writeToStandardOutput(Array(Explanation(plan: plan).text.utf8))
    } catch {
      printError("error: \(error)")
      throw ExitStatus.renderFailed
    }
  }
}
