import StoreValue

/// The messages between storesh and a worker process, as docs/worker-protocol.md
/// describes them. A frame (`WireWriter.frame`, `FrameBuffer`) is a u32 little-endian
/// length, then that many bytes: a type byte and the body.
package enum WorkerProtocol {
    /// Bumped on any incompatible change; `hello` checks it.
    package static let version: UInt32 = 13

    /// Shell → worker. Every body starts with the shell clock's `now` (i64, ns). The
    /// worker answers each with exactly one `reply`, in order.
    package enum Request: UInt8 {
        case hello = 1, load, create, destroy, send, replay, restore, snapshot, stub, fire, sendBatch, replayBatch,
            sendObserved, effectsIdle, world, check, coverage, probe
    }

    /// Worker → shell.
    package enum Message: UInt8 {
        /// The answer to the oldest request: u8 0 (ok, then the body) or 1 (error, then a
        /// message string).
        case reply = 0x80
        case effect, applied, wake, cancel, log, stubCalled
        /// A service call's answer, whose arrival is the shell clock's to choose (protocol 12).
        case answer
    }
}
