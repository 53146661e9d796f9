import CStorePlugin


extension sp_dispatch_result {
    /// A zeroed result with its size set, for a plugin to fill in.
    static func empty() -> sp_dispatch_result {
        sp_dispatch_result(struct_size: UInt32(MemoryLayout<sp_dispatch_result>.size), state_changed: 0, effects_started: 0)
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
    var text: String {
        var copy = message
        let text = withUnsafeBytes(of: &copy) { buffer in
            String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "(no message)" : text
    }
}

/// Carries a C pointer (or a tuple of them) into a main-actor closure. Plugin callbacks
/// arrive on the main thread by contract (storeplugin.h, "Threads").
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
