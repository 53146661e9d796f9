import StoreHost
import StoreValue

/// What the debugging commands keep between lines: watches (`:watch`), breakpoints
/// (`:break`), the timer (`:timer`), and the session's tape that `:save-test` writes
/// from. One per `ShellCore`.
@MainActor
final class DebuggingState {
    /// An expression over a model's state to report whenever its value changes.
    struct Watch {
        let model: String
        /// As typed.
        let path: String
        let expression: PropertyNode
        /// What was at the path when last looked: nil when the path named nothing.
        var last: Value?
    }

    /// A condition that stops a run at the action that makes it true.
    struct Breakpoint {
        let model: String
        let condition: StateCondition
        /// Whether it held when last checked: it fires only when it starts to hold.
        var held: Bool
    }

    var watches: [Watch] = []
    var breakpoints: [Breakpoint] = []
    /// A breakpoint fired during the line being run: why. The line fails with it.
    var breakHit: String?
    /// A breakpoint fired in a script: the script stops after this line.
    var stopsScript = false
    /// Watch lines waiting for the output of the line that caused them.
    var pending: [ShellOutput] = []
    /// `:timer on`.
    var timer = false
    /// The last action line run, for `:check-after`.
    var lastAttempt: AttemptedAction?
    /// Where the last action's time went, shown after its result.
    var timing: SendPhases?
    /// What `:save-test` writes from, in the order it happened.
    var tape: [TapeStep] = []
    /// The last action line that failed, for `:bisect --crash` and `--error`.
    var lastFailure: FailedAction?
    /// Incidents (actions that took a worker down) each history had at its last failed
    /// action: one more at the next means that one crashed.
    var incidentsSeen: [ObjectIdentifier: Int] = [:]

    /// Whether an action line's end has anything to do (`ShellCore.lineDone` asks): a breakpoint
    /// fired, watch lines wait, or the timer has phases to show. Actions are not taped
    /// there (a failed one is noted as it fails).
    var hasWorkAfterAnAction: Bool { breakHit != nil || !pending.isEmpty || timing != nil }

    /// Whether every action is looked at as it is recorded (and scripts go line by line).
    var checksEachAction: Bool { !watches.isEmpty || !breakpoints.isEmpty || timer }
}

/// An action line as `:check-after` looks at it: the model, the action and its arguments,
/// the state before it (nil when it was not read), and whether the model accepted it.
struct AttemptedAction {
    let model: String
    let action: String
    let arguments: [Value]
    let old: Value?
    var accepted: Bool
}

/// One thing that happened in a session that a transcript of it must repeat, besides the
/// actions the history keeps: a load, a stub, a clock step, a check, or a line that
/// failed. Each is anchored to its model's history at the position it happened.
struct TapeStep {
    enum Kind: Equatable {
        /// `:load` as typed: a plugin name (found in the search path), or a path.
        case load(word: String, path: String, plugin: String)
        /// A command that succeeded (`:stub`, `:advance`, `:expect`, …), as typed.
        case command(String)
        /// A line that failed (an action the model refused, an `:expect` that failed).
        case failed(String)
    }

    let kind: Kind
    /// The model that was current, and its history then (nil once that history is gone).
    let model: String?
    weak var history: History?
    /// Actions applied in that history when it happened.
    let position: Int
    /// A stub stays in force through a reset: written even when its history is gone.
    let outlivesHistory: Bool
}

/// The last action line that failed: the model, its text, the position it was sent at,
/// and whether it took its worker down (`:bisect --crash`, `--error`).
struct FailedAction {
    let model: String
    let text: String
    let position: Int
    let crashed: Bool
}
