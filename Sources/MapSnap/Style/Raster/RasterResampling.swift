/// `raster-resampling`: how a raster tile's texels are read when the tile is drawn at
/// another size. `linear` over a rectangle on the pixel grid is the display list's own
/// bilinear image drawing; anything else is laid over its corners by `ImageWarp`, whose
/// `nearest` reads the texel under each pixel centre as `GL_NEAREST` does.
enum RasterResampling: String, Sendable {
  case linear
  case nearest
}
