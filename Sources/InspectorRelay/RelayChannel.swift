import Foundation
package import StoreValue

#if canImport(Glibc)
    import Glibc
#endif

/// Reads relay messages from a pipe, blocking: for a thread of its own.
package struct RelayReader {
    private let fd: Int32
    private var frames = FrameBuffer(limit: RelayMessage.frameLimit)
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// Reads from `fd`, which it does not close.
    package init(fd: Int32) { self.fd = fd }

    /// The next message; nil at the end of the stream. A frame that is not a relay message
    /// is an error (the other side is not what it should be).
    package mutating func next() throws(WireError) -> RelayMessage? {
        while true {
            if let (type, body) = try frames.next() { return try RelayMessage(type: type, body: body) }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            chunk.withUnsafeBytes { frames.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// Waits at most `seconds` for something to read; false when nothing came.
    package func waitForInput(seconds: Double) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            let ready = poll(&entry, 1, left)
            if ready < 0, errno == EINTR { continue }
            return ready > 0
        }
    }
}

/// Writes relay messages to a pipe, whole, from any thread. Once a write fails (the other
/// side is gone) every later one is dropped.
package final class RelayWriter: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var broken = false
    private var closed = false

    /// Writes to `fd`, which it closes only when told (`close`).
    package init(fd: Int32) { self.fd = fd }

    /// Closes the descriptor; every `send` after it (an answer still being written when
    /// the server was stopped) writes nothing and returns false. Closing under the lock
    /// the writes take is what keeps such a write off the number's next owner.
    package func close() {
        lock.withLock {
            guard !closed else { return }
            (closed, broken) = (true, true)
            _ = Glibc.close(fd)
        }
    }

    /// Writes `message`; false when the other side is gone. A body longer than
    /// `RelayMessage.bodyPart` goes in several `body` messages.
    @discardableResult
    package func send(_ message: RelayMessage) -> Bool {
        if case .body(let id, let bytes) = message, bytes.count > RelayMessage.bodyPart {
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + RelayMessage.bodyPart)
                guard send(.body(id: id, Array(bytes[start..<end]))) else { return false }
                start = end
            }
            return true
        }
        let frame = message.frame
        return lock.withLock {
            guard !broken else { return false }
            var written = 0
            while written < frame.count {
                let count = frame.withUnsafeBytes { write(fd, $0.baseAddress! + written, frame.count - written) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    broken = true
                    return false
                }
                written += count
            }
            return true
        }
    }
}
