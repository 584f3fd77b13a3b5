/// What `mapsnap test` writes about a run: a self-contained HTML page for
/// people (every failing image's expected, actual and diff side by side, a
/// slider and a toggle to compare them, the report's changes, the numbers)
/// and JUnit XML for CI systems.
public struct CaseReport {
  public var outcomes: [CaseOutcome]
  /// Cases that could not be read (an invalid `golden.json`).
  public var problems: [CaseLoader.Problem]
  /// Folders that are not cases and obsolete expected files.
  public var notices: [CaseLoader.Notice]
  public var seconds: Double
  /// The style cases by group and kind, shown before the failures (nil: not shown).
  public var table: ConformanceTable?

  public init(outcomes: [CaseOutcome], problems: [CaseLoader.Problem], notices: [CaseLoader.Notice] = [], seconds: Double) {
    self.outcomes = outcomes
    self.problems = problems
    self.notices = notices
    self.seconds = seconds
  }

  public var passed: Int { outcomes.filter(\.passed).count }
  public var failed: Int { outcomes.filter { if case .failed = $0.status { return true } else if case .recorded = $0.status { return true } else { return false } }.count }
  public var errors: Int { outcomes.filter { if case .error = $0.status { return true } else { return false } }.count + problems.count }

  /// JUnit XML: one `testsuite`, one `testcase` per image (class name the
  /// case, name the image), with `failure` or `error` and the message.
  public var junit: String {
    var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    x += "<testsuites name=\"mapsnap test\" tests=\"\(outcomes.count + problems.count)\" failures=\"\(failed)\" errors=\"\(errors)\" time=\"\(Self.seconds(seconds))\">\n"
    x += "  <testsuite name=\"mapsnap\" tests=\"\(outcomes.count + problems.count)\" failures=\"\(failed)\" errors=\"\(errors)\" time=\"\(Self.seconds(seconds))\">\n"
    for o in outcomes {
      x += "    <testcase classname=\"\(Self.xml(o.caseName))\" name=\"\(Self.xml(o.stem))\" time=\"\(Self.seconds(o.seconds))\""
      switch o.status {
      case .passed:
        x += "/>\n"
      case .failed(let m), .recorded(let m):
        var body = m
        if !o.warnings.isEmpty { body += "\n" + o.warnings.map { "warning: " + $0 }.joined(separator: "\n") }
        if !o.reportChanges.isEmpty { body += "\n" + o.reportChanges.joined(separator: "\n") }
        if let a = o.actualPath { body += "\nactual: \(a)" }
        if let d = o.diffPath { body += "\ndiff: \(d)" }
        x += ">\n      <failure message=\"\(Self.xml(m))\">\(Self.xml(body))</failure>\n    </testcase>\n"
      case .error(let m):
        x += ">\n      <error message=\"\(Self.xml(m))\">\(Self.xml(m))</error>\n    </testcase>\n"
      }
    }
    for p in problems {
      x += "    <testcase classname=\"\(Self.xml(p.caseName))\" name=\"golden.json\" time=\"0\">\n"
      x += "      <error message=\"\(Self.xml(p.error.description))\">\(Self.xml(p.error.description))</error>\n    </testcase>\n"
    }
    x += "  </testsuite>\n</testsuites>\n"
    return x
  }

  /// The HTML page. Images of failing cases are embedded (data URLs), so the
  /// file stands alone as a CI artifact.
  public var html: String {
    var h = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>mapsnap test: \(passed) passed, \(failed) failed, \(errors) errors</title>
      <style>
      body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
      h1{font-size:1.3em} .pass{color:#1a7f37} .fail{color:#cf222e} .err{color:#9a6700}
      table{border-collapse:collapse} td,th{padding:2px 10px;text-align:left;border-bottom:1px solid #eee}
      .case{border:1px solid #ddd;border-radius:6px;padding:1em;margin:1.5em 0}
      .images{display:flex;gap:12px;flex-wrap:wrap;align-items:flex-start}
      .images figure{margin:0} .images img{display:block;max-width:420px;border:1px solid #ccc;image-rendering:pixelated}
      .compare{position:relative;display:inline-block;border:1px solid #ccc}
      .compare img{display:block;max-width:640px;image-rendering:pixelated}
      .compare .top{position:absolute;left:0;top:0;clip-path:inset(0 50% 0 0)}
      .controls{margin:.5em 0} .controls button{margin-right:4px}
      pre{background:#f6f8fa;padding:.5em;white-space:pre-wrap}
      </style></head><body>
      <h1>mapsnap test: <span class="pass">\(passed) passed</span>, <span class="fail">\(failed) failed</span>, <span class="err">\(errors) errors</span> in \(Self.seconds(seconds)) s</h1>

      """
    if let table { h += table.html }
    for p in problems {
      h += "<div class=\"case\"><h2 class=\"err\">\(Self.xml(p.caseName)): cannot run</h2><pre>\(Self.xml(p.error.description))</pre></div>\n"
    }
    if !notices.isEmpty {
      h += "<h2 class=\"err\">Warnings</h2><pre>\(Self.xml(notices.map(\.description).joined(separator: "\n")))</pre>\n"
    }
    var embedded = 0
    for (i, o) in outcomes.enumerated() where !o.passed {
      h += "<div class=\"case\" id=\"case-\(i)\"><h2 class=\"\(o.status == .passed ? "pass" : "fail")\">\(Self.xml(o.id))</h2>\n"
      h += "<p>\(Self.xml(o.message ?? ""))"
      if let c = o.counts { h += " — \(c.differing) differing, \(c.antialiased) anti-aliased pixels of \(o.width)×\(o.height)" }
      h += "</p>\n"
      // Images are embedded (each once) for the first `maximumEmbedded`
      // failing images; later ones link to their artifact files.
      let embed = embedded < Self.maximumEmbedded
      if embed { embedded += 1 }
      func source(_ path: String?) -> String? {
        guard let path else { return nil }
        return embed ? Self.dataURL(path) : Self.xml(path)
      }
      let expected = source(o.expectedPath)
      let actual = source(o.actualPath)
      let diff = source(o.diffPath)
      if expected != nil, actual != nil {
        // The compare view takes its pictures from the figures below (script):
        // the actual image on top, shown left of the slider, over the expected one.
        h += """
          <div class="controls">Compare: <input type="range" min="0" max="100" value="50" class="slider" aria-label="actual (left) | expected (right)">
          <button data-show="expected">expected</button><button data-show="actual">actual</button>\(diff != nil ? "<button data-show=\"diff\">diff</button>" : "")
          <span class="showing">actual left, expected right</span></div>
          <div class="compare"><img class="bottom" alt="expected (compare)"><img class="top" alt="actual (compare)"></div>

          """
      }
      h += "<div class=\"images\">"
      for (name, url) in [("expected", expected), ("actual", actual), ("diff", diff)] {
        if let url { h += "<figure><figcaption>\(name)</figcaption><img alt=\"\(name)\" class=\"\(name)\" src=\"\(url)\"></figure>" }
      }
      h += "</div>\n"
      if !o.warnings.isEmpty { h += "<h3>Warnings</h3><pre>\(Self.xml(o.warnings.joined(separator: "\n")))</pre>\n" }
      if !o.reportChanges.isEmpty { h += "<h3>Report changes</h3><pre>\(Self.xml(o.reportChanges.joined(separator: "\n")))</pre>\n" }
      h += "</div>\n"
    }
    h += "<h2>All images</h2><table><tr><th>image</th><th>result</th><th>differing px</th><th>ms</th></tr>\n"
    for o in outcomes {
      let cls = o.passed ? "pass" : (o.status == .error(o.message ?? "") ? "err" : "fail")
      h += "<tr><td>\(Self.xml(o.id))</td><td class=\"\(cls)\">\(o.passed ? "passed" : Self.xml(o.message ?? ""))</td>"
      h += "<td>\(o.counts.map { String($0.differing) } ?? "")</td><td>\(Int((o.seconds * 1000).rounded()))</td></tr>\n"
    }
    h += """
      </table>
      <script>
      for (const box of document.querySelectorAll('.case')) {
        const slider = box.querySelector('.slider'), top = box.querySelector('.compare .top'),
              bottom = box.querySelector('.compare .bottom'), label = box.querySelector('.showing');
        if (!slider) continue;
        const pick = name => (box.querySelector('.images img.' + name) || {}).src;
        const sources = {expected: pick('expected'), actual: pick('actual'), diff: pick('diff')};
        bottom.src = sources.expected; top.src = sources.actual;
        const expectedSrc = sources.expected;
        slider.addEventListener('input', () => {
          bottom.src = expectedSrc; top.style.display = '';
          top.style.clipPath = 'inset(0 ' + (100 - slider.value) + '% 0 0)';
          label.textContent = 'actual left, expected right (' + slider.value + '% actual)';
        });
        for (const b of box.querySelectorAll('button')) b.addEventListener('click', () => {
          bottom.src = sources[b.dataset.show]; top.style.display = 'none';
          label.textContent = 'showing ' + b.dataset.show;
        });
      }
      </script>
      </body></html>

      """
    return h
  }

  /// Failing images whose pictures are embedded in the HTML; the rest link
  /// to their artifacts, so a run where everything fails stays small.
  static let maximumEmbedded = 50

  static func seconds(_ s: Double) -> String { String((s * 1000).rounded() / 1000) }

  /// Text escaped for XML and HTML (`& < > " '`).
  static func xml(_ s: String) -> String {
    var out = ""
    for c in s.unicodeScalars {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default:
        // Control characters other than tab and line breaks are not allowed in XML 1.0.
        if (c.value < 0x20 && c != "\t" && c != "\n" && c != "\r") || c.value == 0xFFFE || c.value == 0xFFFF {
          out += "?"
        } else {
          out.unicodeScalars.append(c)
        }
      }
    }
    return out
  }

  /// A PNG file as a `data:` URL, or nil when it cannot be read.
  static func dataURL(_ path: String) -> String? {
    guard let bytes = try? FileIO.read(path, maximumBytes: 64 << 20) else { return nil }
    return "data:image/png;base64," + base64(bytes)
  }

  /// RFC 4648 base64 with padding.
  static func base64(_ bytes: [UInt8]) -> String {
    let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var i = 0
    while i + 2 < bytes.count {
      let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
      out += [table[Int(n >> 18)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], table[Int(n & 63)]]
      i += 3
    }
    if i < bytes.count {
      let rest = bytes.count - i
      let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
      out += [table[Int(n >> 18)], table[Int(n >> 12 & 63)]]
      out += rest == 2 ? [table[Int(n >> 6 & 63)], UInt8(ascii: "=")] : [UInt8(ascii: "="), UInt8(ascii: "=")]
    }
    return String(decoding: out, as: UTF8.self)
  }
}
