internal import _MapSnapRaster

/// Draws a symbol layer's placed symbols (`StyleSymbolPlacement`) as
/// MapLibre draws a symbol layer: every shown icon first, then every shown
/// text, in the layer's drawing order; an SDF part's halo under its fill,
/// the halos of all the layer's texts before their fills. Icons are their
/// sprite images over their quads (`ImageWarp`, nearest or linear as the
/// layout chose); SDF parts go through `SDFRasterizer`.
enum StyleSymbolDrawing {
  static func draw(_ layer: StyleSymbolLayerState, _ placed: StyleSymbolPlacement.Layer, into list: inout DisplayList) {
    let (w, h) = (list.width, list.height)
    for i in placed.drawOrder where placed.outcomes[i].icon {
      guard let icon = layer.symbols[i].icon else { continue }
      if let sdf = icon.sdf {
        let quads = icon.pieces.map { p in
          let c = p.corners
          return SDFQuad(
            field: icon.texels.field, fieldWidth: icon.texels.width, fieldHeight: icon.texels.height, origin: c[0], xAxis: c[1] - c[0],
            yAxis: c[3] - c[0], texture: p.texture, color: nil)
        }
        var paint = sdf
        paint.opacity = icon.opacity
        for halo in paint.hasHalo ? [true, false] : [false] {
          if let (image, rect) = SDFRasterizer.image(quads, paint: paint, halo: halo, width: w, height: h) { list.drawImage(image, in: rect) }
        }
      } else if let (image, rect) = ImageWarp.warp(
        icon.texels.texels, width: icon.texels.width, height: icon.texels.height, quads: icon.pieces, frameWidth: w, frameHeight: h,
        resampling: icon.linear ? .linear : .nearest)
      {
        list.drawImage(image, in: rect, opacity: icon.opacity)
      }
    }
    let texts = placed.drawOrder.filter { placed.outcomes[$0].text }.compactMap { layer.symbols[$0].text(placed.outcomes[$0].textVariant) }
    for halo in [true, false] {
      for t in texts where !halo || t.paint.hasHalo {
        if let (image, rect) = SDFRasterizer.image(t.quads, paint: t.paint, halo: halo, width: w, height: h) { list.drawImage(image, in: rect) }
      }
    }
  }
}
