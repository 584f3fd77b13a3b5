/// The number of single-character insertions, deletions, substitutions and
/// transpositions of two adjacent characters that turn `a` into `b`, ignoring
/// case ("Damerau–Levenshtein" in its optimal-string-alignment form: a
/// transposed pair is not edited again, so `"ca"` → `"abc"` is 3, not 2).
/// Characters are Unicode scalars of the lowercased strings.
package func editDistance(_ a: String, _ b: String) -> Int {
  let s = Array(a.lowercased().unicodeScalars)
  let t = Array(b.lowercased().unicodeScalars)
  if s.isEmpty { return t.count }
  if t.isEmpty { return s.count }
  let width = t.count + 1
  // Three rows: i-2, i-1, i.
  var twoBack = [Int](repeating: 0, count: width)
  var previous = Array(0...t.count)
  var current = [Int](repeating: 0, count: width)
  for i in 1...s.count {
    current[0] = i
    for j in 1...t.count {
      let cost = s[i - 1] == t[j - 1] ? 0 : 1
      var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1 && j > 1 && s[i - 1] == t[j - 2] && s[i - 2] == t[j - 1] {
        best = min(best, twoBack[j - 2] + 1)
      }
      current[j] = best
    }
    swap(&twoBack, &previous)
    swap(&previous, &current)
  }
  return previous[t.count]
}

/// The candidate closest to `text` by `editDistance`, for "did you mean"
/// hints, or nil when none is within `maxDistance`.
///
/// A candidate qualifies only when its distance is at most `maxDistance` and
/// smaller than its own length (so a one- or two-letter candidate is not
/// offered for unrelated short text). Ties go to the earlier candidate. A
/// candidate equal to `text` apart from case has distance 0 and is returned.
package func closestMatch(to text: String, in candidates: [String], maxDistance: Int = 2) -> String? {
  var best: String? = nil
  var bestDistance = Int.max
  let length = text.lowercased().unicodeScalars.count
  for candidate in candidates {
    let candidateLength = candidate.lowercased().unicodeScalars.count
    // The length difference is a lower bound on the distance.
    if abs(candidateLength - length) > min(maxDistance, bestDistance - 1) { continue }
    let d = editDistance(text, candidate)
    if d <= maxDistance && d < candidateLength && d < bestDistance {
      best = candidate
      bestDistance = d
      if d == 0 { break }
    }
  }
  return best
}
