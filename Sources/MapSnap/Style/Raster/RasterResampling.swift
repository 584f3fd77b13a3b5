/// `raster-resampling`: how `ImageWarp` reads a raster tile's texels, as the GPU
/// filters a texture: `linear` (`GL_LINEAR`, bilinear) or `nearest` (`GL_NEAREST`).
enum RasterResampling: String, Sendable {
  case linear
  case nearest
}
