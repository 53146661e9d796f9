/// What changed between two wire encodings of a state (`WireWriter.value`'s bytes) of the
/// same shape: the same records with the same labels in the same order, lists of the same
/// lengths, and enum cases written the same. The changes are sets of the scalars that
/// differ, found by walking both encodings side by side without building either. A state
/// read whole after every action, as a counter's is, usually keeps its shape, and the walk
/// then costs less than decoding the new state and diffing it with the old one.
///
/// Nil when the shapes part anywhere (a list grew, a field came or went, a record's type
/// or an enum case changed), when the root is not a record or a list, when a changed
/// field's label is not unique in its record (a path could not name it), or when the new
/// bytes are not exactly one value: the caller then decodes the new bytes whole, which
/// also says what is wrong with them. The old bytes must be a value that decoded.
package struct WireLeafChanges {
    /// Sets that make the old encoding's value into the new one's, in the order of the
    /// encoding.
    package private(set) var patches: [StatePatch] = []
    /// How many values the new encoding holds (itself and every nested one), as
    /// `WireReader.skipValue` counts them.
    package private(set) var values = 0

    private let oldBytes: [UInt8]
    private let newBytes: [UInt8]
    private var o = 0
    private var n = 0
    /// Where the walk is: a field's label (its bytes in the new encoding) or a list index,
    /// one per level below the root.
    private var places: [Place] = []
    /// The labels of the fields walked so far in each record being walked, outermost first.
    private var labels: [Range<Int>] = []

    private enum Place {
        case label(Range<Int>)
        case index(Int)
    }

    /// The changes from `old` to `new`, or nil (see the type's note).
    package static func between(_ old: [UInt8], _ new: [UInt8]) -> WireLeafChanges? {
        var walk = WireLeafChanges(oldBytes: old, newBytes: new)
        guard let kind = old.first, kind == 5 || kind == 6, new.first == kind,
              walk.value(), walk.o == old.count, walk.n == new.count
        else { return nil }
        return walk
    }

    private init(oldBytes: [UInt8], newBytes: [UInt8]) {
        self.oldBytes = oldBytes
        self.newBytes = newBytes
    }

    /// Walks one value in both encodings; false when their shapes part or a read fails.
    private mutating func value() -> Bool {
        guard o < oldBytes.count, n < newBytes.count else { return false }
        let kind = oldBytes[o]
        if kind != 5 && kind != 6 { return leaf() }
        guard newBytes[n] == kind else { return false }
        values += 1
        o += 1
        n += 1
        return kind == 5 ? list() : record()
    }

    /// A scalar or an enum case: a set of the new scalar where the bytes differ.
    private mutating func leaf() -> Bool {
        var oldReader = WireReader(oldBytes, from: o), newReader = WireReader(newBytes, from: n)
        guard (try? oldReader.skipValue()) != nil, let count = try? newReader.skipValue() else { return false }
        let (oldStart, newStart) = (o, n)
        (o, n) = (oldReader.offset, newReader.offset)
        values += count
        if equal(oldStart..<o, newStart..<n) { return true }
        // Only scalars become sets: an enum case that changed (or a value that changed
        // kind to or from a container) is a change of shape.
        guard oldBytes[oldStart] < 5, newBytes[newStart] < 5 else { return false }
        var reader = WireReader(newBytes, from: newStart)
        guard let value = try? reader.value() else { return false }
        patches.append(.set(path: path(), value: value))
        return true
    }

    private mutating func list() -> Bool {
        guard let count = counts() else { return false }
        for index in 0..<count {
            places.append(.index(index))
            let walked = value()
            places.removeLast()
            guard walked else { return false }
        }
        return true
    }

    private mutating func record() -> Bool {
        // The type's name, then the field count: the same in both.
        guard let nameEnd = optionalStringEnd(at: o), same(nameEnd - o), let count = counts() else { return false }
        let first = labels.count
        defer { labels.removeSubrange(first...) }
        var changed: [Int] = []
        for _ in 0..<count {
            // A field's label: present (1), then its length and bytes; the same in both.
            guard o < oldBytes.count, oldBytes[o] == 1, let labelEnd = optionalStringEnd(at: o) else { return false }
            let labelStart = n + 5
            guard same(labelEnd - o) else { return false }
            labels.append(labelStart..<n)
            let before = patches.count
            places.append(.label(labelStart..<n))
            let walked = value()
            places.removeLast()
            guard walked else { return false }
            if patches.count > before { changed.append(labels.count - 1) }
        }
        // A path names a field by its label, decoded (bytes that are not UTF-8 decode with
        // replacements, so two labels can differ in bytes and read the same): a changed
        // field's label must be the only one that reads as it does.
        for index in changed {
            let label = text(labels[index])
            for other in first..<labels.count where other != index && text(labels[other]) == label {
                return false
            }
        }
        return true
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: newBytes[range], as: UTF8.self)
    }

    /// The path of the value being walked.
    private func path() -> [StatePatch.Segment] {
        places.map { place in
            switch place {
            case .label(let range): .field(text(range))
            case .index(let index): .index(index)
            }
        }
    }

    // MARK: Bytes

    /// A container's element count, read from both; nil unless they are the same.
    private mutating func counts() -> Int? {
        guard let count = u32(oldBytes, &o), let newCount = u32(newBytes, &n), count == newCount else { return nil }
        return Int(count)
    }

    private func u32(_ bytes: [UInt8], _ offset: inout Int) -> UInt32? {
        guard bytes.count - offset >= 4 else { return nil }
        defer { offset += 4 }
        return (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    /// The end of the optional string (a presence byte, then a length and bytes) at
    /// `offset` in the old encoding.
    private func optionalStringEnd(at offset: Int) -> Int? {
        guard offset < oldBytes.count else { return nil }
        if oldBytes[offset] == 0 { return offset + 1 }
        var at = offset + 1
        guard oldBytes[offset] == 1, let length = u32(oldBytes, &at), oldBytes.count - at >= Int(length) else { return nil }
        return at + Int(length)
    }

    /// Whether the next `count` bytes of both encodings are the same; if so, both move
    /// past them.
    private mutating func same(_ count: Int) -> Bool {
        guard newBytes.count - n >= count, equal(o..<(o + count), n..<(n + count)) else { return false }
        o += count
        n += count
        return true
    }

    /// Whether the old encoding's bytes `a` are the new one's bytes `b`.
    private func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        var (i, j) = (a.lowerBound, b.lowerBound)
        while i < a.upperBound {
            if oldBytes[i] != newBytes[j] { return false }
            i += 1
            j += 1
        }
        return true
    }
}
