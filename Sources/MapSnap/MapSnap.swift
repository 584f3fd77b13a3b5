// The public API of MapSnap. The rasteriser (`_MapSnapRaster`) is an
// implementation target: it is not re-exported. The few of its value types
// that the API hands to users are named here, so that `import MapSnap` is
// all a user writes.
public import _MapSnapRaster
@_exported public import _MapSnapJSON

/// A point or vector in a pixel space (x right, y down) or in map units.
public typealias Point = _MapSnapRaster.Point
/// An axis-aligned rectangle.
public typealias Rect = _MapSnapRaster.Rect
/// An 8-bit straight-alpha sRGB colour.
public typealias Color = _MapSnapRaster.Color
/// The rendered pixels of a frame: premultiplied RGBA, row-major.
public typealias Canvas = _MapSnapRaster.Canvas
/// Threads and band height of the tile renderer (the image is the same for any).
public typealias RenderOptions = _MapSnapRaster.RenderOptions
/// `nonzero` or `evenodd`, as a style's `fillRule` names it.
public typealias FillRule = _MapSnapRaster.FillRule
/// A style's `lineJoin`.
public typealias LineJoin = _MapSnapRaster.LineJoin
/// A style's `lineCap`.
public typealias LineCap = _MapSnapRaster.LineCap
/// A marker's built-in `shape`.
public typealias MarkerShape = _MapSnapRaster.MarkerShape
/// A decoded image (a marker icon), premultiplied, with reduced copies for drawing it small.
public typealias RasterImage = _MapSnapRaster.RasterImage

/// mapsnap's version: what `mapsnap --version` prints, and part of every
/// frame's `InputDigest` (a new version may draw differently).
public enum MapSnapVersion {
  public static let current = "0.2.0"
}

/// The processors this process may run on (its CPU affinity): what a
/// `threads` of 0 means everywhere in MapSnap.
public func availableProcessorCount() -> Int { activeProcessorCount() }
