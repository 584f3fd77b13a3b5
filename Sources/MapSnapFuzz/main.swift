// mapsnap-fuzz TARGET [libFuzzer flags…] [CORPUS…]   (or MAPSNAP_FUZZ_TARGET=TARGET)
//
// Built with `-DMAPSNAP_FUZZ` and libFuzzer (`make fuzz-build`), it hands
// the target to libFuzzer's driver (LLVMFuzzerRunDriver), which takes every
// libFuzzer flag and corpus folder. In a normal build it replays: it runs
// the target once over each file given (or every file of each folder), the
// way a crash is reproduced under a debugger or in the regression tests.
import _MapSnapFuzzTargets

#if canImport(Glibc)
  import Glibc
#endif

/// Writes `text` to standard error.
func printError(_ text: String) {
  var bytes = Array(text.utf8)
  _ = write(2, &bytes, bytes.count)
}

func usage() -> Never {
  var text = "usage: mapsnap-fuzz TARGET [libFuzzer flags…] [CORPUS…]\n       mapsnap-fuzz --list\ntargets:\n"
  for t in FuzzTargets.all { text += "  \(t.name.padding(9)) \(t.summary) (max_len \(t.maxLength))\n" }
  printError(text)
  exit(2)
}

extension String {
  func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}

var arguments = CommandLine.arguments
if arguments.count >= 2 && arguments[1] == "--list" {
  for t in FuzzTargets.all { print("\(t.name)\t\(t.maxLength)\t\(t.summary)") }
  exit(0)
}
// The target is the first argument, or MAPSNAP_FUZZ_TARGET: libFuzzer's
// -fork and -jobs modes run the binary again with its own flags only, and
// the variable (set here) tells those children the target.
if arguments.count >= 2, FuzzTargets.named(arguments[1]) != nil {
  setenv("MAPSNAP_FUZZ_TARGET", arguments[1], 1)
} else if let name = getenv("MAPSNAP_FUZZ_TARGET").map({ String(cString: $0) }), !name.isEmpty {
  arguments.insert(name, at: 1)
}
guard arguments.count >= 2 else { usage() }
guard let target = FuzzTargets.named(arguments[1]) else {
  printError("mapsnap-fuzz: no target named \"\(arguments[1])\"\n")
  usage()
}

#if MAPSNAP_FUZZ
  /// libFuzzer's driver (compiler-rt's libclang_rt.fuzzer_no_main): parses
  /// the flags in argv and calls `callback` with each input.
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// The target libFuzzer's callback runs (a C callback captures nothing).
  nonisolated(unsafe) var selected = target

  // argv without the target's name: libFuzzer sees only its flags and folders.
  var cArguments: [UnsafeMutablePointer<CChar>?] = ([arguments[0]] + arguments.dropFirst(2)).map { strdup($0) } + [nil]
  var argc = CInt(cArguments.count - 1)
  let status = cArguments.withUnsafeMutableBufferPointer { buffer in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
      _ = selected.run(UnsafeRawBufferPointer(start: data, count: size))
      return 0
    }
  }
  exit(status)
#else
  /// Replay: every file named, and every regular file in every folder named.
  var files: [String] = []
  for path in arguments.dropFirst(2) {
    if path.hasPrefix("-") { continue }  // libFuzzer flags, accepted and ignored
    if let dir = opendir(path) {
      var names: [String] = []
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        if !name.hasPrefix(".") { names.append(name) }
      }
      closedir(dir)
      files += names.sorted().map { path + "/" + $0 }
    } else {
      files.append(path)
    }
  }
  if files.isEmpty {
    printError("mapsnap-fuzz: replay build (no libFuzzer): give the files or folders to run \(target.name) over; `make fuzz-build` builds the fuzzer\n")
    exit(2)
  }
  var counts: [FuzzOutcome: Int] = [:]
  for file in files {
    guard let bytes = FuzzTargets.read(file) else {
      printError("mapsnap-fuzz: cannot read \(file)\n")
      exit(2)
    }
    let start = clock_gettime_seconds()
    let outcome = target.run(bytes)
    counts[outcome, default: 0] += 1
    print("\(file): \(outcome.rawValue) in \(Int((clock_gettime_seconds() - start) * 1000)) ms")
  }
  print("\(target.name): \(files.count) inputs, \(counts[.accepted] ?? 0) accepted, \(counts[.rejected] ?? 0) rejected, no crash")

  func clock_gettime_seconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
#endif
