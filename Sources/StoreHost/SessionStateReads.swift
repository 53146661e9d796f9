import CStorePlugin
public import StoreValue

// Reading a session's state: whole or as the changes the plugin (or the worker) reports,
// checked, made the known state, and diffed against the state before.
extension Session {
    /// Reads the state from the plugin again: only what changed, when the plugin can say.
    @discardableResult
    public func readState() throws(SessionError) -> Value {
        try read().state
    }

    /// Reads the state, makes it the known state, and says what changed since the last
    /// read (a model in a worker: the worker says; in this process: the plugin's
    /// `snapshot_changes`, else a whole snapshot). With `diffing`, the read's `changes`
    /// are the diff from the state before it.
    @discardableResult
    package func read(whole: Bool = false, diffing: Bool = false) throws(SessionError) -> StateRead {
        keepSendBase()
        if let remote { return try accept(remote.read(whole: whole), from: remote, diffing: diffing) }
        let number = (lastReadKept?.number ?? 0) + 1
        let asksForChanges = !whole && mayAskForChanges
        var fresh: StateRead
        if asksForChanges, !snapshotsSmallState, let patches = readChanges() {
            if !reportsSmallChanges, knownState.isSmaller(than: Self.smallState) { reportsSmallChanges = true }
            var applied: StateRead?
            do {
                // With `checksChanges` they are checked against a whole snapshot, which may
                // then be the state: diffed after that.
                applied = try applying(patches, number: number, diffing: diffing && !checksChanges, inPlace: !checksChanges)
            } catch {
                logHost?.log?(.warning, "\(model.qualifiedName) reported a change that does not fit its state (\(error)); reading the whole state")
            }
            if let applied, checksChanges {
                fresh = try checked(applied)
                if diffing { fresh.changes = diff(from: knownState, to: fresh) }
            } else if let applied {
                fresh = applied
            } else {
                fresh = try wholeRead(number: number, diffing: diffing)
            }
        } else {
            fresh = try wholeRead(number: number, diffing: diffing)
            noteWholeRead(small: fresh.state.isSmaller(than: Self.smallState), asksForChanges: asksForChanges)
        }
        adopt(fresh)
        pluginBaseline = true
        return fresh
    }

    /// What a send in this process reads after an action that changed a state read whole
    /// (a small state, or a plugin that cannot report changes): the diff from the known
    /// state, which the new state then becomes — `read(diffing: true)` without a
    /// `StateRead` and its copies, which cost more than the diff of a small state. Nil,
    /// having read nothing, when reads of this session go otherwise (`read` then).
    func readWholeDiffed() throws(SessionError) -> [StateChange]? {
        guard remote == nil, !sendInFlight, readsWhole else { return nil }
        let asksForChanges = mayAskForChanges // before the read, which drops the baseline
        let number = (lastReadKept?.number ?? 0) + 1
        let state = try readWholeState()
        let changes = model.stateDiff.changes(from: knownState, to: state)
        noteWholeRead(small: state.isSmaller(than: Self.smallState), asksForChanges: asksForChanges)
        adoptWhole(state, number: number)
        pluginBaseline = true
        return changes
    }

    /// For a worker, which passes its plugin's state on: the state read whole as the
    /// plugin wrote it (`snapshot_encoded`), every byte checked but nothing decoded — the
    /// known state is decoded from the bytes only if something asks for it. Nil, having
    /// read nothing, when reads of this session go otherwise (`read` then).
    package func readEncodedWhole() throws(SessionError) -> (number: UInt64, bytes: [UInt8])? {
        guard remote == nil, !sendInFlight, !checksChanges, readsWhole, let store, let encoded = model.snapshotEncoded else { return nil }
        let asksForChanges = mayAskForChanges
        // As `readWholeState`: the plugin's baseline is gone until the read is taken.
        (pluginBaseline, encodedStateIsCurrent) = (false, false)
        var bytes = encodedState
        encodedState = []
        bytes.removeAll(keepingCapacity: true)
        guard Self.encode(store, with: encoded, into: &bytes) == Int32(SP_OK) else {
            encodedState = bytes
            return nil // the tree is asked for, as `read` does
        }
        let count: Int
        do {
            count = try parsedEncoding(bytes) { reader throws(WireError) in try reader.skipValue() }
        } catch {
            encodedState = bytes
            throw error
        }
        let number = (lastReadKept?.number ?? 0) + 1
        noteWholeRead(small: count < Self.smallState, asksForChanges: asksForChanges)
        // The old known state's buffer is the next read's.
        let old = knownStateEncoding
        knownState = .null
        knownStateEncoding = bytes
        encodedState = old ?? []
        isStale = false
        lastReadKept = (number, nil)
        pluginBaseline = true
        return (number, bytes)
    }

    private func wholeRead(number: UInt64, diffing: Bool) throws(SessionError) -> StateRead {
        var fresh = StateRead(state: try readWholeState(), previous: nil, patches: nil, number: number)
        if keepsEncodedState, encodedStateIsCurrent { fresh.encoded = encodedState }
        if diffing { fresh.changes = model.stateDiff.changes(from: knownState, to: fresh.state) }
        return fresh
    }

    /// During a send, the first read keeps the state before it for the send's diff.
    private func keepSendBase() {
        if sendInFlight, sendBase == nil { sendBase = knownState }
    }

    /// `patches` applied to the known state, as the read numbered `number`: in place when
    /// `inPlace` and they are sets that fit (diffed from what they replace), else to a copy
    /// (diffed by looking where they touched). Throws, changing nothing, when they do not
    /// fit the state. Does not make the result the known state.
    private func applying(_ patches: [StatePatch], number: UInt64, diffing: Bool, inPlace: Bool) throws(StatePatch.Mismatch) -> StateRead {
        if inPlace, let tree = PatchTree(patches, over: knownState) {
            var fresh = StateRead(state: .null, previous: nil, patches: patches, number: number)
            if diffing {
                fresh.changes = model.stateDiff.changes(applying: tree, to: &knownState, memo: identityMemo)
            } else {
                tree.apply(to: &knownState)
            }
            fresh.state = knownState
            return fresh
        }
        let state = try StatePatch.apply(patches, to: knownState)
        var fresh = StateRead(state: state, previous: knownState, patches: patches, number: number)
        if diffing { fresh.changes = model.stateDiff.changes(from: knownState, to: state, touched: StateTouch(patches), memo: identityMemo) }
        return fresh
    }

    /// Makes a state the worker sent the known state: a whole one as it is, changes applied
    /// as `applying` does. Changes that do not fit make the whole state read again, unless
    /// `mayAsk` is false (the state is then stale).
    func accept(_ state: WireState, from remote: RemoteStore, diffing: Bool, mayAsk: Bool = true) throws(SessionError) -> StateRead {
        keepSendBase()
        switch state {
        case .whole(let number, let value):
            var fresh = StateRead(state: value, previous: nil, patches: nil, number: number)
            if diffing { fresh.changes = model.stateDiff.changes(from: knownState, to: value) }
            adopt(fresh)
            return fresh
        case .changes(let number, _, let patches):
            if let fresh = try? applying(patches, number: number, diffing: diffing, inPlace: true) {
                adopt(fresh)
                return fresh
            }
            remote.outOfStep()
            guard mayAsk else {
                isStale = true
                throw SessionError(message: "\(model.qualifiedName): its worker sent changes that do not fit the state")
            }
            return try accept(remote.read(whole: true), from: remote, diffing: diffing, mayAsk: false)
        }
    }

    /// Makes `read` the known state and the last read.
    private func adopt(_ read: StateRead) {
        knownState = read.state
        isStale = false
        lastReadKept = (read.number, read.patches)
    }

    /// Whether the plugin may be asked for what changed (`snapshot_changes`) instead of for
    /// the whole state.
    private var mayAskForChanges: Bool {
        pluginBaseline && readsChanges && model.snapshotChanges != nil
    }

    /// Whether the next read (not asked to be whole) is of the whole state.
    private var readsWhole: Bool {
        !mayAskForChanges || snapshotsSmallState
    }

    /// After a whole read: reads go straight to a snapshot while the plugin, asked for its
    /// changes, says nothing of a state that stays small.
    private func noteWholeRead(small: Bool, asksForChanges: Bool) {
        snapshotsSmallState = asksForChanges && !reportsSmallChanges && small
    }

    /// `adopt` for a state read whole, without making a `StateRead` of it.
    func adoptWhole(_ state: Value, number: UInt64) {
        knownState = state
        isStale = false
        lastReadKept = (number, nil)
    }

    /// The plugin's changes since its last report, nil when it cannot say (or says
    /// something that is not a list of changes). Either way the plugin's baseline is now
    /// gone until the caller applies the answer.
    private func readChanges() -> [StatePatch]? {
        pluginBaseline = false
        guard let store, let changes = model.snapshotChanges, let tree = changes(store) else { return nil }
        defer { ValueFunctions.free_(tree) }
        guard case .array(let items)? = try? Value(reading: tree) else { return nil }
        var patches: [StatePatch] = []
        patches.reserveCapacity(items.count)
        for item in items {
            guard let patch = try? StatePatch(item) else { return nil }
            patches.append(patch)
        }
        return patches
    }

    /// With `checksChanges`, a read of changes compared with a whole snapshot: when they
    /// differ the error names the first place, and the whole snapshot is the state.
    private func checked(_ read: StateRead) throws(SessionError) -> StateRead {
        guard checksChanges else { return read }
        let whole = try readWholeState()
        guard whole != read.state else { return read }
        let where_ = model.stateDiff.changes(from: read.state, to: whole).first.map { change in
            ": at \(change.path) the changes give \(change.old?.brief() ?? "nothing"), the state is \(change.new?.brief() ?? "nothing")"
        } ?? ""
        logHost?.log?(.error, "\(model.qualifiedName): what the plugin reported as changed does not give its state (--check-changes)\(where_)")
        return StateRead(state: whole, previous: nil, patches: nil, number: read.number)
    }

    private func readWholeState() throws(SessionError) -> Value {
        pluginBaseline = false
        encodedStateIsCurrent = false
        if let store, let encoded = model.snapshotEncoded, let value = try readEncodedState(encoded, store) {
            encodedStateIsCurrent = true
            return value
        }
        guard let store, let snapshot = model.snapshot(store) else {
            throw SessionError(message: "\(model.qualifiedName): the plugin returned no state snapshot")
        }
        defer { ValueFunctions.free_(snapshot) }
        do {
            return try Value(reading: snapshot)
        } catch {
            throw SessionError(message: "\(model.qualifiedName): cannot show the state: \(error)")
        }
    }

    /// The state as the plugin writes it (`snapshot_encoded`), every byte checked; nil when
    /// the plugin said it could not (the tree is asked for then).
    private func readEncodedState(_ encoded: ModelDescriptor.SnapshotEncoded, _ store: UnsafeMutableRawPointer) throws(SessionError) -> Value? {
        // The buffer is taken out while the plugin writes: a plugin that calls back into
        // the session meanwhile (a read from an action it reports) finds none to share.
        var bytes = encodedState
        encodedState = []
        bytes.removeAll(keepingCapacity: true)
        let status = Self.encode(store, with: encoded, into: &bytes)
        encodedState = bytes
        guard status == Int32(SP_OK) else { return nil }
        return try parsedEncoding(bytes) { reader throws(WireError) in try reader.value() }
    }

    /// What `parse` reads of the bytes a plugin's `snapshot_encoded` wrote, which must be
    /// one value and nothing after it; the plugin's error when they are not.
    private func parsedEncoding<Result>(_ bytes: [UInt8], _ parse: (inout WireReader) throws(WireError) -> Result) throws(SessionError) -> Result {
        var reader = WireReader(bytes)
        do {
            let result = try parse(&reader)
            guard reader.atEnd else { throw WireError(description: "\(reader.byteCount - reader.offset) bytes follow the value") }
            return result
        } catch {
            throw SessionError(message: "\(model.qualifiedName): snapshot_encoded wrote a state that does not parse: \(error)")
        }
    }

    /// Has the plugin write its state into `bytes`. Not on the main actor: a main-actor
    /// closure around the call is compiled with a check of its isolation, which costs
    /// 75–100 ns per read where no task runs (a worker answering a request).
    private nonisolated static func encode(_ store: UnsafeMutableRawPointer, with encoded: ModelDescriptor.SnapshotEncoded, into bytes: inout [UInt8]) -> Int32 {
        withUnsafeMutablePointer(to: &bytes) { encoded(store, appendEncoded, $0) }
    }

    /// The diff from `before` to a read's state, looking only where the read's changes
    /// touched when they apply to `before`.
    private func diff(from before: Value, to read: StateRead) -> [StateChange] {
        if let patches = read.patches, let previous = read.previous, previous == before {
            return model.stateDiff.changes(from: before, to: read.state, touched: StateTouch(patches), memo: identityMemo)
        }
        return model.stateDiff.changes(from: before, to: read.state)
    }
}

/// `snapshot_encoded`'s write: appends to the `[UInt8]` the sink points to.
private let appendEncoded: @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int32 = { sink, bytes, count in
    guard let sink, count >= 0 else { return 1 }
    guard count > 0 else { return 0 }
    guard let bytes else { return 1 }
    sink.assumingMemoryBound(to: [UInt8].self).pointee.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
    return 0
}
