/// Why a frame streamed to a PNG (`FrameStream`) was not written: the
/// encoder failed, or the output could not be written.
public enum FrameWriteError: Error, Sendable, Equatable, CustomStringConvertible {
  case encoding(PNGError)
  case output(FileError)

  public var description: String {
    switch self {
    case .encoding(let e): e.description
    case .output(let e): e.description
    }
  }
}
