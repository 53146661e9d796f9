package import StoreValue

// Reading a session's state: the connection hands over the state whole or as the changes
// since its last update; the session applies them to the state it holds (in place when
// they fit), makes that the known state, and diffs it against the state before.
extension Session {
    /// Reads the state from the model again: only what changed, when the model can say.
    @discardableResult
    package func readState() throws(SessionError) -> Value {
        try read().state
    }

    /// Reads the state, makes it the known state, and says what changed since the last
    /// read. With `diffing`, the read's `changes` are the diff from the state before it.
    @discardableResult
    package func read(whole: Bool = false, diffing: Bool = false) throws(SessionError) -> StateRead {
        let changes = try apply(connection.read(whole: whole), diffing: diffing)
        var fresh = lastRead!
        if diffing { fresh.changes = changes }
        return fresh
    }

    /// Makes a state update from the connection the known state and returns the diff from
    /// the state before (empty unless `diffing`): a whole state as it is; changes applied
    /// in place. Changes that do not fit the state make the whole state read again,
    /// unless `mayAsk` is false (the state is then stale, and this throws).
    @discardableResult
    func apply(_ update: StateUpdate, diffing: Bool, mayAsk: Bool = true) throws(SessionError) -> [StateChange] {
        // During a send, the first read keeps the state before it for the send's diff.
        if sendInFlight, sendBase == nil { sendBase = knownState }
        switch update {
        case .whole(let number, let state):
            let changes = diffing ? model.stateDiff.changes(from: knownState, to: state) : []
            adopt(state, number: number, patches: nil)
            return changes
        case .changes(let number, _, let patches):
            do {
                return try applying(patches, number: number, diffing: diffing)
            } catch {
                logHost?.log?(.warning, Session.misfitWarning(model, error))
                connection.outOfStep()
                guard mayAsk else {
                    isStale = true
                    throw SessionError(message: "\(model.qualifiedName) reported a change that does not fit its state")
                }
                return try apply(connection.read(whole: true), diffing: diffing, mayAsk: false)
            }
        }
    }

    /// The warning for a model whose reported changes do not fit the state they change.
    static func misfitWarning(_ model: ModelDescriptor, _ error: StatePatch.Mismatch) -> String {
        "\(model.qualifiedName) reported a change that does not fit its state (\(error)); reading the whole state"
    }

    /// `patches` applied to the known state, as the read numbered `number`: in place when
    /// they are sets that fit (diffed from what they replace), else to a copy (diffed by
    /// looking where they touched). Throws, changing nothing, when they do not fit.
    private func applying(_ patches: [StatePatch], number: UInt64, diffing: Bool) throws(StatePatch.Mismatch)
        -> [StateChange]
    {
        if let tree = PatchTree(patches, over: knownState) {
            var changes: [StateChange] = []
            if diffing {
                changes = model.stateDiff.changes(applying: tree, to: &knownState, memo: identityMemo)
            } else {
                tree.apply(to: &knownState)
            }
            adopt(number: number, patches: patches)
            return changes
        }
        let state = try StatePatch.apply(patches, to: knownState)
        let changes =
            diffing
            ? model.stateDiff.changes(from: knownState, to: state, touched: StateTouch(patches), memo: identityMemo)
            : []
        adopt(state, number: number, patches: patches)
        return changes
    }

    /// Makes `state` the known state, read as the read numbered `number`.
    private func adopt(_ state: Value, number: UInt64, patches: [StatePatch]?) {
        knownState = state
        adopt(number: number, patches: patches)
    }

    /// The known state is the read numbered `number`.
    private func adopt(number: UInt64, patches: [StatePatch]?) {
        isStale = false
        lastReadKept = (number, patches)
    }
}
