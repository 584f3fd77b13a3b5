import XCTest
import _MapSnapJSON

@testable import _MapSnapStyle

/// The specification's reference as data: lookups, and the facts every
/// table must keep.
final class StyleReferenceTests: XCTestCase {
  func testLookups() throws {
    let fillColor = try XCTUnwrap(StyleReference.paint(layerType: "fill", name: "fill-color"))
    XCTAssertEqual(fillColor.type, "color")
    XCTAssertEqual(fillColor.defaultValue, "#000000")
    XCTAssertEqual(fillColor.propertyType, "data-driven")
    XCTAssertEqual(fillColor.parameters, ["zoom", "feature", "feature-state"])
    XCTAssertTrue(fillColor.interpolated)
    XCTAssertTrue(fillColor.transition)

    let cap = try XCTUnwrap(StyleReference.layout(layerType: "line", name: "line-cap"))
    XCTAssertEqual(cap.type, "enum")
    XCTAssertEqual(cap.values, ["butt", "round", "square"])
    XCTAssertEqual(cap.defaultValue, "butt")
    XCTAssertFalse(cap.transition)

    let dash = try XCTUnwrap(StyleReference.paint(layerType: "line", name: "line-dasharray"))
    XCTAssertEqual(dash.type, "array")
    XCTAssertEqual(dash.value, "number")
    XCTAssertEqual(dash.minimum, 0)
    XCTAssertEqual(dash.propertyType, "cross-faded-data-driven")

    let translate = try XCTUnwrap(StyleReference.paint(layerType: "circle", name: "circle-translate"))
    XCTAssertEqual(translate.length, 2)
    XCTAssertEqual(translate.defaultValue, [0, 0])

    let opacity = try XCTUnwrap(StyleReference.paint(layerType: "raster", name: "raster-saturation"))
    XCTAssertEqual(opacity.minimum, -1)
    XCTAssertEqual(opacity.maximum, 1)

    XCTAssertEqual(StyleReference.paint(layerType: "heatmap", name: "heatmap-color")?.parameters, ["heatmap-density"])
    XCTAssertEqual(StyleReference.paint(layerType: "line", name: "line-gradient")?.propertyType, "color-ramp")
    XCTAssertEqual(StyleReference.paint(layerType: "color-relief", name: "color-relief-color")?.parameters, ["elevation"])
    XCTAssertNil(StyleReference.paint(layerType: "fill", name: "line-color"))
    XCTAssertNil(StyleReference.layout(layerType: "fill", name: "fill-color"))
    XCTAssertNil(StyleReference.paint(layerType: "custom", name: "fill-color"))
  }

  func testEveryLayerTypeHasTablesAndVisibility() {
    XCTAssertEqual(StyleReference.layerTypes.count, 10)
    XCTAssertEqual(StyleReference.sourceTypes, ["vector", "raster", "raster-dem", "geojson", "video", "image"])
    for type in StyleReference.layerTypes {
      XCTAssertNotNil(StyleReference.paintProperties(layerType: type), type)
      let visibility = StyleReference.layout(layerType: type, name: "visibility")
      XCTAssertEqual(visibility?.values, ["visible", "none"], type)
      XCTAssertEqual(visibility?.defaultValue, "visible", type)
    }
    for type in StyleReference.sourceTypes {
      XCTAssertEqual(StyleReference.sourceMembers(type: type)?["type"]?.required, true, type)
    }
  }

  /// Rules the specification keeps across its tables: layout properties
  /// take no transitions, enums list their values, a default lies within
  /// its limits, data-driven properties read features.
  func testTablesKeepTheSpecificationsRules() {
    for type in StyleReference.layerTypes {
      for (name, spec) in StyleReference.layoutProperties(layerType: type)!.entries {
        XCTAssertFalse(spec.transition, name)
      }
      let all = StyleReference.layoutProperties(layerType: type)!.entries + StyleReference.paintProperties(layerType: type)!.entries
      for (name, spec) in all {
        if spec.type == "enum" { XCTAssertFalse(spec.values.isEmpty, name) }
        if case .number(let x)? = spec.defaultValue {
          if let minimum = spec.minimum { XCTAssertGreaterThanOrEqual(x, minimum, name) }
          if let maximum = spec.maximum { XCTAssertLessThanOrEqual(x, maximum, name) }
        }
        if spec.supportsDataExpressions { XCTAssertTrue(spec.parameters.contains("feature"), name) }
      }
    }
    XCTAssertEqual(StyleReference.layoutProperties(layerType: "symbol")?.names.count, 45)
    XCTAssertEqual(StyleReference.paintProperties(layerType: "symbol")?.names.count, 14)
  }
}
