public import MapSnap
import _ServeShims

/// Draws a planned frame and encodes it in the format a request asks for,
/// on the calling thread alone (the server draws one frame per render
/// thread, as `mapsnap batch` does): PNG and PNG8 streamed through
/// mapsnap's libpng writer as the frame is drawn (with the frame's input
/// digest in its `mapsnap-inputs` chunk, as `mapsnap render` writes it),
/// JPEG through libjpeg-turbo and WebP through libwebp from the whole canvas.
public enum ImageEncoder {
  /// JPEG and lossy WebP quality: 90, where map lines and text keep clean
  /// edges (Mapbox's static API uses the same for JPEG).
  public static let quality = 90
  /// The PNG encoding: the `fast` preset, as `mapsnap render` and `batch`
  /// use by default, on one thread.
  public static var png: PNGEncodingOptions {
    var e = PNGEncodingOptions.fast
    e.threads = 1
    return e
  }
  /// PNG8: 256 colours, mapsnap's quantiser without dithering.
  public static var png8: PNGEncodingOptions {
    var e = png
    e.palette = PaletteOptions(colors: 256, dither: false)
    return e
  }

  /// The PNG options of `format` (what its digest records); nil for JPEG and WebP.
  public static func pngOptions(_ format: ImageFormat) -> PNGEncodingOptions {
    format == .png8 ? png8 : png
  }

  /// The frame drawn and encoded.
  /// - Throws: `ServeError` 422 when the encoder fails (a frame too large for the format).
  public static func encode(_ plan: FramePlan, format: ImageFormat, inputDigest: String) throws(ServeError) -> [UInt8] {
    let one = RenderOptions(threads: 1)
    switch format {
    case .png, .png8:
      var out: [UInt8] = []
      do throws(FrameWriteError) {
        try FrameStream.writePNG(plan, options: one, encoding: pngOptions(format), inputDigest: inputDigest) {
          (bytes: UnsafeRawBufferPointer) throws(FileError) in out.append(contentsOf: bytes)
        }
      } catch {
        throw .unprocessable(nil, "the PNG could not be encoded: \(error)")
      }
      return out
    case .jpeg, .webp:
      return try encodeLossy(Snapshot.render(plan, options: one).canvas, format: format)
    }
  }

  static func encodeLossy(_ canvas: Canvas, format: ImageFormat) throws(ServeError) -> [UInt8] {
    let (w, h) = (canvas.width, canvas.height)
    let straight = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: w * h)
    defer { straight.deallocate() }
    PNGEncoder.unpremultiply(canvas.buffer, into: straight)
    var out: UnsafeMutablePointer<UInt8>? = nil
    var size = 0
    let rgba = UnsafeRawPointer(straight.baseAddress!).assumingMemoryBound(to: UInt8.self)
    if format == .jpeg {
      var message = [CChar](repeating: 0, count: 200)
      let status = mapsnap_jpeg_encode(rgba, Int32(w), Int32(h), Int32(w * 4), Int32(quality), &out, &size, &message, message.count)
      guard status == 0, let out else {
        throw .unprocessable(nil, "the JPEG could not be encoded: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
      }
      defer { mapsnap_jpeg_free(out) }
      return Array(UnsafeBufferPointer(start: out, count: size))
    }
    guard mapsnap_webp_encode(rgba, Int32(w), Int32(h), Int32(w * 4), Float(quality), &out, &size) == 0, let out else {
      throw .unprocessable(nil, "the WebP could not be encoded (its sides are at most 16383 pixels)")
    }
    defer { mapsnap_webp_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: size))
  }
}
