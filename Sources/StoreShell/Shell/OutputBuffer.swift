package import StoreValue

/// Bytes of output written in many small pieces — a JSON record is some forty of them —
/// gathered in one growing block of memory (a `ByteBuffer`, which does the writing). A
/// class, so the writers of one record share it.
package final class OutputBuffer {
    // Unchecked exclusivity: the buffer is written by one caller at a time and none of its
    // methods calls out while it holds an access; the checks were a tenth of the writing.
    // Usable from inline code, so that the members that only read or reset it inline in
    // other modules (storesh's printer checks `count` after every output), as they did
    // when they were stored properties.
    @exclusivity(unchecked) @usableFromInline var buffer: ByteBuffer

    /// An empty buffer with room for `capacity` bytes before it grows.
    package init(capacity: Int = 4096) {
        buffer = ByteBuffer(capacity: capacity)
    }

    /// How many bytes were written.
    @inlinable
    package var count: Int { buffer.count }

    /// Whether nothing was written.
    @inlinable
    package var isEmpty: Bool { buffer.count == 0 }

    /// One byte.
    @inline(__always)
    package func append(_ byte: UInt8) {
        buffer.append(byte)
    }

    /// A copy of `bytes`.
    package func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(bytes)
    }

    /// `text`'s UTF-8 bytes.
    package func append(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(UnsafeRawBufferPointer($0)) }
    }

    /// `text`'s UTF-8 bytes.
    package func append(_ text: String) {
        buffer.append(text)
    }

    /// A decimal integer, written without making a string.
    package func appendDecimal(_ number: Int) {
        buffer.appendDecimal(number)
    }

    /// The bytes written, for the length of `body`.
    package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(buffer.bytes)
    }

    /// The bytes written, as text.
    package var text: String { buffer.text }

    /// Forgets what was written, keeping the memory.
    @inlinable
    package func removeAll() { buffer.removeAll() }
}
