import ArgumentParser
import MapSnap

/// `mapsnap explain`: what a frame shows and why, as a table, without drawing
/// it. What a map author runs when something is missing from the picture.
struct Explain: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Explain what a scene shows at a scale and why, without rendering.",
    discussion: """
      Prints each layer and annotation class with its status (active, notVisible, outOfScale, \
      error, warning) and why, feature and label counts, every label and annotation text grouped \
      by outcome (placed or drawn, or the reason it is hidden), and each view annotation placed or \
      hidden and why. --layer and --id narrow what is shown. Exit statuses as for render.
      """
  )

  @Argument(help: "The scene file (JSON, scene format version 1); '-' reads it from standard input (relative paths then resolve against the working directory).")
  var scene: String

  @OptionGroup var view: ViewOptions

  @OptionGroup var files: FileOptions

  @Option(name: .customLong("layer"), help: ArgumentHelp("Show only this layer (repeatable).", valueName: "id"))
  var layers: [String] = []

  @Option(name: .customLong("id"), help: ArgumentHelp("Show only the labels, annotation texts and view annotations of the feature with this id ('#12' for the 13th feature of a source without ids), or the view annotation with this id.", valueName: "feature-id"))
  var featureID: String?

  func run() throws {
    let plan = try view.settings.plan(sceneAt: scene, files: files.settings)
    KeptUntilExit.keep(plan)
    let known = plan.state.layers.map(\.id)
    for id in layers where !known.contains(id) {
      let hint = closestLayer(to: id, in: known).map { " (did you mean \(Echo.quoted($0))?)" } ?? ""
      printError(
        "error: --layer: the scene has no layer \(Echo.quoted(id))\(hint); its layers: \(Echo.list(known.map { Echo.quoted($0) }))")
      throw ExitStatus.usage.code
    }
    let explanation = Explanation(plan: plan, filter: ExplainFilter(layers: layers, featureID: featureID))
    if let featureID {
      // An id no label, annotation text or view annotation of this frame has would print empty tables.
      let ids = explanation.featureIDs
      if !explanation.has(featureID: featureID) {
        let hint = closestMatch(to: featureID, in: ids, maxDistance: 2).map { " (did you mean \(Echo.quoted($0))?)" } ?? ""
        printError(
          "error: --id: no label, annotation text or view annotation of this frame belongs to \(Echo.quoted(featureID))\(hint)"
            + (ids.isEmpty ? "; the frame has none" : "; the frame's ids: \(Echo.list(ids.map { Echo.quoted($0) }))"))
        throw ExitStatus.usage.code
      }
    }
    do {
      try FileIO.writeToStandardOutput(Array(explanation.text.utf8))
    } catch {
      printError("error: \(error)")
      throw ExitStatus.failed.code
    }
  }
}

/// The layer id closest to `id` (case-insensitive), for "did you mean" hints.
private func closestLayer(to id: String, in ids: [String]) -> String? {
  closestMatch(to: id, in: ids, maxDistance: 2)
}
