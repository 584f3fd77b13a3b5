import XCTest
@testable import _MapSnapStyle

final class StyleValueTests: XCTestCase {
  func testObjectsCompareMembersInOrder() {
    XCTAssertEqual(StyleValue.object([("a", .number(1))]), .object([("a", .number(1))]))
    XCTAssertNotEqual(StyleValue.object([("a", .number(1))]), .object([("a", .number(2))]))
  }
}
