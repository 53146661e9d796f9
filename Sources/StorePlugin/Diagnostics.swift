import StoreRuntime
import CStorePlugin

/// Shows what the store libraries tell `StoreDiagnostics` (an action for a keyed child
/// that is not there) as a warning in the host's log, after the action that caused it
/// and named by it: otherwise such an action is a silent "no change", and a transcript
/// that records one tests nothing. Only reports made while the host's own action runs are
/// shown — not replays for time travel, which would repeat them.
@usableFromInline
@MainActor
enum DiagnosticsRoute {
    /// The store context and action name of the dispatch in progress, if any.
    @usableFromInline static var current: (context: StoreContext, action: String)?

    /// Listens to `StoreDiagnostics` (once for the plugin's copy of the store libraries).
    static func install() {
        guard !installed else { return }
        installed = true
        StoreDiagnostics.report = { message in
            // Updates run on the main queue; a report from anywhere else has no dispatch.
            guard MainQueue.isCurrent else { return }
            MainQueue.onCurrent { deliver(message) }
        }
    }

    private static var installed = false

    private static func deliver(_ message: String) {
        guard let current else { return }
        current.context.services.log(Int32(SP_LOG_WARNING), "\(current.action): \(message)")
    }
}
