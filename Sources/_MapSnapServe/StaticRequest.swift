public import MapSnap

/// One request of the static map API, as `StaticURLParser` or
/// `StaticBodyDecoder` read it: which scene, which frame, what is drawn on
/// top, and what comes back. Nothing here has touched a file.
public struct StaticRequest: Sendable {
  /// What the request returns.
  public enum Product: String, Sendable {
    /// The image (`/static/`, `/scale/`).
    case image
    /// The frame's report as JSON (`/report/`).
    case report
    /// The frame's explanation (`/explain/`), as JSON lines.
    case explain
  }

  /// How the frame is placed.
  public enum View: Sendable, Equatable {
    /// A centre in degrees and a zoom in the 512-px (MapLibre) convention,
    /// as the Mapbox API gives it; `bearing` in degrees clockwise.
    case center(lon: Double, lat: Double, zoom: Double, bearing: Double)
    /// A box in degrees the frame fits, with `padding`.
    case bounds(MapBounds)
    /// Fit every overlay (`auto`).
    case auto
    /// mapsnap's own addressing: a centre and a scale denominator.
    case scale(lon: Double, lat: Double, scale: Double)
  }

  /// The served name of the scene or style (its file name without `.json`).
  public var scene: String
  public var product: Product
  public var view: View
  /// The image size in logical pixels.
  public var width: Int
  public var height: Int
  /// `@2x`: twice as many device pixels.
  public var retina: Bool
  /// Overlays in the mapsnap JSON form (`OverlayDecoder`), in drawing order.
  public var overlays: [JSONValue]
  /// Where each overlay was written in the request, for messages.
  public var overlayParts: [String]
  /// `padding` in logical pixels (CSS order), for `bounds` and `auto`.
  public var padding: Padding?
  public var format: ImageFormat

  public init(
    scene: String, product: Product = .image, view: View, width: Int, height: Int, retina: Bool = false,
    overlays: [JSONValue] = [], overlayParts: [String] = [], padding: Padding? = nil, format: ImageFormat = .png
  ) {
    (self.scene, self.product, self.view, self.width, self.height) = (scene, product, view, width, height)
    (self.retina, self.overlays, self.overlayParts, self.padding, self.format) = (retina, overlays, overlayParts, padding, format)
  }
}

/// The encodings the server writes.
public enum ImageFormat: String, Sendable, CaseIterable {
  /// RGBA PNG through libpng (the default).
  case png
  /// An indexed PNG of at most 256 colours (`format=png8`), mapsnap's quantiser.
  case png8
  /// JPEG through libjpeg-turbo, quality 90, over white.
  case jpeg
  /// Lossy WebP through libwebp, quality 90, with alpha.
  case webp

  /// The `Content-Type` of the encoding.
  public var contentType: String {
    switch self {
    case .png, .png8: return "image/png"
    case .jpeg: return "image/jpeg"
    case .webp: return "image/webp"
    }
  }

  /// The format a URL suffix names (`.png`, `.jpg` / `.jpeg`, `.webp`), or
  /// a `format` parameter or body member (those and `png8`, `jpg`).
  public static func named(_ name: some StringProtocol) -> ImageFormat? {
    switch name.lowercased() {
    case "png": return .png
    case "png8": return .png8
    case "jpg", "jpeg": return .jpeg
    case "webp": return .webp
    default: return nil
    }
  }
}
