import CStorePlugin
import Dispatch
import Foundation
import StoreRuntime

/// The host's services table a model was registered with. Kept per model, not in a
/// global: one process may run several hosts (parallel test sessions), and a library
/// opened twice is the same image with the same globals.
struct HostServices: @unchecked Sendable {
    let table: UnsafePointer<storeplugin_host>

    var host: storeplugin_host { table.pointee }

    /// The host as `EffectScheduling` names it: its table's address.
    var scope: EffectScheduling.Scope { UInt(bitPattern: table) }

    func log(_ level: Int32, _ message: String) {
        guard let log = table.pointee.log else { return }
        message.withCString { log(table.pointee.host_data, level, $0) }
    }

    /// Runs `body` on the main thread (where every call into the host must happen) and
    /// returns its result.
    static func onMain<T: Sendable>(_ body: @MainActor () -> T) -> T {
        if MainQueue.isCurrent {
            return MainQueue.onCurrent(body)
        }
        return DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
    }
}
