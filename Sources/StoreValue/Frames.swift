/// Frames: how the worker protocol (docs/worker-protocol.md) and the inspector's relay
/// cut a byte stream into messages. A frame is a u32 little-endian length, then that many
/// bytes: a type byte and the body.
extension WireWriter {
    /// A frame: length, type, body.
    package static func frame(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
        var writer = WireWriter()
        writer.bytes.reserveCapacity(body.count + 5)
        writer.u32(UInt32(body.count + 1))
        writer.u8(type)
        writer.bytes.append(contentsOf: body)
        return writer.bytes
    }
}

/// Splits a byte stream into frames. Bytes are appended as they arrive; whole frames come
/// out in order.
package struct FrameBuffer {
    /// The largest frame a buffer takes unless told otherwise: 256 MiB (a worker's state
    /// snapshot that large is already absurd).
    package static let defaultLimit = 1 << 28
    /// A frame that claims more bytes than this is an error.
    package let limit: Int

    package init(limit: Int = FrameBuffer.defaultLimit) { self.limit = limit }

    private var bytes: [UInt8] = []
    private var start = 0

    package mutating func append(_ data: UnsafeRawBufferPointer) {
        if start > 0, start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 1 << 16, start * 2 > bytes.count {
            bytes.removeSubrange(0..<start)
            start = 0
        }
        bytes.append(contentsOf: data)
    }

    /// The next whole frame (type, body), nil when more bytes are needed. A frame that
    /// claims more than `limit` bytes, or none, is an error.
    package mutating func next() throws(WireError) -> (type: UInt8, body: [UInt8])? {
        guard bytes.count - start >= 4 else { return nil }
        let length =
            Int(bytes[start]) | Int(bytes[start + 1]) << 8 | Int(bytes[start + 2]) << 16 | Int(bytes[start + 3]) << 24
        guard length >= 1, length <= limit else { throw WireError(description: "a frame of \(length) bytes") }
        guard bytes.count - start >= 4 + length else { return nil }
        let type = bytes[start + 4]
        let body = Array(bytes[(start + 5)..<(start + 4 + length)])
        start += 4 + length
        return (type, body)
    }
}
