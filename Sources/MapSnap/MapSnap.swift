// The renderer's geometry and pixel types (Point, Path, Color, Canvas, …) are
// part of the public API of MapSnap.
@_exported import _MapSnapRaster
