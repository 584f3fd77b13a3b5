

/// String comparison under a `collator`: ICU's collation for the locale
/// when ICU is there; otherwise case folded unless case-sensitive, Latin
/// diacritics removed unless diacritic-sensitive, then by code unit.
enum CollatorRules {
  static func compare(_ a: String, _ b: String, _ c: StyleCollator) -> Int {
    if let order = ICUCollation.compare(a, b, c) { return order }
    let x = fold(a, c), y = fold(b, c)
    if x == y { return 0 }
    return x.utf16.lexicographicallyPrecedes(y.utf16) ? -1 : 1
  }

  static func fold(_ s: String, _ c: StyleCollator) -> String {
    var t = c.caseSensitive ? s : s.lowercased()
    if !c.diacriticSensitive {
      var out = String.UnicodeScalarView()
      for scalar in t.decomposedLatin.unicodeScalars where !(0x300...0x36F).contains(scalar.value) {
        out.append(scalar)
      }
      t = String(out)
    }
    return t
  }

  /// The locale a collator resolves to: the requested one, or `en`.
  static func resolvedLocale(_ c: StyleCollator) -> String {
    c.locale ?? "en"
  }
}

extension String {
  /// Latin letters with diacritics split into the base letter and a combining mark.
  var decomposedLatin: String {
    var out = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      if let base = LatinDiacritics.base[scalar.value] {
        out.append(Unicode.Scalar(base)!)
        out.append(Unicode.Scalar(0x301)!)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }
}
