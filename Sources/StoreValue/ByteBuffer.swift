/// Bytes written in many small pieces into one block of memory that grows as they come:
/// the shell's output (`OutputBuffer`, some forty pieces to a JSON record) and the wire
/// bytes of a state (`WireStateEncoder`). An `[UInt8]` checks that it is uniquely held and
/// has room at every append; written per action, those checks cost more than the bytes.
///
/// Noncopyable: it owns its memory and frees it when it ends. Its writes are inlinable, so
/// a writer in another module (the JSON formatter) pays no call per piece; public, because
/// this toolchain inlines no `package` function in another module, `@inlinable` or not.
public struct ByteBuffer: ~Copyable {
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var written = 0

    /// A buffer with room for `capacity` bytes (at least 16, so that doubling grows it).
    public init(capacity: Int) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// How many bytes were written.
    @inlinable
    public var count: Int { written }

    /// The bytes written; valid until the next write.
    @inlinable
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: written) }

    /// The bytes written, as UTF-8 text.
    @inlinable
    public var text: String {
        String(decoding: UnsafeBufferPointer(start: start, count: written), as: UTF8.self)
    }

    /// Forgets what was written, keeping the memory.
    @inlinable
    public mutating func removeAll() { written = 0 }

    /// Room for `more` bytes after the ones written, at least doubling (appends stay linear).
    @inlinable
    @inline(__always)
    public mutating func reserve(_ more: Int) {
        if capacity - written < more { grow(to: written + more) }
    }

    /// Moves the bytes to a block of at least `needed` bytes (out of line: the rare case).
    @usableFromInline
    mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        moved.update(from: start, count: written)
        start.deallocate()
        (start, capacity) = (moved, newCapacity)
    }

    /// One byte.
    @inlinable
    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        start[written] = byte
        written += 1
    }

    /// A copy of `bytes`.
    @inlinable
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let length = bytes.count
        reserve(length)
        let destination = UnsafeMutableRawPointer(start + written)
        // Most pieces are short (a key, a name, a number): two overlapping word moves cost
        // less than a call to memmove.
        switch length {
        case 8...16:
            let head = base.loadUnaligned(as: UInt64.self)
            let tail = base.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            destination.storeBytes(of: head, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        case 4..<8:
            let head = base.loadUnaligned(as: UInt32.self)
            let tail = base.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            destination.storeBytes(of: head, as: UInt32.self)
            destination.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
        case 1..<4:
            for index in 0..<length { destination.storeBytes(of: bytes[index], toByteOffset: index, as: UInt8.self) }
        default:
            destination.copyMemory(from: base, byteCount: length)
        }
        written += length
    }

    /// `text`'s UTF-8 bytes.
    @inlinable
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// `value`'s bytes, least significant first.
    @inlinable
    public mutating func append<Integer: FixedWidthInteger>(littleEndian value: Integer) {
        let size = MemoryLayout<Integer>.size
        reserve(size)
        UnsafeMutableRawPointer(start + written).storeBytes(of: value.littleEndian, as: Integer.self)
        written += size
    }

    /// Writes `value`'s bytes, least significant first, over the ones at `offset` (a count
    /// written before it was known).
    @inlinable
    public mutating func overwrite<Integer: FixedWidthInteger>(littleEndian value: Integer, at offset: Int) {
        assert(offset >= 0 && offset + MemoryLayout<Integer>.size <= written, "overwriting bytes not written")
        UnsafeMutableRawPointer(start + offset).storeBytes(of: value.littleEndian, as: Integer.self)
    }

    /// A decimal integer, written without making a string.
    @inlinable
    public mutating func appendDecimal(_ number: Int) {
        reserve(20)  // "-" and the 19 digits of Int.min
        if number < 0 {
            start[written] = UInt8(ascii: "-")
            written += 1
        }
        var magnitude = number.magnitude
        if magnitude < 10 {  // most numbers in a state: one digit, no division
            start[written] = UInt8(ascii: "0") + UInt8(magnitude)
            written += 1
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 20 digits of UInt64.max
        withUnsafeMutableBytes(of: &digits) { buffer in
            var first = buffer.count
            repeat {
                first -= 1
                buffer[first] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            for index in first..<buffer.count {
                start[written] = buffer[index]
                written += 1
            }
        }
    }
}
