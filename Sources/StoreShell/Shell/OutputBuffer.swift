/// Bytes of output written in many small pieces — a JSON record is some forty of them —
/// gathered in one growing block of memory. An `[UInt8]` checks that it is uniquely held
/// and has room at every append; a script's output is written per action, and those
/// checks cost more than the bytes. A class, so the writers of one record share it.
public final class OutputBuffer {
    // Unchecked exclusivity: the buffer is written by one caller at a time and none of its
    // methods calls out while it holds an access; the checks were a tenth of the writing.
    @exclusivity(unchecked) private var start: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) public private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    public var isEmpty: Bool { count == 0 }

    /// Room for `more` bytes after the ones written, at least doubling (appends stay linear).
    @inline(__always)
    private func reserve(_ more: Int) {
        if capacity - count < more { grow(to: count + more) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        moved.update(from: start, count: count)
        start.deallocate()
        (start, capacity) = (moved, newCapacity)
    }

    @inline(__always)
    public func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let length = bytes.count
        reserve(length)
        let destination = UnsafeMutableRawPointer(start + count)
        // Most pieces are short (a key, a name, a number): two overlapping word moves cost
        // less than a call to memmove.
        switch length {
        case 8...16:
            let head = base.loadUnaligned(as: UInt64.self), tail = base.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            destination.storeBytes(of: head, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        case 4..<8:
            let head = base.loadUnaligned(as: UInt32.self), tail = base.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            destination.storeBytes(of: head, as: UInt32.self)
            destination.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
        case 1..<4:
            for index in 0..<length { destination.storeBytes(of: bytes[index], toByteOffset: index, as: UInt8.self) }
        default:
            destination.copyMemory(from: base, byteCount: length)
        }
        count += length
    }

    public func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    /// `text`'s UTF-8 bytes.
    public func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// A decimal integer, written without making a string.
    public func appendDecimal(_ number: Int) {
        reserve(20) // "-" and the 19 digits of Int.min
        if number < 0 {
            start[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = number.magnitude
        if magnitude < 10 { // most numbers in a state: one digit, no division
            start[count] = UInt8(ascii: "0") + UInt8(magnitude)
            count += 1
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // room for the 20 digits of UInt64.max
        withUnsafeMutableBytes(of: &digits) { buffer in
            var first = buffer.count
            repeat {
                first -= 1
                buffer[first] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            for index in first..<buffer.count {
                start[count] = buffer[index]
                count += 1
            }
        }
    }

    /// The bytes written, for the length of `body`.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// The bytes written, as text.
    public var text: String {
        String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// Forgets what was written, keeping the memory.
    public func removeAll() { count = 0 }
}
