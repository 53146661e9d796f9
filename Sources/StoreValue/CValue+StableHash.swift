package import CStorePlugin

#if canImport(Glibc)
    import Glibc
#endif

extension Value {
    /// The `stableHash` of the value a C value tree reads as (`Value(reading:)`), worked out
    /// from the tree without making the value: what a search's replay needs of each state.
    /// Nil when the tree is nested deeper than a value may be (reading it says so).
    package static func stableHash(reading pointer: UnsafePointer<sp_value>) -> Int? {
        var hasher = StableHasher()
        guard hasher.combine(reading: pointer, depth: 0) else { return nil }
        return Int(truncatingIfNeeded: hasher.value)
    }
}

extension StableHasher {
    /// `combine(Value(reading: pointer))`, step for step as `Value(reading:)` reads the
    /// tree (a missing text is "", a missing item null); false past `Value.maxDepth`.
    fileprivate mutating func combine(reading pointer: UnsafePointer<sp_value>, depth: Int) -> Bool {
        let raw = pointer.pointee
        let count = Int(raw.count)
        let kind = sp_kind(rawValue: raw.kind)
        if count > 0, kind == SP_ARRAY || kind == SP_RECORD || kind == SP_ENUM, depth >= Value.maxDepth { return false }
        switch kind {
        case SP_BOOL: word(raw.scalar.boolean ? 3 : 2)
        case SP_INT:
            word(4)
            word(UInt64(bitPattern: raw.scalar.integer))
        case SP_DOUBLE:
            word(5)
            word(raw.scalar.real == 0 ? 0 : raw.scalar.real.bitPattern)
        case SP_STRING:
            word(6)
            cText(raw.text, absent: "")
        case SP_ARRAY:
            word(7)
            word(UInt64(count))
            for index in 0..<count {
                guard let item = raw.items?[index] else {
                    word(1)
                    continue
                }
                guard combine(reading: item, depth: depth + 1) else { return false }
            }
        case SP_RECORD, SP_ENUM:
            word(kind == SP_RECORD ? 8 : 9)
            // A record's type may be missing (nil); an enum's case name is "" then.
            cText(raw.text, absent: kind == SP_RECORD ? nil : "")
            word(UInt64(count))
            for index in 0..<count {
                // A record's fields all have names (an unnamed one is named ""); an enum
                // payload's values may have none.
                cText(raw.names?[index], absent: kind == SP_RECORD ? "" : nil)
                guard let item = raw.items?[index] else {
                    word(1)
                    continue
                }
                guard combine(reading: item, depth: depth + 1) else { return false }
            }
        default: word(1)
        }
        return true
    }

    /// A C string as `text` hashes `String(cString:)` of it: its bytes when they are
    /// ASCII, else the repaired string's (invalid UTF-8 is replaced as Swift reads it).
    private mutating func cText(_ pointer: UnsafePointer<CChar>?, absent: String?) {
        guard let pointer else { return text(absent) }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
        if bytes.allSatisfy({ $0 < 0x80 }) { return utf8(bytes) }
        text(String(cString: pointer))
    }
}
