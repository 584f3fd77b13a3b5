import Foundation
import Testing
import _MapSnapTestSupport

/// A scene on standard input, and where output may go: `.png` files (also
/// through a symbolic link), `-`, FIFOs and devices; anything else is a
/// usage error naming the format.
@Suite("scene from standard input, output paths (built binary)")
struct StreamsCommandTests {
  @Test("mapsnap - -o out.png: the scene from stdin, its paths against the working directory")
  func sceneFromStandardInput() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let scene = try Files.read(dir + "/scene.json")
      let r = try CLI.run(["-", "-o", "stdin.png"], in: dir, stdin: scene)
      #expect(r.status == 0, "\(r)")
      let a = try CLI.run(["scene.json", "-o", "file.png"], in: dir)
      #expect(a.status == 0, "\(a)")
      #expect(try Files.read(dir + "/stdin.png") == (try Files.read(dir + "/file.png")), "the same picture either way")
      let noOutput = try CLI.run(["-"], in: dir, stdin: scene)
      #expect(noOutput.status == 64, "\(noOutput)")
      #expect(noOutput.stderr.contains("needs -o"), "\(noOutput.stderr)")
    }
  }

  @Test("-o must end in .png; a symlink is written through; /dev/null is written as it is")
  func outputPaths() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let jpg = try CLI.run(["scene.json", "-o", "x.jpg"], in: dir)
      #expect(jpg.status == 64, "\(jpg)")
      #expect(jpg.stderr.contains("PNG only"), "\(jpg.stderr)")
      #expect(!Files.exists(dir + "/x.jpg"))
      try Files.write("old", to: dir + "/real.png")
      try FileManager.default.createSymbolicLink(atPath: dir + "/link.png", withDestinationPath: "real.png")
      let linked = try CLI.run(["scene.json", "-o", "link.png"], in: dir)
      #expect(linked.status == 0, "\(linked)")
      let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/link.png")
      #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "the link stays a link")
      #expect(try Files.read(dir + "/real.png").starts(with: [0x89, 0x50, 0x4E, 0x47]), "its target holds the PNG")
      let device = try CLI.run(["scene.json", "-o", "/dev/null"], in: dir)
      #expect(device.status == 0, "\(device)")
      let null = try FileManager.default.attributesOfItem(atPath: "/dev/null")
      #expect(null[.type] as? FileAttributeType == .typeCharacterSpecial, "/dev/null is still a device")
    }
  }
}
