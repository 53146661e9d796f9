@_spi(Reflection) import Swift

#if canImport(Glibc)
    import Glibc
#endif

/// Where a type keeps its data: the byte ranges of its stored fields, without the padding
/// between them. Two copies of one value have the same bytes there (references included),
/// so a list's unchanged elements are found by comparing bytes, which costs no retain or
/// release, where `==` in code not specialized for the element type copies both elements.
/// Equal bytes mean the same value; different bytes may still be equal values (two buffers
/// holding the same text), which `==` then decides.
struct ByteLayout {
    /// Byte ranges to compare, in order, adjacent ones merged.
    private(set) var ranges: [(offset: Int, count: Int)] = []
    /// The same bytes as whole 8-byte words, each with the bits of it that hold data (a
    /// word of padding left out), then the bytes past the last whole word one by one: what
    /// the comparisons walk, without a branch per word.
    private var words: [(offset: Int, mask: UInt64)] = []
    private var tailBytes: [Int] = []

    /// The layout of `type`: a struct's fields, found through the runtime's reflection and
    /// recursively; anything else (an enum, a class reference, a struct the runtime has no
    /// field list for) is all data. A struct whose fields leave a gap no padding explains
    /// is taken as all data too, so no byte that holds data is ever skipped.
    init(of type: Any.Type) {
        add(type, at: 0, depth: 0)
        let wholeWords = Self.size(of: type) / 8
        var masks = [UInt64](repeating: 0, count: wholeWords)
        for range in ranges {
            for byte in range.offset..<(range.offset + range.count) {
                if byte / 8 < wholeWords {
                    masks[byte / 8] |= 0xFF << UInt64(8 * (byte % 8))
                } else {
                    tailBytes.append(byte)
                }
            }
        }
        words = masks.enumerated().filter { $0.element != 0 }.map { (8 * $0.offset, $0.element) }
    }

    /// Whether the values at `a` and `b` have the same bytes in every range.
    func sameBytes<T>(_ a: UnsafePointer<T>, _ b: UnsafePointer<T>) -> Bool {
        words.withUnsafeBufferPointer { difference(UnsafeRawPointer(a), UnsafeRawPointer(b), $0) == 0 }
    }

    /// The indices below `count` where the values in `a` and in `b` have different bytes:
    /// `sameBytes` over two buffers, in one loop. Runs of elements whose raw bytes are all
    /// the same (a list grown at its end, or one element changed) are passed over a block
    /// at a time by `memcmp`, which compares far faster than the word-by-word walk; equal
    /// raw bytes are equal data bytes, so nothing that differs is passed over.
    func differingIndices<T>(_ a: UnsafePointer<T>, _ b: UnsafePointer<T>, count: Int) -> [Int] {
        var found: [Int] = []
        let stride = MemoryLayout<T>.stride
        let block = max(1, Self.blockBytes / max(stride, 1))
        words.withUnsafeBufferPointer { words in
            var start = 0
            while start < count {
                let end = min(start + block, count)
                var (x, y) = (UnsafeRawPointer(a) + start * stride, UnsafeRawPointer(b) + start * stride)
                if !Self.sameRawBytes(x, y, count: (end - start) * stride) {
                    for index in start..<end {
                        if difference(x, y, words) != 0 { found.append(index) }
                        x += stride
                        y += stride
                    }
                }
                start = end
            }
        }
        return found
    }

    /// How many bytes `differingIndices` compares whole before it walks their elements.
    private static let blockBytes = 2048

    private static func sameRawBytes(_ x: UnsafeRawPointer, _ y: UnsafeRawPointer, count: Int) -> Bool {
        #if canImport(Glibc)
            memcmp(x, y, count) == 0
        #else
            UnsafeRawBufferPointer(start: x, count: count).elementsEqual(UnsafeRawBufferPointer(start: y, count: count))
        #endif
    }

    /// The data bits that differ between the values at `x` and `y` (folded into one word).
    @inline(__always)
    private func difference(
        _ x: UnsafeRawPointer, _ y: UnsafeRawPointer, _ words: UnsafeBufferPointer<(offset: Int, mask: UInt64)>
    ) -> UInt64 {
        var difference: UInt64 = 0
        for word in words {
            difference |=
                (x.loadUnaligned(fromByteOffset: word.offset, as: UInt64.self)
                    ^ y.loadUnaligned(fromByteOffset: word.offset, as: UInt64.self)) & word.mask
        }
        for byte in tailBytes {
            difference |= UInt64(
                x.load(fromByteOffset: byte, as: UInt8.self) ^ y.load(fromByteOffset: byte, as: UInt8.self))
        }
        return difference
    }

    /// A hash of the bytes `sameBytes` compares: equal for values with the same bytes.
    func hash<T>(_ value: UnsafePointer<T>) -> Int {
        let bytes = UnsafeRawPointer(value)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        words.withUnsafeBufferPointer { words in
            for word in words {
                hash =
                    (hash ^ (bytes.loadUnaligned(fromByteOffset: word.offset, as: UInt64.self) & word.mask))
                    &* 0x100_0000_01b3
            }
        }
        for byte in tailBytes {
            hash = (hash ^ UInt64(bytes.load(fromByteOffset: byte, as: UInt8.self))) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    private mutating func add(_ type: Any.Type, at base: Int, depth: Int) {
        let size = Self.size(of: type)
        guard size > 0 else { return }
        guard depth < 8, Self.isStruct(type), let fields = Self.fields(of: type, size: size) else {
            return append(base, size)
        }
        for field in fields { add(field.type, at: base + field.offset, depth: depth + 1) }
    }

    private mutating func append(_ offset: Int, _ count: Int) {
        if let last = ranges.last, last.offset + last.count >= offset {
            ranges[ranges.count - 1].count = max(last.count, offset + count - last.offset)
        } else {
            ranges.append((offset, count))
        }
    }

    /// The stored fields of a struct of `size` bytes, in offset order; nil when the runtime
    /// lists none, or when the gaps between them are not padding (a gap at least as wide
    /// as the next field's alignment, or bytes after the last field).
    private static func fields(of type: Any.Type, size: Int) -> [(offset: Int, type: Any.Type)]? {
        var fields: [(offset: Int, type: Any.Type)] = []
        let listed = _forEachField(of: type, options: []) { _, offset, fieldType, _ in
            fields.append((offset, fieldType))
            return true
        }
        guard listed, !fields.isEmpty else { return nil }
        fields.sort { $0.offset < $1.offset }
        var end = 0
        for field in fields {
            if field.offset > end, field.offset - end >= alignment(of: field.type) { return nil }
            end = max(end, field.offset + Self.size(of: field.type))
        }
        return end == size ? fields : nil
    }

    private static func isStruct(_ type: Any.Type) -> Bool {
        let kind = unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
        return _MetadataKind(rawValue: kind) == .struct
    }

    private static func size(of type: Any.Type) -> Int {
        func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
        return _openExistential(type, do: size)
    }

    private static func alignment(of type: Any.Type) -> Int {
        func alignment<T>(_: T.Type) -> Int { MemoryLayout<T>.alignment }
        return _openExistential(type, do: alignment)
    }
}
