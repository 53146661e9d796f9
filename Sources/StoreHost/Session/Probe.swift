package import StoreValue

/// What a probe checks after every action it sends: the invariants, the postconditions
/// of the action taken, and the model's own checks in code.
package struct ProbeChecks: Sendable, Equatable {
    package var invariants: [StateCondition]
    package var postconditions: [ExplorePostcondition]
    /// Whether the model's checks in code (`ModelDescriptor.checks`) are asked too.
    package var inCode: Bool

    package init(invariants: [StateCondition], postconditions: [ExplorePostcondition], inCode: Bool) {
        self.invariants = invariants
        self.postconditions = postconditions
        self.inCode = inCode
    }
}

/// What a probe found: per action it took, whether the model accepted it and a hash of
/// the state after it (`Value.stableHash`), and how it ended.
package struct ProbeOutcome: Sendable {
    /// How a probe ended.
    package enum End: Sendable, Equatable {
        /// Every action was taken and every check held.
        case ran
        /// The last action taken started effects, which a probe does not settle: the
        /// caller sends the actions again one at a time.
        case startedEffects
        /// A check did not hold after the last action taken: the caller takes the steps
        /// again one at a time to say which and why.
        case broke
        /// The state could not be read after the last action taken.
        case unreadable(String)
    }

    package var accepted: [Bool] = []
    package var stateHashes: [Int] = []
    package var end = End.ran
    /// After `ran`: the state the session applies (the store's state after the last action).
    package var stateAfter: StateUpdate?

    package init() {}
}

extension StoreConnection {
    /// A connection that cannot probe says so: the caller sends the actions its usual way.
    package func probe(_ actions: [(ActionDescriptor, [Value])], checks: ProbeChecks) throws(SessionError)
        -> ProbeOutcome?
    {
        nil
    }
}

extension Session {
    /// Sends `actions` in order, where the model runs, checking `checks` after each and
    /// hashing each state, and stops at the first action that starts effects or breaks a
    /// check. Only the hashes and the state after the last action come back: `storesh
    /// explore`'s hot path (one round trip for a batch in a worker, no state diffed or
    /// kept per action). Nil when the connection cannot probe.
    package func probe(_ actions: [(ActionDescriptor, [Value])], checks: ProbeChecks) throws(SessionError)
        -> ProbeOutcome?
    {
        guard let outcome = try connection.probe(actions, checks: checks) else { return nil }
        if let update = outcome.stateAfter {
            try apply(update, diffing: false)
        } else if !outcome.accepted.isEmpty {
            isStale = true
        }
        return outcome
    }
}
