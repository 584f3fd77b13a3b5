import MapSnap

// Accessors for reading reports and other `JSONValue`s in tests: each returns
// nil when the value is absent or of another type, so checks chain without
// unwrapping (`number(member(member(report, "features"), "drawn"))`).

/// A member of a JSON object, or nil.
public func member(_ v: JSONValue?, _ key: String) -> JSONValue? {
  guard case .object(let o)? = v else { return nil }
  return o[key]
}

/// A JSON number, or nil.
public func number(_ v: JSONValue?) -> Double? {
  if case .number(let n)? = v { return n }
  return nil
}

/// A JSON array of numbers; nil unless every element is a number.
public func numbers(_ v: JSONValue?) -> [Double]? {
  guard case .array(let a)? = v else { return nil }
  let n = a.compactMap { if case .number(let n) = $0 { return n } else { return nil } }
  return n.count == a.count ? n : nil
}

/// A JSON array of strings; nil unless every element is a string.
public func strings(_ v: JSONValue?) -> [String]? {
  guard case .array(let a)? = v else { return nil }
  let s = a.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
  return s.count == a.count ? s : nil
}
