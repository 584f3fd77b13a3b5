/// A JSON object that keeps its members in insertion (document) order.
///
/// Lookup by key is a linear scan for objects of at most
/// `JSONObject.linearSearchLimit` members (building a hash table for the
/// millions of two- or three-member objects in a GeoJSON file costs more
/// than it saves) and a hash-table lookup above that; the table is built
/// when the object is created or grows past the limit.
///
/// Keys are unique. When `init(_:)` is given the same key twice, the object
/// keeps the key at its first position with the *last* value, and records the
/// key in `duplicateKeys` so callers can treat it as an input error
/// (`JSONParser` reports a duplicate key as a syntax error).
///
/// Two objects are equal when they have the same members in the same order;
/// `duplicateKeys` does not take part in equality.
public struct JSONObject: Sendable, Equatable {
  /// Objects with at most this many members are searched linearly and have
  /// no hash table.
  public static let linearSearchLimit = 8

  @usableFromInline
  package var _pairs: [(key: String, value: JSONValue)]
  /// Key → index into `_pairs`; present only when `_pairs.count >
  /// linearSearchLimit`.
  @usableFromInline
  internal var _index: [String: Int]?

  /// Keys that `init(_:)` was given more than once, in the order their
  /// repeats were met (a key given three times appears twice). Empty for
  /// every object the parser returns.
  public private(set) var duplicateKeys: [String] = []

  /// An empty object.
  public init() {
    _pairs = []
    _index = nil
  }

  /// An object with `pairs` in order. A repeated key keeps its first position
  /// and takes its last value, and is recorded in `duplicateKeys`.
  public init(_ pairs: [(String, JSONValue)]) {
    var stored: [(key: String, value: JSONValue)] = []
    stored.reserveCapacity(pairs.count)
    if pairs.count <= JSONObject.linearSearchLimit {
      outer: for (key, value) in pairs {
        for i in stored.indices where stored[i].key == key {
          stored[i].value = value
          duplicateKeys.append(key)
          continue outer
        }
        stored.append((key, value))
      }
      _pairs = stored
      _index = nil
    } else {
      var index: [String: Int] = [:]
      index.reserveCapacity(pairs.count)
      for (key, value) in pairs {
        if let i = index[key] {
          stored[i].value = value
          duplicateKeys.append(key)
        } else {
          index[key] = stored.count
          stored.append((key, value))
        }
      }
      _pairs = stored
      _index = stored.count > JSONObject.linearSearchLimit ? index : nil
    }
  }

  /// Trusts the caller that the keys are unique; `index`, when given, must map
  /// every key to its position.
  package init(uniquePairs: [(key: String, value: JSONValue)], index: [String: Int]?) {
    _pairs = uniquePairs
    if uniquePairs.count > JSONObject.linearSearchLimit {
      if let index {
        _index = index
      } else {
        var built: [String: Int] = [:]
        built.reserveCapacity(uniquePairs.count)
        for (i, pair) in uniquePairs.enumerated() { built[pair.key] = i }
        _index = built
      }
    } else {
      _index = nil
    }
  }

  /// The number of members.
  @inlinable
  public var count: Int { _pairs.count }

  @inlinable
  public var isEmpty: Bool { _pairs.isEmpty }

  /// The keys in insertion order.
  public var keys: [String] { _pairs.map(\.key) }

  /// The values in insertion order.
  public var values: [JSONValue] { _pairs.map(\.value) }

  /// The members in insertion order.
  @inlinable
  public var pairs: [(key: String, value: JSONValue)] { _pairs }

  /// The position of `key` in `pairs`, or nil.
  @inlinable
  public func index(forKey key: String) -> Int? {
    if let index = _index { return index[key] }
    for i in _pairs.indices where _pairs[i].key == key { return i }
    return nil
  }

  /// The value for `key`. Setting a new key appends it; setting an existing
  /// key replaces its value in place; setting nil removes the member.
  public subscript(key: String) -> JSONValue? {
    get {
      guard let i = index(forKey: key) else { return nil }
      return _pairs[i].value
    }
    set {
      if let i = index(forKey: key) {
        if let newValue {
          _pairs[i].value = newValue
        } else {
          _pairs.remove(at: i)
          rebuildIndex()
        }
      } else if let newValue {
        _pairs.append((key, newValue))
        if _index != nil {
          _index![key] = _pairs.count - 1
        } else if _pairs.count > JSONObject.linearSearchLimit {
          rebuildIndex()
        }
      }
    }
  }

  private mutating func rebuildIndex() {
    guard _pairs.count > JSONObject.linearSearchLimit else {
      _index = nil
      return
    }
    var built: [String: Int] = [:]
    built.reserveCapacity(_pairs.count)
    for (i, pair) in _pairs.enumerated() { built[pair.key] = i }
    _index = built
  }

  /// Equal when they hold the same keys with equal values, in the same order.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs._pairs.count == rhs._pairs.count else { return false }
    for (l, r) in zip(lhs._pairs, rhs._pairs) where l.key != r.key || l.value != r.value {
      return false
    }
    return true
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// Members in literal order; a repeated key is handled as in `init(_:)`.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }
}
