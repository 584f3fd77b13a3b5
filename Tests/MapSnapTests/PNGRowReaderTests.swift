import Dispatch
import Foundation
import MapSnap
import Testing
import _MapSnapTestSupport

#if canImport(Glibc)
  import Glibc
#endif

// MARK: - Fixtures

/// One image of Tests/Fixtures/png (scripts/make-png-fixtures.py): NAME.png
/// and NAME.rgba, the RGBA8 a decoder must return, computed by the script.
struct PNGFixture: Sendable, CustomTestStringConvertible {
  let name: String
  let colorType: UInt8
  let bitDepth: UInt8
  let hasTRNS: Bool
  let interlaced: Bool
  let width: Int
  let height: Int

  var testDescription: String { name }
  var pngPath: String { PNGFixture.directory + "/" + name + ".png" }
  var rgbaPath: String { PNGFixture.directory + "/" + name + ".rgba" }

  static let directory = Repository.root + "/Tests/Fixtures/png"

  private static let kinds: [(UInt8, String)] = [(0, "gray"), (4, "ga"), (2, "rgb"), (6, "rgba"), (3, "pal")]
  private static func kind(_ colorType: UInt8) -> String { kinds.first { $0.0 == colorType }!.1 }

  /// Every colour type and bit depth PNG allows, with tRNS where PNG allows
  /// it, plain and interlaced (13×7); then odd sizes (empty Adam7 passes,
  /// rows ending mid-byte). The same list the script writes.
  static let all: [PNGFixture] = {
    let table: [(UInt8, [UInt8], [Bool])] = [
      (0, [1, 2, 4, 8, 16], [false, true]),
      (4, [8, 16], [false]),
      (2, [8, 16], [false, true]),
      (6, [8, 16], [false]),
      (3, [1, 2, 4, 8], [false, true]),
    ]
    var fixtures: [PNGFixture] = []
    for (colorType, depths, trnsChoices) in table {
      for depth in depths {
        for trns in trnsChoices {
          for interlaced in [false, true] {
            let name = kind(colorType) + "\(depth)" + (trns ? "-trns" : "") + (interlaced ? "-i" : "")
            fixtures.append(PNGFixture(
              name: name, colorType: colorType, bitDepth: depth, hasTRNS: trns, interlaced: interlaced,
              width: 13, height: 7))
          }
        }
      }
    }
    for (width, height) in [(1, 1), (3, 2), (33, 5)] {
      for (colorType, depth) in [(UInt8(0), UInt8(1)), (3, 4), (6, 16)] {
        for interlaced in [false, true] {
          let name = kind(colorType) + "\(depth)-\(width)x\(height)" + (interlaced ? "-i" : "")
          fixtures.append(PNGFixture(
            name: name, colorType: colorType, bitDepth: depth, hasTRNS: false, interlaced: interlaced,
            width: width, height: height))
        }
      }
    }
    return fixtures
  }()
}

/// rows-stored.png: 8-bit RGB 13×7, row y alone in IDAT chunk y (a stored
/// deflate block), so cutting the file at chunk y loses exactly rows y...
private let rowsStored = PNGFixture.directory + "/rows-stored"

// MARK: - Helpers

private func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 << 8 | Int($1) } }

/// The chunks of a PNG: (type, offset of the length field, total size).
private func chunks(_ png: [UInt8]) -> [(type: String, offset: Int, size: Int)] {
  var result: [(String, Int, Int)] = []
  var offset = 8
  while offset + 12 <= png.count {
    let length = bigEndian(png[offset..<offset + 4])
    let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
    result.append((type, offset, length + 12))
    offset += length + 12
  }
  return result
}




/// A PNG whose IHDR declares `width`×`height` RGBA8 but whose data is a few bytes.
private func declaredOnly(width: UInt32, height: UInt32, interlaced: Bool) -> [UInt8] {
  PNG.signature + PNG.chunk("IHDR", PNG.bigEndian(width) + PNG.bigEndian(height) + [8, 6, 0, 0, interlaced ? 1 : 0])
    + PNG.chunk("IDAT", [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF]) + PNG.chunk("IEND", [])
}

/// Every row of `reader`, `rowsPerCall` at a time (the last call takes the rest).
private func readAll(_ reader: PNGRowReader, rowsPerCall: Int) throws(PNGError) -> [UInt8] {
  var pixels = [UInt8](repeating: 0xEE, count: reader.width * reader.height * 4)
  let rowBytes = reader.width * 4
  let result: Result<Void, PNGError> = pixels.withUnsafeMutableBytes { all in
    Result { () throws(PNGError) in
      while reader.remainingRows > 0 {
        let count = min(rowsPerCall, reader.remainingRows)
        let start = reader.rowsRead * rowBytes
        try reader.read(rows: count, into: UnsafeMutableRawBufferPointer(rebasing: all[start..<start + count * rowBytes]))
      }
    }
  }
  try result.get()
  return pixels
}

/// Nil if equal, else the first differing pixel (keeps failures short).
private func firstPixelMismatch(_ actual: [UInt8], _ expected: [UInt8], width: Int) -> String? {
  guard actual.count == expected.count else { return "byte count \(actual.count) != expected \(expected.count)" }
  guard let index = actual.indices.first(where: { actual[$0] != expected[$0] }) else { return nil }
  let pixel = index / 4
  return "pixel (\(pixel % width), \(pixel / width)): got \(Array(actual[pixel * 4..<pixel * 4 + 4]))"
    + ", expected \(Array(expected[pixel * 4..<pixel * 4 + 4]))"
}

/// The paths this process holds open (/proc/self/fd), to check that readers close their files.
private func openPaths() -> Set<String> {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return Set(names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) })
}

// MARK: - Tests

@Suite("PNG row reader")
struct PNGRowReaderTests {
  /// The script and this list agree: every fixture the list names exists and
  /// nothing else is in the folder (so no case is silently skipped).
  @Test func fixtureFolderHoldsExactlyTheListedImages() {
    var expected = Set(PNGFixture.all.flatMap { [$0.name + ".png", $0.name + ".rgba"] })
    expected.insert("rows-stored.png")
    expected.insert("rows-stored.rgba")
    #expect(Set(Files.list(PNGFixture.directory)) == expected)
    #expect(PNGFixture.all.count == 70)
  }

  /// For each colour type, bit depth, tRNS and interlacing: the fixture is
  /// what it claims (IHDR, tRNS), PNGDecoder returns the script's pixels, and
  /// the row reader returns the same bytes whether read 1, 3 or all rows at a time.
  @Test(arguments: PNGFixture.all)
  func rowsEqualTheDecodersPixels(_ fixture: PNGFixture) throws {
    let png = try Files.read(fixture.pngPath)
    let size = try #require(PNG.size(png))
    #expect(size.width == fixture.width && size.height == fixture.height)
    #expect(png[24] == fixture.bitDepth, "IHDR bit depth")
    #expect(png[25] == fixture.colorType, "IHDR colour type")
    #expect(png[28] == (fixture.interlaced ? 1 : 0), "IHDR interlace method")
    #expect(chunks(png).contains { $0.type == "tRNS" } == fixture.hasTRNS)

    let reference = try Files.read(fixture.rgbaPath)
    #expect(reference.count == fixture.width * fixture.height * 4)
    let decoded = try PNGDecoder.decode(contentsOf: fixture.pngPath)
    #expect(firstPixelMismatch(decoded.pixels, reference, width: fixture.width) == nil, "PNGDecoder against the script")

    for rowsPerCall in [1, 3, fixture.height] {
      let reader = try PNGRowReader(path: fixture.pngPath)
      #expect(reader.width == fixture.width && reader.height == fixture.height)
      #expect(reader.isInterlaced == fixture.interlaced)
      #expect(reader.sourceHasAlpha == decoded.sourceHasAlpha)
      let streamed = try readAll(reader, rowsPerCall: rowsPerCall)
      #expect(firstPixelMismatch(streamed, decoded.pixels, width: fixture.width) == nil, "\(rowsPerCall) rows per call")
      #expect(reader.rowsRead == fixture.height)
    }
    let reader = try PNGRowReader(path: fixture.pngPath)
    for y in 0..<fixture.height {
      let row = try reader.readRow()
      let start = y * fixture.width * 4
      #expect(row == Array(decoded.pixels[start..<start + fixture.width * 4]), "readRow \(y)")
    }
  }

  /// A larger image from mapsnap's own encoder (several IDAT chunks of 256 KiB
  /// zlib output, both RGB and RGBA), read 7 rows at a time.
  @Test(arguments: [false, true])
  func encoderOutputStreamsExactly(translucent: Bool) throws {
    let (width, height) = (701, 403)
    var pixels = [UInt32](repeating: 0, count: width * height)
    var random = SplitMix64(seed: translucent ? 2 : 1)
    for i in pixels.indices {
      let a: UInt32 = translucent ? UInt32(random.next() % 256) : 255
      let c = UInt32(truncatingIfNeeded: random.next())
      let (r, g, b) = (min(c & 0xFF, a), min(c >> 8 & 0xFF, a), min(c >> 16 & 0xFF, a))
      pixels[i] = (r | g << 8 | b << 16 | a << 24).littleEndian
    }
    let png = try pixels.withUnsafeBufferPointer { buffer throws(PNGError) in
      try PNGEncoder.encode(premultipliedRGBA: buffer, width: width, height: height, options: .fast)
    }
    #expect(png[25] == (translucent ? 6 : 2))
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let path = folder.path + "/big.png"
    try Files.write(png, to: path)
    let reader = try PNGRowReader(path: path)
    let streamed = try readAll(reader, rowsPerCall: 7)
    #expect(firstPixelMismatch(streamed, try PNGDecoder.decode(png).pixels, width: width) == nil)
  }

  /// Cut the file where IDAT chunk k starts, or inside it: rows 0..<k come
  /// out right, row k throws, rowsRead is k, and later reads throw the same.
  @Test func truncatedFileFailsAtTheFirstLostRow() throws {
    let png = try Files.read(rowsStored + ".png")
    let reference = try Files.read(rowsStored + ".rgba")
    let idats = chunks(png).filter { $0.type == "IDAT" }
    try #require(idats.count == 7)
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let rowBytes = 13 * 4

    for k in 0..<7 {
      // Chunk 0's header is read with the file header, so cut it inside its
      // data; size - 5 drops the last data byte (a chunk ends with a 4-byte CRC).
      for cut in (k == 0 ? [10, 20, idats[k].size - 5] : [0, 5, 10, 20, idats[k].size - 5]) {
        let length = idats[k].offset + cut
        let path = folder.path + "/cut-\(k)-\(cut).png"
        try Files.write(Array(png.prefix(length)), to: path)
        let reader = try PNGRowReader(path: path)
        for y in 0..<k {
          #expect(try reader.readRow() == Array(reference[y * rowBytes..<(y + 1) * rowBytes]), "row \(y) of \(k)")
        }
        let error = #expect(throws: PNGError.self, "cut at IDAT \(k) + \(cut)") { try reader.readRow() }
        guard case .decodingFailed(let message)? = error else {
          Issue.record("cut at IDAT \(k) + \(cut): expected decodingFailed, got \(String(describing: error))")
          continue
        }
        #expect(message.contains("truncated"), "\(message)")
        #expect(reader.rowsRead == k, "cut at IDAT \(k) + \(cut)")
        #expect(throws: PNGError.decodingFailed(message)) { try reader.readRow() }
        #expect(reader.rowsRead == k)
      }
    }

    // Cut after the last row's data, before IEND: every row decodes, but the
    // read of the last row checks the end of the file and throws.
    let iend = chunks(png).last!
    #expect(iend.type == "IEND")
    let path = folder.path + "/no-iend.png"
    try Files.write(Array(png.prefix(iend.offset)), to: path)
    let reader = try PNGRowReader(path: path)
    var rows = [UInt8](repeating: 0, count: 7 * rowBytes)
    try rows.withUnsafeMutableBytes { buffer in
      try reader.read(rows: 6, into: buffer)
    }
    #expect(throws: PNGError.self) { try reader.readRow() }
    #expect(reader.rowsRead == 7)
    // The whole-image decoder refuses the same file.
    #expect(throws: PNGError.self) { try PNGDecoder.decode(contentsOf: path) }
  }

  /// Every prefix of a file, plain or interlaced, fails (never crashes, never
  /// passes as a whole image): notAPNG below 8 bytes, decodingFailed after.
  @Test(arguments: ["rgba8", "rgba8-i", "pal2-trns", "gray16-trns-i"])
  func everyTruncationIsAnError(name: String) throws {
    let png = try Files.read(PNGFixture.directory + "/" + name + ".png")
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let path = folder.path + "/cut.png"
    for length in 0..<png.count {
      try Files.write(Array(png.prefix(length)), to: path)
      do {
        let reader = try PNGRowReader(path: path)
        _ = try readAll(reader, rowsPerCall: 2)
        Issue.record("read every row of \(name) cut to \(length) of \(png.count) bytes")
      } catch {
        if length < 8 {
          #expect(error == .notAPNG, "\(length)")
        } else if case .decodingFailed = error {
        } else {
          Issue.record("\(name) cut to \(length): unexpected \(error)")
        }
      }
    }
  }

  @Test func corruptImageDataIsAnError() throws {
    var png = try Files.read(PNGFixture.directory + "/rgb8.png")
    let idat = chunks(png).first { $0.type == "IDAT" }!
    png[idat.offset + 8 + 3] ^= 0x5A
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    try Files.write(png, to: folder.path + "/bad.png")
    let reader = try PNGRowReader(path: folder.path + "/bad.png")
    let error = #expect(throws: PNGError.self) { _ = try readAll(reader, rowsPerCall: 1) }
    guard case .decodingFailed(let message)? = error else {
      Issue.record("expected decodingFailed, got \(String(describing: error))")
      return
    }
    #expect(message.hasPrefix("libpng: "), "\(message)")
    #expect(reader.rowsRead < 7)
    #expect(throws: PNGError.self) { try PNGDecoder.decode(contentsOf: folder.path + "/bad.png") }
  }

  @Test func filesThatAreNotPNGsAreRefused() throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let cases: [(String, [UInt8])] = [
      ("empty", []), ("short", [0x89, 0x50, 0x4E]), ("text", Array("not a PNG, just text\n".utf8)),
      ("jpeg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0]),
    ]
    for (name, bytes) in cases {
      try Files.write(bytes, to: folder.path + "/" + name)
      #expect(throws: PNGError.notAPNG, "\(name)") { try PNGRowReader(path: folder.path + "/" + name) }
    }
    let signatureThenGarbage = folder.path + "/garbage.png"
    try Files.write(PNG.signature + Array("garbage garbage garbage".utf8), to: signatureThenGarbage)
    let error = #expect(throws: PNGError.self) { try PNGRowReader(path: signatureThenGarbage) }
    if case .decodingFailed? = error {} else { Issue.record("expected decodingFailed, got \(String(describing: error))") }
  }

  /// A FIFO is refused at once. Were it opened blocking, the open would wait
  /// for a writer: a helper opens one after 3 s so the test then fails
  /// (slow, and with end-of-file's error) instead of hanging.
  @Test func fifoIsRefusedWithoutBlocking() throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let fifo = folder.path + "/image.png"
    try #require(mkfifo(fifo, 0o600) == 0)
    let finished = DispatchSemaphore(value: 0)
    let rescued = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      if finished.wait(timeout: .now() + 3) == .timedOut {
        let fd = open(fifo, O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
      }
      rescued.signal()
    }
    let start = DispatchTime.now()
    let error = #expect(throws: PNGError.self) { try PNGRowReader(path: fifo) }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    finished.signal()
    rescued.wait()
    #expect(error == .fileReadFailed(path: fifo, reason: "not a regular file"))
    #expect(seconds < 2, "opening a FIFO took \(seconds) s")
  }

  @Test func devicesFoldersAndMissingFilesAreRefused() throws {
    // /dev/zero would read as zeros (notAPNG) were it read at all.
    #expect(throws: PNGError.fileReadFailed(path: "/dev/zero", reason: "not a regular file")) {
      try PNGRowReader(path: "/dev/zero")
    }
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    #expect(throws: PNGError.fileReadFailed(path: folder.path, reason: "is a directory")) {
      try PNGRowReader(path: folder.path)
    }
    let missing = folder.path + "/missing.png"
    #expect(throws: PNGError.fileNotFound(path: missing)) { try PNGRowReader(path: missing) }
  }

  /// The limit is on width × height, plain or interlaced, exactly at the boundary.
  @Test(arguments: ["rgba8", "rgba8-i"])
  func maximumPixelsIsTheLimit(name: String) throws {
    let path = PNGFixture.directory + "/" + name + ".png"
    #expect(throws: PNGError.imageTooLarge(width: 13, height: 7, limit: 13 * 7 - 1)) {
      try PNGRowReader(path: path, maximumPixels: 13 * 7 - 1)
    }
    let reader = try PNGRowReader(path: path, maximumPixels: 13 * 7)
    #expect(try readAll(reader, rowsPerCall: 7) == (try Files.read(PNGFixture.directory + "/" + name + ".rgba")))
  }

  /// Declared sizes are refused from the header. Without the check, the
  /// interlaced 16385² image would be allocated (1 GiB, lazily) and then fail
  /// to decode (decodingFailed), and a 2³¹−1 wide image would have libpng
  /// allocate rows of 8 GiB: both must be imageTooLarge.
  @Test func hugeDeclaredSizesAreRefusedBeforeAllocating() throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    for interlaced in [false, true] {
      let path = folder.path + "/huge-\(interlaced).png"
      try Files.write(declaredOnly(width: 16385, height: 16385, interlaced: interlaced), to: path)
      #expect(throws: PNGError.imageTooLarge(width: 16385, height: 16385, limit: 1 << 28)) { try PNGRowReader(path: path) }
      let widest = folder.path + "/widest-\(interlaced).png"
      try Files.write(declaredOnly(width: 0x7FFF_FFFF, height: 1, interlaced: interlaced), to: widest)
      #expect(throws: PNGError.imageTooLarge(width: 0x7FFF_FFFF, height: 1, limit: 1 << 28)) { try PNGRowReader(path: widest) }
    }
    // Just under the default limit, a non-interlaced header opens (nothing
    // is allocated but a row) and fails only when its rows are read.
    let path = folder.path + "/big-ok.png"
    try Files.write(declaredOnly(width: 16384, height: 16384, interlaced: false), to: path)
    let reader = try PNGRowReader(path: path)
    #expect(reader.width == 16384 && reader.height == 16384 && !reader.isInterlaced)
    #expect(throws: PNGError.self) { _ = try reader.readRow() }
  }

  /// Asking for more rows than are left throws before reading anything.
  @Test(arguments: ["rgb8", "rgb8-i"])
  func readingPastTheLastRowIsAnError(name: String) throws {
    let reader = try PNGRowReader(path: PNGFixture.directory + "/" + name + ".png")
    var buffer = [UInt8](repeating: 0, count: 8 * 13 * 4)
    _ = buffer.withUnsafeMutableBytes { raw in
      #expect(throws: PNGError.rowsExhausted(requested: 8, remaining: 7)) { try reader.read(rows: 8, into: raw) }
    }
    #expect(reader.rowsRead == 0)
    try buffer.withUnsafeMutableBytes { raw in
      try reader.read(rows: 0, into: raw)
      try reader.read(rows: 5, into: raw)
    }
    #expect(reader.rowsRead == 5)
    _ = buffer.withUnsafeMutableBytes { raw in
      #expect(throws: PNGError.rowsExhausted(requested: 3, remaining: 2)) { try reader.read(rows: 3, into: raw) }
    }
    _ = try reader.readRow()
    _ = try reader.readRow()
    #expect(reader.rowsRead == 7)
    #expect(throws: PNGError.rowsExhausted(requested: 1, remaining: 0)) { try reader.readRow() }
    #expect(PNGError.rowsExhausted(requested: 1, remaining: 0).description.contains("at most 0 rows"))
  }

  @Test func aShortBufferIsRefusedBeforeReading() throws {
    let reader = try PNGRowReader(path: PNGFixture.directory + "/rgba8.png")
    var buffer = [UInt8](repeating: 0, count: 2 * 13 * 4 - 1)
    _ = buffer.withUnsafeMutableBytes { raw in
      #expect(throws: PNGError.pixelBufferTooSmall(required: 26, actual: 25)) { try reader.read(rows: 2, into: raw) }
    }
    #expect(reader.rowsRead == 0)
    #expect(try reader.readRow().count == 13 * 4)
  }

  /// The file is closed after the last row, after a failure, when a reader
  /// is released early, when opening fails, and at once for interlaced files.
  @Test func filesAreClosed() throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let plain = folder.path + "/plain.png"
    let interlaced = folder.path + "/interlaced.png"
    let cut = folder.path + "/cut.png"
    let notPNG = folder.path + "/not.png"
    try Files.write(try Files.read(PNGFixture.directory + "/rgba16.png"), to: plain)
    try Files.write(try Files.read(PNGFixture.directory + "/rgba16-i.png"), to: interlaced)
    try Files.write(Array(try Files.read(rowsStored + ".png").dropLast(200)), to: cut)
    try Files.write(Array("text".utf8), to: notPNG)

    do {
      let reader = try PNGRowReader(path: plain)
      #expect(openPaths().contains(plain), "open while rows are left")
      _ = try reader.readRow()
      #expect(openPaths().contains(plain))
      _ = try readAll(reader, rowsPerCall: 6)
      #expect(!openPaths().contains(plain), "closed after the last row")
    }
    do {
      let reader = try PNGRowReader(path: plain)
      _ = try reader.readRow()
      #expect(openPaths().contains(plain))
    }
    #expect(!openPaths().contains(plain), "closed when released early")
    do {
      let reader = try PNGRowReader(path: interlaced)
      #expect(!openPaths().contains(interlaced), "interlaced files are read whole and closed")
      _ = try reader.readRow()
    }
    do {
      let reader = try PNGRowReader(path: cut)
      #expect(throws: PNGError.self) { _ = try readAll(reader, rowsPerCall: 1) }
      #expect(!openPaths().contains(cut), "closed after a failure")
    }
    #expect(throws: PNGError.notAPNG) { try PNGRowReader(path: notPNG) }
    #expect(!openPaths().contains(notPNG), "closed when opening fails")
  }
}
