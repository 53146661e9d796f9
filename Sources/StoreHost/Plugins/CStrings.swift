import CStorePlugin

extension sp_dispatch_result {
    /// A zeroed result with its size set, for a plugin to fill in.
    static func empty() -> sp_dispatch_result {
        sp_dispatch_result(
            struct_size: UInt32(MemoryLayout<sp_dispatch_result>.size), state_changed: 0, effects_started: 0)
    }
}

extension sp_error {
    /// A zeroed error with its size set, ready to pass to a plugin.
    static func empty() -> sp_error {
        var error = sp_error()
        error.struct_size = UInt32(MemoryLayout<sp_error>.size)
        return error
    }

    /// The message a plugin wrote, or a placeholder if it wrote none.
    var text: String { written ?? "(no message)" }

    /// The message a plugin wrote; nil when it wrote none.
    var written: String? {
        var copy = message
        let text = withUnsafeBytes(of: &copy) { buffer in
            String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? nil : text
    }
}

/// An `sp_error` for calls made again and again (sends): zero-filled once, as
/// storeplugin.h promises every callee, and filled with zeros again only after a call that
/// failed or wrote a message, so a call that succeeds does not clear its 1 KB each time.
/// A call made while another holds it (one during an effect's callback) gets its own.
@MainActor
final class ReusableError {
    private let storage: UnsafeMutablePointer<sp_error>
    private var inUse = false

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: .empty())
    }

    isolated deinit {
        storage.deallocate()
    }

    /// Runs `call` with a zero-filled error; returns its status, and the message when it
    /// failed.
    @inline(__always)
    func calling(_ call: (UnsafeMutablePointer<sp_error>) -> Int32) -> (status: Int32, message: String?) {
        guard !inUse else {
            var own = sp_error.empty()
            let status = call(&own)
            return (status, status == Int32(SP_OK) ? nil : own.text)
        }
        inUse = true
        defer { inUse = false }
        let status = call(storage)
        guard status != Int32(SP_OK) || storage.pointee.message.0 != 0 else { return (status, nil) }
        let message = status == Int32(SP_OK) ? nil : storage.pointee.text
        storage.pointee = .empty()
        return (status, message)
    }
}
