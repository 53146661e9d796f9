package import StoreValue

/// The messages between storesh and a worker process, as docs/worker-protocol.md
/// describes them. A frame is a u32 little-endian length, then that many bytes: a type
/// byte and the body.
package enum WorkerProtocol {
    /// Bumped on any incompatible change; `hello` checks it.
    package static let version: UInt32 = 6
    /// No frame is larger (a state snapshot of 256 MiB is already absurd).
    static let maxFrame = 1 << 28

    /// Shell → worker. Every body starts with the shell clock's `now` (i64, ns). The
    /// worker answers each with exactly one `reply`, in order.
    package enum Request: UInt8 {
        case hello = 1, load, create, destroy, send, replay, restore, snapshot, stub, fire, sendBatch, replayBatch, sendObserved
    }

    /// Worker → shell.
    package enum Message: UInt8 {
        /// The answer to the oldest request: u8 0 (ok, then the body) or 1 (error, then a
        /// message string).
        case reply = 0x80
        case effect, applied, wake, cancel, log, stubCalled
    }
}

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
    package init() {}

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
    /// claims more than `WorkerProtocol.maxFrame` bytes is an error.
    package mutating func next() throws(WireError) -> (type: UInt8, body: [UInt8])? {
        guard bytes.count - start >= 4 else { return nil }
        let length = Int(bytes[start]) | Int(bytes[start + 1]) << 8 | Int(bytes[start + 2]) << 16 | Int(bytes[start + 3]) << 24
        guard length >= 1, length <= WorkerProtocol.maxFrame else { throw WireError(description: "a frame of \(length) bytes") }
        guard bytes.count - start >= 4 + length else { return nil }
        let type = bytes[start + 4]
        let body = Array(bytes[(start + 5)..<(start + 4 + length)])
        start += 4 + length
        return (type, body)
    }
}
