/// Draws a MapLibre style as `mapsnap test`'s style cases need it: the
/// request's style (already edited by the case's operations) planned and
/// rendered as `mapsnap STYLE` plans and renders it (`StyleScene`,
/// `FramePlan`), with the suite's `local://` root.
package enum StyleRenderer {
  /// The frame `request` asks for, premultiplied RGBA.
  package static func render(_ request: StyleRenderRequest, threads: Int = 1) throws(SceneError) -> Canvas {
    var scene = try StyleScene.scene(request.style, file: request.stylePath, baseDirectory: FileIO.directory(of: request.stylePath))
    scene.configureStyle { source in
      source.localRoot = request.localRoot
      source.offline = request.offline
    }
    let overrides = ViewOverrides(
      zoom: request.zoom, center: request.center, size: (request.width, request.height), pixelRatio: request.pixelRatio, bearing: request.bearing)
    let plan = try FramePlan.make(scene, overrides: overrides, threads: threads)
    return Snapshot.render(plan, options: RenderOptions(threads: threads)).canvas
  }
}
