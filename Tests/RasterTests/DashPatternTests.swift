import Testing

@testable import _MapSnapRaster

/// `DashPattern`: the one rule by which a dash list is drawn.
@Suite struct DashPatternTests {
  /// An odd-length list is repeated once; an even one is kept.
  @Test func anOddListIsRepeatedOnce() {
    #expect(DashPattern([4]).lengths == [4, 4])
    #expect(DashPattern([4, 2, 1]).lengths == [4, 2, 1, 4, 2, 1])
    #expect(DashPattern([3, 1]).lengths == [3, 1])
  }

  /// The period is every length's sum, the on length the even entries'.
  @Test func periodAndOnLength() {
    let p = DashPattern([4, 2, 1])
    #expect(p.period == 14 && p.onLength == 4 + 1 + 2)
    #expect(p.dashes(along: 28) == 6)
    #expect(p.dashes(along: 56, scale: 2) == 6)
  }

  /// A pattern with no length, a negative or non-finite one, or no period
  /// cannot be walked (the dasher returns the path undashed).
  @Test func whatCannotBeWalked() {
    #expect(DashPattern([2, 1]).isWalkable)
    #expect(!DashPattern([]).isWalkable)
    #expect(!DashPattern([0, 0]).isWalkable)
    #expect(!DashPattern([2, -1]).isWalkable)
    #expect(!DashPattern([2, .infinity]).isWalkable)
    #expect(!DashPattern([.greatestFiniteMagnitude, .greatestFiniteMagnitude]).isWalkable)
  }
}
