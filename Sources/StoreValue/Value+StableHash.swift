extension Value {
    /// A hash of the value that is the same in every process and every run, unlike
    /// `hashValue` (seeded afresh per process): what `storesh explore` counts states by,
    /// so that a state hashed in a worker and the same state hashed in storesh agree, and
    /// a worker started again hashes as the one before it did.
    ///
    /// Equal values hash alike, with one exception: text (strings, labels, type and case
    /// names) is hashed by its UTF-8 bytes, so two canonically equivalent spellings (a
    /// precomposed "é" and "e" with a combining accent) hash apart. Callers that compare states after a hash differs
    /// compare them with `==` too.
    package var stableHash: Int {
        var hasher = StableHasher()
        hasher.combine(self)
        return Int(truncatingIfNeeded: hasher.value)
    }
}

/// Each 64-bit word folded in with a multiply and shifts, and a final mix (SplitMix64's):
/// simple, fast on small states, and fixed for good (a search's figures depend on it).
/// (FNV-1a over whole words, tried first, merged a third of the ring buffer's states.)
struct StableHasher {
    private(set) var state: UInt64 = 0x6A09_E667_F3BC_C908

    var value: UInt64 {
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func word(_ word: UInt64) {
        var mixed = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        mixed ^= mixed >> 32
        state = mixed &* 0xD6E8_FEB8_6659_FD93 ^ (mixed >> 29)
    }

    mutating func text(_ optional: String?) {
        guard var text = optional else { return word(0xFFFF_FFFF_FFFF_FFFF) }
        text.withUTF8 { utf8(UnsafeRawBufferPointer($0)) }
    }

    /// Text as its UTF-8 bytes: their count, then each eight, and the rest.
    mutating func utf8(_ bytes: UnsafeRawBufferPointer) {
        word(UInt64(bytes.count))
        var index = 0
        while index + 8 <= bytes.count {
            var chunk: UInt64 = 0
            for offset in 0..<8 { chunk |= UInt64(bytes[index + offset]) << (8 * offset) }
            word(chunk)
            index += 8
        }
        var tail: UInt64 = 0
        for offset in 0..<(bytes.count - index) { tail |= UInt64(bytes[index + offset]) << (8 * offset) }
        word(tail)
    }

    mutating func combine(_ value: Value) {
        switch value {
        case .null: word(1)
        case .bool(let flag): word(flag ? 3 : 2)
        case .int(let number):
            word(4)
            word(UInt64(bitPattern: number))
        case .double(let number):
            word(5)
            // Zero's two signs are one number, as `==` says.
            word(number == 0 ? 0 : number.bitPattern)
        case .string(let text):
            word(6)
            self.text(text)
        case .array(let items):
            word(7)
            word(UInt64(items.count))
            for item in items { combine(item) }
        case .record(let type, let fields):
            word(8)
            text(type)
            combine(fields)
        case .enumCase(let name, let payload):
            word(9)
            text(name)
            combine(payload)
        }
    }

    private mutating func combine(_ fields: [Value.Field]) {
        word(UInt64(fields.count))
        for field in fields {
            text(field.label)
            combine(field.value)
        }
    }
}
