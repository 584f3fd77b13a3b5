/// An output written while it is produced, made by
/// `OutputTarget.openStreaming`: a file goes to its temporary file as the
/// bytes come and is renamed into place only when the `PendingOutput` that
/// `finish()` returns is committed; a stream (FIFO, device) or standard
/// output is collected in memory and written at commit. Either way nothing
/// reaches the target before `finish()`, and `discard()` (or dropping the
/// output unfinished) leaves it untouched with no temporary file behind.
package final class StreamingOutput {
  public let target: OutputTarget
  private var staging: OutputTarget.Staging?
  private var collected: [UInt8] = []
  private var done = false
  /// Bytes written so far.
  public private(set) var count = 0

  init(target: OutputTarget, staging: OutputTarget.Staging?) {
    self.target = target
    self.staging = staging
  }

  deinit { discard() }

  /// Appends `bytes`.
  /// - Throws: `FileError` for any write error (ENOSPC, EIO…), naming the path.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
    precondition(!done, "write after finish or discard")
    if bytes.isEmpty { return }
    if let staging {
      try FileIO.writeAll(fd: staging.fd, bytes, path: target.path)
    } else {
      collected.append(contentsOf: bytes)
    }
    count += bytes.count
  }

  /// The output, complete, made ready to be put in place (`PendingOutput`:
  /// commit or discard it).
  /// - Throws: `FileError` when the file cannot be closed; it is removed.
  public func finish() throws(FileError) -> PendingOutput {
    precondition(!done, "finish after finish or discard")
    done = true
    if let staging {
      self.staging = nil
      return try staging.finish()
    }
    let bytes = collected
    collected = []
    return try target.prepare(bytes)
  }

  /// Drops what was written: the temporary file is removed.
  public func discard() {
    if done { return }
    done = true
    staging?.abandon()
    staging = nil
    collected = []
  }
}
