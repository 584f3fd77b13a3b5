import MapSnap

/// `case`: a `mapsnap test` case folder's `golden.json`, read by
/// `CaseLoader.load` (scales × pixel ratios × floors, variants in batch-line
/// form, tolerance). The case's scene is not loaded.
public enum CaseFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("case")
    defer { folder.remove() }
    folder.write(data, to: "fuzz-case/golden.json")
    let (cases, problems) = CaseLoader(root: folder.path).load()
    for p in problems { _ = p.description }
    for c in cases { _ = c.stem }
    return problems.isEmpty ? .accepted : .rejected
  }
}
