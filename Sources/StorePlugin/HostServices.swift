import CStorePlugin
import Dispatch
import Foundation

/// The host's services table a model was registered with. Kept per model, not in a
/// global: one process may run several hosts (parallel test sessions), and a library
/// opened twice is the same image with the same globals.
struct HostServices: @unchecked Sendable {
    let table: UnsafePointer<storeplugin_host>

    var host: storeplugin_host { table.pointee }

    func log(_ level: Int32, _ message: String) {
        guard let log = table.pointee.log else { return }
        message.withCString { log(table.pointee.host_data, level, $0) }
    }

    /// Runs `body` on the main thread (where every call into the host must happen) and
    /// returns its result.
    static func onMain<T: Sendable>(_ body: @MainActor () -> T) -> T {
        if isOnMainQueue {
            return MainActor.assumeIsolated(body)
        }
        return DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
    }

    /// True on the main queue. Not `Thread.isMainThread`: once the main thread calls
    /// `dispatchMain()` (as async programs and test runners on Linux do), main-queue work
    /// runs on a worker thread.
    private static var isOnMainQueue: Bool {
        _ = markMainQueue
        return DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    private static let markMainQueue: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
}

