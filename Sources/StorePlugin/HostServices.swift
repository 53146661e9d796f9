import CStorePlugin
import Dispatch
import Foundation

/// The host's services table this plugin was given at registration. Each plugin library
/// has its own copy of the SDK, so one global per library is one per plugin.
enum HostServices {
    nonisolated(unsafe) private(set) static var table: UnsafePointer<storeplugin_host>?

    static func install(_ table: UnsafePointer<storeplugin_host>) {
        self.table = table
    }

    static var host: storeplugin_host {
        guard let table else { fatalError("StorePlugin: the host table is used before registration") }
        return table.pointee
    }

    static func log(_ level: Int32, _ message: String) {
        guard let table, let log = table.pointee.log else { return }
        message.withCString { log(table.pointee.host_data, level, $0) }
    }

    /// Runs `body` on the main thread (where every call into the host must happen) and
    /// returns its result.
    static func onMain<T: Sendable>(_ body: @MainActor () -> T) -> T {
        if Thread.isMainThread {
            return MainActor.assumeIsolated(body)
        }
        return DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
    }
}

extension UnsafeMutablePointer where Pointee == sp_error {
    /// Writes `message` into the caller's error buffer, truncated to fit.
    func write(_ message: String) {
        withUnsafeMutableBytes(of: &pointee.message) { buffer in
            let bytes = Array(message.utf8.prefix(buffer.count - 1))
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
    }
}
