

/// `number-format` as the `en` locale writes numbers: digits grouped by
/// three with `,`, `.` before the fraction, currencies with their symbol and
/// customary fraction digits, units in their short form. Other locales are
/// written the same way.
enum NumberFormatRules {
  struct Options {
    var locale: String?
    var currency: String?
    var unit: String?
    var minFraction: Int?
    var maxFraction: Int?
  }

  /// Currencies written with a symbol; the rest are written with their code.
  private static let currencySymbols: [String: String] = [
    "USD": "$", "EUR": "€", "JPY": "¥", "GBP": "£", "CNY": "CN¥", "INR": "₹", "KRW": "₩", "CAD": "CA$", "AUD": "A$",
  ]
  /// ISO 4217 currencies without minor units (fraction digits 0); the rest have 2.
  private static let wholeCurrencies: Set<String> = ["JPY", "KRW", "VND", "CLP", "ISK", "UGX", "XAF", "XOF", "PYG"]
  /// Units as the short form writes them: a suffix, and whether a space precedes it.
  private static let units: [String: (String, Bool)] = [
    "meter": ("m", true), "kilometer": ("km", true), "centimeter": ("cm", true), "millimeter": ("mm", true),
    "mile": ("mi", true), "foot": ("ft", true), "inch": ("in", true), "yard": ("yd", true),
    "celsius": ("°C", false), "fahrenheit": ("°F", false), "degree": ("deg", true), "percent": ("%", false),
    "kilobyte": ("kB", true), "megabyte": ("MB", true), "gigabyte": ("GB", true), "byte": ("byte", true),
    "kilogram": ("kg", true), "gram": ("g", true), "second": ("sec", true), "minute": ("min", true), "hour": ("hr", true),
    "kilometer-per-hour": ("km/h", true), "mile-per-hour": ("mph", true), "liter": ("L", true),
  ]

  static func format(_ value: Double, _ options: Options) -> String {
    let currency = options.currency?.uppercased()
    let defaultFraction = currency.map { wholeCurrencies.contains($0) ? 0 : 2 }
    var minFraction = options.minFraction ?? defaultFraction ?? 0
    var maxFraction = options.maxFraction ?? max(minFraction, defaultFraction ?? 3)
    minFraction = max(0, min(minFraction, 100))
    maxFraction = max(minFraction, min(maxFraction, 100))
    let body = decimal(abs(value), minFraction: minFraction, maxFraction: maxFraction)
    let sign = value < 0 ? "-" : ""
    if let currency {
      if let symbol = currencySymbols[currency] { return sign + symbol + body }
      return sign + currency + "\u{00A0}" + body
    }
    if let unit = options.unit {
      let (suffix, spaced) = units[unit] ?? (unit, true)
      return sign + body + (spaced ? " " : "") + suffix
    }
    return sign + body
  }

  /// `value` (not negative) rounded half away from zero to at most
  /// `maxFraction` digits, padded to `minFraction`, the integer part grouped.
  static func decimal(_ value: Double, minFraction: Int, maxFraction: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : "∞" }
    // The shortest decimal digits that read back as `value`, as integer and fraction digits.
    var text = StyleValue.javaScriptString(value)
    if text.contains("e") { text = expand(text) }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    var intDigits = Array(parts[0]).map { Int(String($0))! }
    var fracDigits = parts.count > 1 ? Array(parts[1]).map { Int(String($0))! } : []
    if fracDigits.count > maxFraction {
      let roundUp = fracDigits[maxFraction] >= 5
      fracDigits = Array(fracDigits.prefix(maxFraction))
      if roundUp {
        var carry = 1
        for i in stride(from: fracDigits.count - 1, through: 0, by: -1) where carry == 1 {
          fracDigits[i] += 1
          if fracDigits[i] == 10 { fracDigits[i] = 0 } else { carry = 0 }
        }
        for i in stride(from: intDigits.count - 1, through: 0, by: -1) where carry == 1 {
          intDigits[i] += 1
          if intDigits[i] == 10 { intDigits[i] = 0 } else { carry = 0 }
        }
        if carry == 1 { intDigits.insert(1, at: 0) }
      }
    }
    while fracDigits.count > minFraction, fracDigits.last == 0 { fracDigits.removeLast() }
    while fracDigits.count < minFraction { fracDigits.append(0) }
    var grouped = ""
    for (i, d) in intDigits.enumerated() {
      if i > 0, (intDigits.count - i) % 3 == 0 { grouped += "," }
      grouped += String(d)
    }
    return fracDigits.isEmpty ? grouped : grouped + "." + fracDigits.map(String.init).joined()
  }

  /// `1.5e-7` written out as `0.00000015`.
  private static func expand(_ text: String) -> String {
    let parts = text.split(separator: "e")
    let mantissa = parts[0].split(separator: ".")
    let digits = String(mantissa[0]) + (mantissa.count > 1 ? String(mantissa[1]) : "")
    let exponent = Int(parts[1].replacingOccurrences("+", "")) ?? 0
    let point = mantissa[0].count + exponent
    if point <= 0 { return "0." + String(repeating: "0", count: -point) + digits }
    if point >= digits.count { return digits + String(repeating: "0", count: point - digits.count) }
    let i = digits.index(digits.startIndex, offsetBy: point)
    return String(digits[..<i]) + "." + String(digits[i...])
  }
}

extension StringProtocol {
  func replacingOccurrences(_ a: Character, _ b: String) -> String {
    var out = ""
    for c in self { if c == a { out += b } else { out.append(c) } }
    return out
  }
}
