import CStorePlugin
import StoreRuntime
import StoreValue

/// Shows what the store libraries tell `StoreDiagnostics` (an action for a keyed child
/// that is not there) as a warning in the host's log, after the action that caused it
/// and named by it: otherwise such an action is a silent "no change", and a transcript
/// that records one tests nothing. Reports made while the host's own action runs, or while
/// an effect's action is applied, are shown — not replays for time travel, which would
/// repeat them.
@usableFromInline
@MainActor
enum DiagnosticsRoute {
    /// The store context, action name, parameters and arguments of the dispatch in progress, if any.
    /// The action's text is written only when there is a report to name it by.
    @usableFromInline static var current: (context: StoreContext, name: String, params: [Param], arguments: [Value])?

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

    /// The action as the user writes it: `book["b9"].checkout`, not the schema's
    /// `book[].checkout`.
    static func text(of name: String, params: [Param], with arguments: [Value]) -> String {
        var writer = ActionTextWriter()
        let keyCount = writer.appendName(name, keys: arguments)
        for (param, value) in zip(params.dropFirst(keyCount), arguments.dropFirst(keyCount)) {
            writer.appendArgument(value, label: param.label)
        }
        return writer.text
    }
    /// While an effect's action is applied: the reports it made, shown once the host has
    /// been told of the action (as the host's own action's follow it).
    private static var effectReports: [String]?

    private static func deliver(_ message: String) {
        if let current {
            current.context.services.log(Int32(SP_LOG_WARNING), "\(text(of: current.name, params: current.params, with: current.arguments)): \(message)")
        } else if effectReports != nil {
            effectReports!.append(message)
        }
    }

    /// An effect's action is about to be applied: what it causes is kept for `showEffectReports`.
    @usableFromInline static func collectForEffectAction() { effectReports = [] }

    /// Shows what the effect's action just applied caused, named by the action (`action`
    /// is rendered only when there is something to show).
    @usableFromInline static func showEffectReports(_ context: StoreContext, action: @autoclosure () -> String) {
        guard let reports = effectReports else { return }
        effectReports = nil
        guard !reports.isEmpty else { return }
        let label = action()
        for message in reports { context.services.log(Int32(SP_LOG_WARNING), "\(label) (sent by an effect): \(message)") }
    }
}
