/// A dictionary or a set encodes its entries in the order it stores them, which the
/// standard library's hashing randomizes per process: the same state would list them in
/// another order on every run, and a transcript showing it would fail at random. The
/// state encoders write them through this instead: the same containers and keys as their
/// own `encode(to:)`, entries in key order (when keys or elements are `Comparable`).
protocol KeyOrderedEncoding {
    func encodeInKeyOrder(to encoder: any Encoder) throws
}

/// Encodes `value` as its own `encode(to:)` does, a dictionary's or a set's entries in order.
func encodeInStableOrder<T: Encodable>(_ value: T, to encoder: any Encoder) throws {
    if mayBeKeyOrdered(T.self), let dictionary = value as? any KeyOrderedEncoding {
        try dictionary.encodeInKeyOrder(to: encoder)
    } else {
        try value.encode(to: encoder)
    }
}

/// Whether `T` could be a dictionary or a set: only a one-word type holding a reference
/// can. Others skip the conformance lookup, which costs as much as encoding a small state.
@inline(__always)
private func mayBeKeyOrdered<T>(_: T.Type) -> Bool {
    MemoryLayout<T>.size == MemoryLayout<[Int: Int]>.size && !_isPOD(T.self)
}

extension Dictionary: KeyOrderedEncoding where Key: Encodable & Comparable, Value: Encodable {
    func encodeInKeyOrder(to encoder: any Encoder) throws {
        let entries = sorted { $0.key < $1.key }
        // The standard library's choice, in its order: String and Int keys, then keys
        // that have a coding key, are keys of a keyed container; others alternate with
        // their values in an unkeyed one.
        if Key.self == String.self || Key.self == Int.self || Key.self is any CodingKeyRepresentable.Type {
            var container = encoder.container(keyedBy: EntryKey.self)
            for (key, value) in entries { try container.encode(value, forKey: EntryKey(key)) }
        } else {
            var container = encoder.unkeyedContainer()
            for (key, value) in entries {
                try container.encode(key)
                try container.encode(value)
            }
        }
    }
}

extension Set: KeyOrderedEncoding where Element: Encodable & Comparable {
    func encodeInKeyOrder(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in sorted() { try container.encode(element) }
    }
}

/// A dictionary key as the standard library's dictionary coding key spells it.
private struct EntryKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init?(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
    init?(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }

    init<Key>(_ key: Key) {
        if let text = key as? String {
            (stringValue, intValue) = (text, nil)
        } else if let number = key as? Int {
            (stringValue, intValue) = ("\(number)", number)
        } else if let representable = key as? any CodingKeyRepresentable {
            (stringValue, intValue) = (representable.codingKey.stringValue, representable.codingKey.intValue)
        } else {
            (stringValue, intValue) = ("\(key)", nil)
        }
    }
}
