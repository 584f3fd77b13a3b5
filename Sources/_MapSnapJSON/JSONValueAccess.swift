extension JSONValue {
  /// The member `key` of an object; nil for a missing key or a value that is
  /// not an object. Lets a caller walk a report: `report["layers"]?[0]?["id"]`.
  public subscript(key: String) -> JSONValue? {
    if case .object(let o) = self { return o[key] }
    return nil
  }

  /// The element at `index` of an array; nil when out of range or not an array.
  public subscript(index: Int) -> JSONValue? {
    if case .array(let a) = self, a.indices.contains(index) { return a[index] }
    return nil
  }
}
