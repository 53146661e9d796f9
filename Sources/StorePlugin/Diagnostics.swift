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
    /// The dispatch in progress, if any. Its names are looked up, and the action's text
    /// written, only when there is a report: setting this costs one retain (the
    /// arguments), not one per name. Main-actor only, and set and cleared around one send,
    /// never changed in place across a call: its exclusivity needs no check at run time.
    @exclusivity(unchecked) @usableFromInline static var current: Dispatch?

    /// The box dispatching an action, by reference: not retained, as the box sets
    /// `current` around its own send and clears it before it returns.
    @usableFromInline
    struct Dispatch {
        @usableFromInline unowned(unsafe) let source: any DiagnosticsSource
        @usableFromInline let index: Int
        @usableFromInline let arguments: [Value]

        @inlinable
        init(source: any DiagnosticsSource, index: Int, arguments: [Value]) {
            self.source = source
            self.index = index
            self.arguments = arguments
        }
    }

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
            let action = current.source.diagnosedAction(at: current.index)
            action.context.services.log(
                Int32(SP_LOG_WARNING),
                "\(text(of: action.name, params: action.params, with: current.arguments)): \(message)")
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
        for message in reports {
            context.services.log(Int32(SP_LOG_WARNING), "\(label) (sent by an effect): \(message)")
        }
    }
}

/// What a report names: the store context and the action at a schema index.
@usableFromInline
@MainActor
protocol DiagnosticsSource: AnyObject {
    func diagnosedAction(at index: Int) -> (context: StoreContext, name: String, params: [Param])
}
