internal import _MapSnapRaster

/// The size of a marker icon in image pixels: all that the box a marker
/// covers, and so its reach and its collisions, takes from the icon (its
/// pixels are in `ResolvedInputs`, for the display list).
struct IconSize: Sendable, Hashable {
  let width: Int
  let height: Int

  init(_ image: RasterImage) {
    width = image.width
    height = image.height
  }
}

/// The box a marker covers, shared by label collision (`collides: true`) and
/// drawing (scene format 3.1).
enum MarkerBox {
  /// The device-pixel box of marker `m` at device point `p`: its icon's
  /// rectangle, or its shape's bounds (the pin hangs above its tip, every
  /// other shape is centred), offset by `m.offset`; the outline is not part
  /// of the box.
  static func rect(_ m: MarkerStyle, icon: IconSize?, at p: Point, pixelRatio r: Double) -> Rect {
    if let icon { return iconRect(for: icon, at: p, size: m.size, offset: m.offset, pixelRatio: r) }
    let c = p + Point(m.offset.0 * r, m.offset.1 * r)
    let s = m.size * r
    if m.shape == .pin {
      return Rect(minX: c.x - s / 2, minY: c.y - 1.5 * s, maxX: c.x + s / 2, maxY: c.y)
    }
    return Rect(minX: c.x - s / 2, minY: c.y - s / 2, maxX: c.x + s / 2, maxY: c.y + s / 2)
  }

  /// Where a marker icon is drawn, in device pixels: the icon's `size` is its
  /// **height** in logical pixels (0: the image's own height) and its width
  /// follows the image's aspect ratio; it is centred on `point` (device
  /// pixels) moved by `offset` (logical pixels, x right, y down). Sizes and
  /// the offset are multiplied by `pixelRatio`.
  static func iconRect(
    for image: IconSize, at point: Point, size: Double, offset: (Double, Double), pixelRatio: Double
  ) -> Rect {
    let height = (size > 0 ? size : Double(image.height)) * pixelRatio
    let width = height * Double(image.width) / Double(image.height)
    let cx = point.x + offset.0 * pixelRatio
    let cy = point.y + offset.1 * pixelRatio
    return Rect(minX: cx - width / 2, minY: cy - height / 2, maxX: cx + width / 2, maxY: cy + height / 2)
  }
}
