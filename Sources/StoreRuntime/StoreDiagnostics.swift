/// Where the store libraries say that an update did nothing because what its action
/// addressed is not there: an action for a keyed child whose key is missing, or for an
/// optional child that is nil. Usually a mistake (a typo'd key in a test, an action that
/// arrived after its child was removed), and silent otherwise — TCA reports the same
/// cases as runtime warnings. Nothing listens by default; storesh's plugin SDK shows
/// them as warnings after the action.
public enum StoreDiagnostics {
    /// Receives each report. Set it before any update runs (a host sets it once); it is
    /// called on the thread the update runs on, in the middle of the update.
    nonisolated(unsafe) public static var report: (@Sendable (String) -> Void)?
}
