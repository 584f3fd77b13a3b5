#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file could not be read or written. The message has the shape every
/// mapsnap error has: where, then what happened (`out.png: Permission denied`).
public enum FileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Nothing exists at `path` (`ENOENT`): the file to read, or the folder of
  /// the file to write.
  case notFound(path: String)
  /// `path` is a folder where a file was expected.
  case isDirectory(path: String)
  /// The system call failed; `reason` is the C library's text for `errno`
  /// (`Permission denied`).
  case failed(path: String, reason: String)

  /// The file (or folder) concerned.
  public var path: String {
    switch self {
    case .notFound(let path), .isDirectory(let path), .failed(let path, _): path
    }
  }

  /// What happened, without the path.
  public var reason: String {
    switch self {
    case .notFound: "no such file or directory"
    case .isDirectory: "is a directory"
    case .failed(_, let reason): reason
    }
  }

  /// `path: reason`, both escaped and cut as `Echo` writes input.
  public var description: String { Echo.escaped(path) + ": " + Echo.escaped(reason, limit: 400) }

  /// The error for the current `errno`; `naming` adds the errno's name to
  /// the text (`No space left on device (ENOSPC)`), as write failures do.
  static func fromErrno(_ path: String, naming: Bool = false) -> FileError {
    let code = errno
    switch code {
    case ENOENT: return .notFound(path: path)
    case EISDIR: return .isDirectory(path: path)
    default:
      let text = String(cString: strerror(code))
      guard naming, let name = errnoName(code) else { return .failed(path: path, reason: text) }
      return .failed(path: path, reason: "\(text) (\(name))")
    }
  }

  /// The symbolic names of the errors a write commonly meets.
  static func errnoName(_ code: Int32) -> String? {
    switch code {
    case ENOSPC: "ENOSPC"
    case EPIPE: "EPIPE"
    case EDQUOT: "EDQUOT"
    case EFBIG: "EFBIG"
    case EIO: "EIO"
    case EROFS: "EROFS"
    case EACCES: "EACCES"
    case EPERM: "EPERM"
    case ENXIO: "ENXIO"
    case EAGAIN: "EAGAIN"
    case EBADF: "EBADF"
    default: nil
    }
  }
}
