import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// A `where` value that no feature of the whole source holds is a layer
/// `warning`, with the closest value the source holds as a hint, as names
/// are warned about; a frame that shows none of the features that hold it
/// is not wrong.
@Suite struct WhereValueTests {
  /// Valves at (0, 0) and (1, 1): "Open" and "Closed", numbered 7 and 8.
  private static let data =
    #"{"type": "FeatureCollection", "features": ["#
    + #"{"type": "Feature", "properties": {"status": "Open", "n": 7, "name": "V-1"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},"#
    + #"{"type": "Feature", "properties": {"status": "Closed", "n": 8, "name": "V-2"}, "geometry": {"type": "Point", "coordinates": [1, 1]}},"#
    + #"{"type": "Feature", "properties": {"status": "Removed", "name": "V-3"}, "geometry": null}]}"#

  private func layers(_ layers: String, center: String = "[0, 0]") throws -> [LayerRecord] {
    let json = #"{"version": 1, "map": {"center": \#(center), "scale": 4000, "size": [64, 64]}, "layers": [\#(layers)]}"#
    return try FramePlan.make(try SceneLoader.decode(Array(json.utf8), file: "where.json", baseDirectory: "/")).layers
  }

  private func features(_ rules: String) -> String {
    #"{"id": "v", "type": "features", "source": {"data": \#(Self.data)}, "rules": \#(rules)}"#
  }

  @Test func aValueNoFeatureHoldsWarnsWithTheCaseInsensitiveMatch() throws {
    let l = try layers(features(#"[{"where": {"status": "open"}, "style": {"marker": {}}}, {"where": {"status": ["closed", "Closed"]}, "style": {"marker": {}}}]"#))[0]
    #expect(l.status == [.active, .warning])
    #expect(
      l.problems == [
        .unmatchedValue(key: "rules[0].where", property: "status", value: .string("open"), suggestion: .string("Open")),
        .unmatchedValue(key: "rules[1].where", property: "status", value: .string("closed"), suggestion: .string("Closed")),
      ])
    #expect(l.problems[0].hint == #"did you mean "Open"?"#)
    #expect(l.problems[0].message == #"rules[0].where gives the property "status" the value "open", which no feature of the source holds (did you mean "Open"?)"#)
  }

  @Test func valuesHeldOutsideTheFrameOrWithoutGeometryAreNotWarned() throws {
    // A quiet corner: no feature in the frame, every value held somewhere.
    let l = try layers(
      features(#"[{"where": {"status": ["Open", "Removed"]}, "style": {"marker": {}}}, {"where": {"n": 8}, "style": {"marker": {}}}]"#),
      center: "[50, 50]")[0]
    #expect(l.problems == [])
    #expect(l.status == [.active])
  }

  @Test func oneProblemPerValueNamingEveryKeyAndHintsAcrossKinds() throws {
    let l = try layers(features(#"[{"where": {"n": "7"}, "style": {"marker": {}}}, {"where": {"n": "7"}, "style": {"fill": "red"}}, {"where": {"n": 9}, "style": {"marker": {}}}]"#))[0]
    #expect(
      l.problems == [
        .unmatchedValue(key: "rules[0].where, rules[1].where", property: "n", value: .string("7"), suggestion: .number(7)),
        .unmatchedValue(key: "rules[2].where", property: "n", value: .number(9), suggestion: nil),
      ])
    #expect(l.problems[0].hint == "did you mean 7?")
  }

  @Test func annotationSublayersAreChecked() throws {
    let anno =
      #"{"id": "a", "type": "annotation", "source": {"data": \#(Self.data)}, "textField": "name", "referenceScale": 4000, "sublayers": [{"id": "o", "where": {"status": "Opne"}, "style": {"size": 10}}]}"#
    let l = try layers(anno)[0]
    #expect(l.problems == [.unmatchedValue(key: "sublayers[0].where", property: "status", value: .string("Opne"), suggestion: .string("Open"))])
  }

  /// An unknown name is the name's problem alone; `null` is never warned.
  @Test func unknownNamesAndNullAreLeftToTheirRules() throws {
    let l = try layers(features(#"[{"where": {"Status": "open"}, "style": {"marker": {}}}, {"where": {"n": null}, "style": {"marker": {}}}]"#))[0]
    #expect(l.problems.map(\.kind) == ["unknownProperty"])
  }
}
