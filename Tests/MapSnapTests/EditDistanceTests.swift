import Testing

@testable import MapSnap

@Suite struct EditDistanceTests {
  @Test func distances() {
    #expect(editDistance("kitten", "sitting") == 3)
    #expect(editDistance("", "abc") == 3)
    #expect(editDistance("abc", "") == 3)
    #expect(editDistance("", "") == 0)
    #expect(editDistance("abc", "abc") == 0)
    #expect(editDistance("ABC", "abc") == 0)
    #expect(editDistance("strokewidth", "strokeWidth") == 0)
    #expect(editDistance("ca", "ac") == 1)
    #expect(editDistance("fiel", "file") == 1)
    #expect(editDistance("ca", "abc") == 3)  // optimal string alignment
    #expect(editDistance("fillColour", "fillColor") == 1)
    #expect(editDistance("stroekWdith", "strokeWidth") == 2)
    #expect(editDistance("é", "e") == 1)
    #expect(editDistance("É", "é") == 0)
    #expect(editDistance("flaw", "lawn") == 2)
  }

  @Test func closestMatches() {
    let keys = ["id", "type", "source", "style", "visible", "opacity", "minScale", "maxScale", "strokeWidth"]
    #expect(closestMatch(to: "strokWidth", in: keys) == "strokeWidth")
    #expect(closestMatch(to: "stlye", in: keys) == "style")
    #expect(closestMatch(to: "minscale", in: keys) == "minScale")
    #expect(closestMatch(to: "visibel", in: keys) == "visible")
    #expect(closestMatch(to: "opactiy", in: keys) == "opacity")
    #expect(closestMatch(to: "Type", in: keys) == "type")
    #expect(closestMatch(to: "colour", in: keys) == nil)
    #expect(closestMatch(to: "x", in: keys) == nil)  // "id" is 2 edits away but only 2 long
    #expect(closestMatch(to: "ix", in: keys) == "id")
    #expect(closestMatch(to: "", in: keys) == nil)
    #expect(closestMatch(to: "anything", in: []) == nil)
    // Ties go to the earlier candidate; a closer later candidate wins.
    #expect(closestMatch(to: "cat", in: ["bat", "hat"]) == "bat")
    #expect(closestMatch(to: "cat", in: ["cart", "cat"]) == "cat")
    #expect(closestMatch(to: "styel", in: keys, maxDistance: 0) == nil)
    #expect(closestMatch(to: "styel", in: keys, maxDistance: 1) == "style")
  }
}
