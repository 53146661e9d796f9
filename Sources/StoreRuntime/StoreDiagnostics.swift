import Foundation

/// Where the store libraries say that an update did nothing because what its action
/// addressed is not there: an action for a keyed child whose key is missing, or for an
/// optional child that is nil. Usually a mistake (a typo'd key in a test, an action that
/// arrived after its child was removed), and silent otherwise — TCA reports the same
/// cases as runtime warnings. Nothing listens by default; storesh's plugin SDK shows
/// them as warnings after the action.
public enum StoreDiagnostics {
    /// Receives each report, on the thread the update runs on, in the middle of the
    /// update. Read and written under a lock: updates may run on any thread.
    public static var report: (@Sendable (String) -> Void)? {
        get { listener.value }
        set { listener.value = newValue }
    }

    private static let listener = Listener()

    /// The listener, behind a lock (read only when a child is missing: never on the
    /// path of an update that finds its child).
    private final class Listener: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: (@Sendable (String) -> Void)?

        var value: (@Sendable (String) -> Void)? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}
