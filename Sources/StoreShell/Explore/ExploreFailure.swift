package import StoreHost
package import StoreValue

/// What makes an explored run fail, and where.
package struct ExploreFailure: Equatable, Sendable, CustomStringConvertible {
    package enum Kind: Equatable, Sendable {
        /// An invariant was false after a step (`explanation`: what was found).
        case invariant(StateCondition, explanation: String)
        /// A postcondition (`--after ACTION EXPR`) was false after a step that took ACTION.
        case postcondition(action: String, StateCondition, explanation: String)
        /// A check the model makes in its own code (`ModelDescriptor.checks`) was false
        /// after a step (`explanation`: what the model said it found, or nothing).
        case modelCheck(ModelCheck, explanation: String)
        /// The model's worker crashed (`WorkerLoss.description`: the signal, the runtime's
        /// message and the place in the model's code).
        case crash(String)
        /// The model did not answer in time (its worker was stopped).
        case hang(String)
        /// An effect failed (its label and message).
        case effectFailed(label: String?, message: String)
        /// The same steps in a fresh store gave another state.
        case nondeterministic(path: String, first: Value?, second: Value?)
        /// `--against`: after the step the state differs from the reference model's (at
        /// one of `paths`, or anywhere when there are none), or one of the two took the
        /// step and the other refused it (`explanation`: both values, or which took it).
        case differs(reference: String, paths: [String], explanation: String)
    }

    package let kind: Kind
    /// The step after which it was seen (0-based; -1: the initial state).
    package let step: Int

    package init(kind: Kind, step: Int) {
        self.kind = kind
        self.step = step
    }

    /// What stays the same when a run is shrunk: the invariant, the crash site, the
    /// effect's label, the path that differed. Not the step, nor the values found.
    package var signature: String {
        switch kind {
        case .invariant(let condition, _): "invariant \(condition)"
        case .postcondition(let action, let condition, _): "after \(action) \(condition)"
        case .modelCheck(let check, _): "check \(check.name)"
        case .crash(let site): "crash \(site)"
        case .hang: "hang"
        case .effectFailed(let label, _): "effect \(label ?? "")"
        case .nondeterministic(let path, _, _): "nondeterministic \(path)"
        case .differs(let reference, let paths, _): "against \(reference) \(paths.joined(separator: " "))"
        }
    }

    /// One line: "invariant balance >= 0 broken: balance is -1, expected >= 0".
    package var description: String {
        switch kind {
        case .invariant(let condition, let explanation): "invariant \(condition) broken: \(explanation)"
        case .postcondition(let action, let condition, let explanation):
            "postcondition of \(action) \(condition) broken: \(explanation)"
        case .modelCheck(let check, let explanation):
            "the model's \(check.kind) \"\(check.name)\" is broken" + (explanation.isEmpty ? "" : ": \(explanation)")
        case .crash(let site): "the model crashed: \(site)"
        case .hang(let what): "the model hung: \(what)"
        case .effectFailed(let label, let message): "effect \(label ?? "(no label)") failed: \(message)"
        case .nondeterministic(let path, _, _):
            // Not the two values: they are the model's nondeterminism, and the report and
            // its transcript are the same bytes for the same seed.
            "not deterministic: the same actions in a fresh store gave a different \(path)"
        case .differs(let reference, _, let explanation): "differs from \(reference): \(explanation)"
        }
    }

    /// A short word for JSON and tables.
    package var kindName: String {
        switch kind {
        case .invariant: "invariant"
        case .postcondition: "postcondition"
        case .modelCheck: "check"
        case .crash: "crash"
        case .hang: "hang"
        case .effectFailed: "effect"
        case .nondeterministic: "nondeterministic"
        case .differs: "differs"
        }
    }
}
