/// A number for people: integers without a fraction, others to `digits` places.
func number(_ x: Double, digits: Int = 0) -> String {
  if x == x.rounded() && abs(x) < 1e15 { return format(x) }
  var p = 1.0
  for _ in 0..<max(digits, 2) { p *= 10 }
  let r = (x * p).rounded() / p
  return String(r)
}

/// `U+4E2D` style name of a code point.
func codePointName(_ s: Unicode.Scalar) -> String {
  let hex = String(s.value, radix: 16, uppercase: true)
  return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
