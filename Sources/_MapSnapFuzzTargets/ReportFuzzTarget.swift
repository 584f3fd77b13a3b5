import MapSnap

/// `report`: a report as `mapsnap diff --reports A.json B.json` reads it:
/// the JSON parser, then `ReportDiff.compare` (`ParsedReport` and the
/// matching) against a real report on either side and against itself, with
/// the text and JSON renderings of the changes.
public enum ReportFuzzTarget {
  /// A real report with labels, hidden labels, an annotation layer and a
  /// view annotation, rendered once per process.
  static let reference: JSONValue = {
    let scene = """
      {"version": 1, "map": {"center": [0, 0], "scale": 2000, "size": [64, 64]},
       "layers": [
        {"id": "pois", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": [
           {"type": "Feature", "id": 1, "properties": {"name": "Alpha"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
           {"type": "Feature", "properties": {"name": "Beta"}, "geometry": {"type": "Point", "coordinates": [0.00001, 0]}}]}},
         "style": {"marker": {"shape": "circle", "size": 6, "fill": "#c00"}, "label": {"field": "name", "size": 11, "anchors": ["right", "left"]}}},
        {"id": "notes", "type": "annotation", "textField": "t", "referenceScale": 2000, "source": {"data": {"type": "Feature", "properties": {"t": "N"},
           "geometry": {"type": "Point", "coordinates": [0.0001, 0.0001]}}}, "sublayers": [{"id": "all", "style": {"size": 9}}]}],
       "viewAnnotations": [{"id": "v", "text": "Here", "coordinate": [0, 0]}]}
      """
    do {
      let s = try SceneLoader.decode(Array(scene.utf8), file: "reference.json", baseDirectory: "")
      return try FramePlan.make(s, fonts: FrameRenderer.fonts, threads: 1).report(detail: .full)
    } catch {
      fatalError("mapsnap-fuzz: the report target's reference scene does not render: \(error)")
    }
  }()

  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let json: JSONValue
    do {
      json = try JSONParser.parse(data)
    } catch {
      return .rejected
    }
    var outcome = FuzzOutcome.accepted
    for (a, b) in [(json, reference), (reference, json), (json, json)] {
      do {
        let diff = try ReportDiff.compare(a, b)
        _ = diff.text
        _ = diff.json
      } catch {
        _ = error.description
        outcome = .rejected
      }
    }
    return outcome
  }
}
