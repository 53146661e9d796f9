/// `Encodable` straight to wire bytes, for a small state read whole after every action
/// shown: the bytes `WireWriter.value` writes for the state's plain encoding
/// (`PlainEncoding`), without building that value first and taking it apart after. A
/// counter's snapshot was mostly that building, allocating and freeing.
///
/// An encoding is written as it happens, so it must happen in order: a container is
/// written while it is the newest one open, and a value's place is filled before anything
/// else is written. An `encode(to:)` that writes otherwise (into a container after a
/// sibling was begun, through `superEncoder`) gives up the encoding — `encode` returns
/// false — and the tree encodings, which define what such writes mean, are used instead.
/// One encoder is reused for every snapshot of a store (its buffers keep their memory).
package final class WireStateEncoder {
    // Unchecked exclusivity: one encoding at a time writes these, on one thread, and no
    // access spans a call (as in `PlainSlot`).
    @exclusivity(unchecked) var buffer = ByteBuffer(capacity: 256)

    /// An open container: where its element count goes, how many it has, where its keys
    /// start in `keys`, and the number that tells it from a later container at its depth.
    struct Frame {
        var countOffset: Int
        var elements: UInt32
        var keyStart: Int
        var generation: UInt64
        var keyed: Bool
    }

    @exclusivity(unchecked) var frames: [Frame] = []
    /// The keys of the open keyed containers, outermost first (a key written twice in one
    /// container gives up the encoding: the tree encodings replace the first in place).
    @exclusivity(unchecked) private var keys: [String] = []
    /// Never reused, across encodings too, so a container kept past its encoding cannot
    /// write into a later one.
    @exclusivity(unchecked) private var nextGeneration: UInt64 = 1
    /// The place a value must be written into next (its label, if any, is written), and
    /// the record name it takes if it is a record.
    @exclusivity(unchecked) var pendingPlace: UInt64?
    @exclusivity(unchecked) var pendingName: String?
    /// The name the first record a `WireStateWritable` begins takes (the root's).
    @exclusivity(unchecked) var directRootName: String?
    @exclusivity(unchecked) private var nodes = 0
    @exclusivity(unchecked) private var limit = 0
    @exclusivity(unchecked) var active = false
    @exclusivity(unchecked) var abandoned = false

    /// Thrown to stop an encoding given up (too big, or out of order).
    struct Abandon: Error {}

    package init() {}

    /// How many bytes the last encoding that succeeded wrote.
    package var count: Int { buffer.count }

    /// The bytes of the last encoding that succeeded; valid until the next encoding.
    package var bytes: UnsafeRawBufferPointer { buffer.bytes }

    /// Encodes `value` as `WireWriter().value(PlainEncoding.value(of: value))` would write
    /// it, its root record (if it is one) named `rootType`. False, with nothing kept, when
    /// the value holds `limit` values or more, or its encoding writes out of order (see the
    /// type's note). Errors of the value's own encoding are thrown.
    package func encode<T: Encodable>(_ value: T, rootType: String?, within limit: Int) throws -> Bool {
        try encoding(within: limit) { try writeValue(value, name: rootType, codingPath: []) }
    }

    /// Encodes a `WireStateWritable` through its own `writeWireState` (`write` calls it),
    /// giving the bytes `encode` gives through its `Encodable`, when the two agree.
    package func encode(rootType: String?, within limit: Int, writing write: (WireStateWriter) throws -> Void) throws
        -> Bool
    {
        try encoding(within: limit) {
            directRootName = rootType
            try write(WireStateWriter(self))
        }
    }

    /// One encoding: everything of the last forgotten, `body` run, and false (nothing
    /// kept) when it gave up.
    @inline(__always)
    private func encoding(within limit: Int, _ body: () throws -> Void) throws -> Bool {
        buffer.removeAll()
        nodes = 0
        self.limit = limit
        frames.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        (pendingPlace, pendingName, directRootName, abandoned, active) = (nil, nil, nil, false, true)
        defer {
            active = false
            pendingPlace = nil
        }
        do {
            try body()
        } catch {
            buffer.removeAll()
            // An encoding given up may surface as the value's own error (one that wraps
            // what it caught): given up is what it is.
            if abandoned || error is Abandon { return false }
            throw error
        }
        // Given up after the root's own encoding had returned is thrown by `writeValue`.
        close(downTo: 0)
        return true
    }

    // MARK: Places and containers

    /// Writes `value` into the place just labelled (or the root): a scalar, or whatever
    /// its `encode(to:)` writes — an empty record when it writes nothing.
    func writeValue<T: Encodable>(_ value: T, name: String?, codingPath: @autoclosure () -> [any CodingKey]) throws {
        if let scalar = try Scalars.value(of: value, codingPath: codingPath()) {
            return try writeScalar(scalar)
        }
        let place = nextGeneration
        nextGeneration += 1
        (pendingPlace, pendingName) = (place, name)
        try encodeInStableOrder(value, to: WireEncoderPlace(encoder: self, place: place, codingPath: codingPath()))
        if abandoned { throw Abandon() }
        if pendingPlace == place {
            // Nothing was written: the tree encodings give an empty record.
            pendingPlace = nil
            try node()
            putRecordHeader(name: name)
            putU32(0)
        }
    }

    /// Counts one more value of the encoding; gives up at the limit.
    func node() throws {
        nodes += 1
        if nodes >= limit {
            abandoned = true
            throw Abandon()
        }
    }

    /// Gives up the encoding (from a call that cannot throw; the next write that can, does).
    func abandon() { abandoned = true }

    /// Begins a container in `place` (which must be the one waiting): its header, and a
    /// frame for its elements. The container's (depth, generation), or nil when given up.
    func begin(keyed: Bool, in place: UInt64) -> (depth: Int, generation: UInt64)? {
        guard active, !abandoned, pendingPlace == place else {
            abandon()
            return nil
        }
        pendingPlace = nil
        guard (try? node()) != nil else { return nil }  // at the limit: given up
        return push(keyed: keyed, name: pendingName)
    }

    /// Writes a container's header (a record named `name`, or a list) and opens a frame
    /// for its elements.
    private func push(keyed: Bool, name: String?) -> (depth: Int, generation: UInt64) {
        if keyed { putRecordHeader(name: name) } else { putByte(5) }
        let generation = nextGeneration
        nextGeneration += 1
        frames.append(
            Frame(countOffset: buffer.count, elements: 0, keyStart: keys.count, generation: generation, keyed: keyed))
        putU32(0)
        return (frames.count - 1, generation)
    }

    /// Readies the container at `depth` for one more element: closes the containers
    /// nested in it, and checks it is still the one at its depth and no place waits.
    /// Writes `key` for a keyed container.
    func element(at depth: Int, generation: UInt64, key: String?) throws {
        guard active, !abandoned, pendingPlace == nil, depth >= 0, depth < frames.count,
            frames[depth].generation == generation
        else {
            abandon()
            throw Abandon()
        }
        close(downTo: depth + 1)
        if let key {
            for index in frames[depth].keyStart..<keys.count where keys[index] == key {
                abandon()
                throw Abandon()
            }
            keys.append(key)
            putLabel(key)
        }
        frames[depth].elements += 1
    }

    /// A nested container as the element just readied at `depth`.
    func nested(keyed: Bool) throws -> (depth: Int, generation: UInt64) {
        try node()
        return push(keyed: keyed, name: nil)
    }

    /// The number of elements the container at `depth` holds (0 once it is closed).
    func elements(at depth: Int, generation: UInt64) -> Int {
        depth >= 0 && depth < frames.count && frames[depth].generation == generation ? Int(frames[depth].elements) : 0
    }

    func writeNull() throws {
        try node()
        putByte(0)
    }

    /// A scalar value, counted.
    func writeScalar(_ value: Value) throws {
        try node()
        putScalar(value)
    }

    /// Writes the counts of the containers from `depth` in, and closes them.
    func close(downTo depth: Int) {
        while frames.count > depth {
            let frame = frames.removeLast()
            buffer.overwrite(littleEndian: frame.elements, at: frame.countOffset)
            if frame.keyed { keys.removeSubrange(frame.keyStart...) }
        }
    }

    // MARK: Bytes

    func putByte(_ byte: UInt8) {
        buffer.append(byte)
    }

    func putU32(_ value: UInt32) {
        buffer.append(littleEndian: value)
    }

    private func putU64(_ value: UInt64) {
        buffer.append(littleEndian: value)
    }

    /// `text`'s UTF-8 length, then its bytes.
    func putString(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            putU32(UInt32(utf8.count))
            buffer.append(UnsafeRawBufferPointer(utf8))
        }
    }

    /// A record field's label (a present `string?`).
    func putLabel(_ key: String) {
        putByte(1)
        putString(key)
    }

    func putRecordHeader(name: String?) {
        putByte(6)
        if let name {
            putByte(1)
            putString(name)
        } else {
            putByte(0)
        }
    }

    /// A scalar as `WireWriter` writes it (`Scalars` gives no other kinds).
    func putScalar(_ value: Value) {
        switch value {
        case .bool(let flag):
            putByte(1)
            putByte(flag ? 1 : 0)
        case .int(let number):
            putByte(2)
            putU64(UInt64(bitPattern: number))
        case .double(let number):
            putByte(3)
            putU64(number.bitPattern)
        case .string(let text):
            putByte(4)
            putString(text)
        default:
            putByte(0)
        }
    }
}
