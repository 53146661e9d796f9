package import StoreValue

// What a session's reads, sends and events give back: the values `Session` hands out.

/// One read of a session's state: the state, and how it came from the read before.
package struct StateRead: Sendable {
    package var state: Value
    /// The state `patches` apply to (the previous read's); nil when read whole.
    package let previous: Value?
    /// What changed since the previous read; nil when the state was read whole.
    package let patches: [StatePatch]?
    /// Counts the session's reads from 1; a worker's reads are numbered by the worker.
    package let number: UInt64
    /// The diff from the state before this read, when the read was asked to work it out.
    package var changes: [StateChange]?
    /// `state` as the plugin wrote it (`snapshot_encoded`), when the session keeps that:
    /// a worker sends these bytes on rather than encode the state again.
    package var encoded: [UInt8]?

    package init(state: Value, previous: Value?, patches: [StatePatch]?, number: UInt64) {
        self.state = state
        self.previous = previous
        self.patches = patches
        self.number = number
    }
}

/// A session could not be created or an action failed inside the plugin.
package struct SessionError: Error, Equatable, CustomStringConvertible {
    package let message: String
    /// Set when the model's worker process died, hung or was stopped: the session must be
    /// recovered in a new worker.
    package var workerLoss: WorkerLoss?
    package var description: String { message }

    package init(message: String, workerLoss: WorkerLoss? = nil) {
        self.message = message
        self.workerLoss = workerLoss
    }
}

/// What one action did.
package struct SendResult: Equatable, Sendable {
    package let action: String
    package let stateChanged: Bool
    package let effectsStarted: Int
    /// The state diff, empty when nothing changed.
    package let changes: [StateChange]
    /// Why the state could not be read after the action (which was applied all the same).
    package var stateError: String?

    package init(
        action: String, stateChanged: Bool, effectsStarted: Int, changes: [StateChange], stateError: String? = nil
    ) {
        self.action = action
        self.stateChanged = stateChanged
        self.effectsStarted = effectsStarted
        self.changes = changes
        self.stateError = stateError
    }
}

/// Something that happened in a session outside a `send`.
package enum SessionEvent: Equatable, Sendable {
    case effect(EffectEventRecord)
    /// An effect's action was applied; `changes` is the state diff it caused (empty when
    /// the state was not being watched), `changed` whether it changed the state.
    case applied(action: String, changes: [StateChange], changed: Bool)
}

/// One effect event, as the plugin reported it, with the host-clock time it arrived.
package struct EffectEventRecord: Equatable, Sendable {
    package enum Kind: UInt32, Sendable {
        case started = 1, emitted, finished, failed, cancelled
    }

    package let kind: Kind
    package let effect: UInt64
    package let label: String?
    package let action: String?
    package let message: String?
    package let elapsedMilliseconds: Int64

    package init(
        kind: Kind, effect: UInt64, label: String?, action: String?, message: String?, elapsedMilliseconds: Int64
    ) {
        self.kind = kind
        self.effect = effect
        self.label = label
        self.action = action
        self.message = message
        self.elapsedMilliseconds = elapsedMilliseconds
    }
}

/// Why a textual action was not applied: a mistake in the text (with its byte offset), or
/// an error from the plugin. Either way the session and its state are unchanged.
package enum SendError: Error, Equatable, CustomStringConvertible {
    case text(TextError)
    case plugin(SessionError)

    package var description: String {
        switch self {
        case .text(let error): error.description
        case .plugin(let error): error.description
        }
    }
}

extension Session {
    /// Parses `text`, checks it against the schema, and sends it.
    package func send(text: String) throws(SendError) -> SendResult {
        let bound: (ActionDescriptor, [Value])
        do {
            bound = try ActionBinding.bind(ActionCall.parse(text), to: model)
        } catch {
            throw .text(error)
        }
        do {
            return try send(bound.0, arguments: bound.1)
        } catch {
            throw .plugin(error)
        }
    }
}
