internal import _MapSnapStyle
import Synchronization

/// The sprites a style's frames have read, kept for the frames after: a
/// batch of a style's frames reads and decodes its sprite sheets once per
/// resolution (1x, or @2x for a pixel ratio of 2 or more), not once per
/// frame. Kept with the parsed style (`StyleLayerSource`), for a process's
/// life; a sprite read with a problem (a file missing, the network down) is
/// not kept, so the next frame reads it again. Shared by the threads of a
/// batch behind its lock.
final class StyleSpriteCache: Sendable {
  private let kept = Mutex<[String: StyleSprite]>([:])

  /// The sprite `StyleSprite(sprites, pixelRatio: …)` reads, read at most
  /// once while it reads without a problem.
  func sprite(_ sprites: [(id: String, url: String)], pixelRatio: Double, styleFolder: String, localRoot: String?, offline: Bool) -> StyleSprite {
    let urls = sprites.map { "\($0.id)=\($0.url)" }.joined(separator: "\u{1}")
    let key = "\(StyleSprite.readsHighResolution(pixelRatio) ? "@2x" : "1x")\u{1}\(styleFolder)\u{1}\(localRoot ?? "")\u{1}\(offline)\u{1}\(urls)"
    if let hit = kept.withLock({ $0[key] }) { return hit }
    let read = StyleSprite(sprites, pixelRatio: pixelRatio, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
    if read.problems.isEmpty { kept.withLock { $0[key] = read } }
    return read
  }

  /// How many sprites are kept (for tests).
  var count: Int { kept.withLock { $0.count } }
}
