import CStorePlugin
import StoreValue

// Reading the state of a store in this process: the plugin's changes since its last
// report when it can say (`snapshot_changes_encoded`, else `snapshot_changes`), else the
// whole state, preferably as the bytes the plugin writes (`snapshot_encoded`), else as
// its value tree.
extension InProcessConnection {
    package func read(whole: Bool) throws(SessionError) -> StateUpdate {
        defer { Heartbeat.beat() }
        let number = lastUpdate + 1
        let asksForChanges = !whole && mayAskForChanges
        if asksForChanges, !snapshotsSmallState, let patches = readChanges() {
            if !reportsSmallChanges, lastWholeWasSmall { reportsSmallChanges = true }
            if checkedState != nil { return try checked(patches, number: number) }
            taken(number)
            return .changes(number: number, base: number - 1, patches: patches)
        }
        let state = try readWholeState()
        noteWholeRead(small: state.isSmaller(than: Self.smallState), asksForChanges: asksForChanges)
        return taken(number, whole: state)
    }

    /// `--check-changes`: the plugin's changes applied to the state last handed out and
    /// compared with a whole snapshot. When they do not give it, the error names the first
    /// place they part, and the snapshot is handed out instead of the changes.
    private func checked(_ patches: [StatePatch], number: UInt64) throws(SessionError) -> StateUpdate {
        let expected: Value
        do {
            expected = try StatePatch.apply(patches, to: checkedState ?? .null)
        } catch {
            host?.log?(.warning, Session.misfitWarning(model, error))
            return taken(number, whole: try readWholeState())
        }
        let whole = try readWholeState()
        guard whole != expected else {
            checkedState = whole
            taken(number)
            return .changes(number: number, base: number - 1, patches: patches)
        }
        let place =
            model.stateDiff.changes(from: expected, to: whole).first.map { change in
                ": at \(change.path) the changes give \(change.old?.brief() ?? "nothing"), the state is \(change.new?.brief() ?? "nothing")"
            } ?? ""
        host?.log?(
            .error,
            "\(model.qualifiedName): what the plugin reported as changed does not give its state (--check-changes)\(place)"
        )
        return taken(number, whole: whole)
    }

    package func outOfStep() {
        pluginBaseline = false
    }

    /// For a worker, which passes its plugin's state on: when the next read would be of the
    /// whole state (or `whole`), the state as the plugin wrote it (`snapshot_encoded`),
    /// every byte checked but nothing decoded, in `encodedState`; returns the read's
    /// number. Nil, having read nothing, when reads go otherwise (`read` then).
    package func readEncodedWhole(whole: Bool = false) throws(SessionError) -> UInt64? {
        // `--check-changes` keeps the state it hands out, as a value.
        guard checkedState == nil, whole || readsWhole, let store, let encoded = model.snapshotEncoded else {
            return nil
        }
        let asksForChanges = !whole && mayAskForChanges
        // The plugin's baseline is gone until the read is taken.
        pluginBaseline = false
        guard encode(store, with: encoded) == Int32(SP_OK) else { return nil }  // the tree is asked for, as `read` does
        let count = try parsedEncoding { reader throws(WireError) in try reader.skipValue() }
        noteWholeRead(small: count < Self.smallState, asksForChanges: asksForChanges)
        let number = lastUpdate + 1
        taken(number)
        return number
    }

    /// The read numbered `number` was handed out: the plugin's report is the baseline.
    private func taken(_ number: UInt64) {
        lastUpdate = number
        pluginBaseline = true
    }

    /// `state`, read whole, handed out as the read numbered `number`.
    private func taken(_ number: UInt64, whole state: Value) -> StateUpdate {
        if checkedState != nil { checkedState = state }
        taken(number)
        return .whole(number: number, state: state)
    }

    /// Whether the plugin may be asked for what changed (`snapshot_changes_encoded` or
    /// `snapshot_changes`) instead of for the whole state.
    private var mayAskForChanges: Bool {
        pluginBaseline && readsChanges && (model.snapshotChangesEncoded != nil || model.snapshotChanges != nil)
    }

    /// Whether the next read (not asked to be whole) is of the whole state.
    private var readsWhole: Bool {
        !mayAskForChanges || snapshotsSmallState
    }

    /// After a whole read: reads go straight to a snapshot while the plugin, asked for its
    /// changes, says nothing of a state that stays small.
    private func noteWholeRead(small: Bool, asksForChanges: Bool) {
        lastWholeWasSmall = small
        snapshotsSmallState = asksForChanges && !reportsSmallChanges && small
    }

    /// The plugin's changes since its last report, nil when it cannot say, or says
    /// something that is not a list of changes (a warning names what): written as bytes
    /// when the plugin can (`snapshot_changes_encoded`), else built as a tree. Either way
    /// the plugin's baseline is now gone until the caller takes the answer.
    private func readChanges() -> [StatePatch]? {
        pluginBaseline = false
        guard let store else { return nil }
        let entry = model.snapshotChangesEncoded != nil ? "snapshot_changes_encoded" : "snapshot_changes"
        do {
            if let encoded = model.snapshotChangesEncoded {
                var bytes = encodedChanges
                encodedChanges = []
                bytes.removeAll(keepingCapacity: true)
                defer { encodedChanges = bytes }
                guard Self.encode(store, with: encoded, into: &bytes) == Int32(SP_OK) else { return nil }
                return try StatePatch.list(encoded: bytes)
            }
            guard let changes = model.snapshotChanges, let tree = changes(store) else { return nil }
            defer { ValueFunctions.freeValue(tree) }
            return try StatePatch.list(try Value(reading: tree))
        } catch {
            host?.log?(
                .warning,
                "\(model.qualifiedName)'s \(entry) gave what is not a list of changes (\(error)); reading the whole state"
            )
            return nil
        }
    }

    /// `readWholeState().stableHash`, hashed straight from a C plugin's value tree (no
    /// value made): what a probe that checks no state property needs of each state.
    func wholeStateHash() throws(SessionError) -> Int {
        if model.snapshotEncoded == nil, let store {
            pluginBaseline = false
            if let snapshot = model.snapshot(store) {
                Heartbeat.beat()
                defer { ValueFunctions.freeValue(snapshot) }
                if let hash = Value.stableHash(reading: snapshot) { return hash }
            }
        }
        return try readWholeState().stableHash
    }

    func readWholeState() throws(SessionError) -> Value {
        defer { Heartbeat.beat() }  // a read is a sign of life (a model stuck in one has none)
        pluginBaseline = false
        if let store, let encoded = model.snapshotEncoded, encode(store, with: encoded) == Int32(SP_OK) {
            return try parsedEncoding { reader throws(WireError) in try reader.value() }
        }
        guard let store, let snapshot = model.snapshot(store) else {
            throw SessionError(message: "\(model.qualifiedName): the plugin returned no state snapshot")
        }
        defer { ValueFunctions.freeValue(snapshot) }
        do {
            return try Value(reading: snapshot)
        } catch {
            throw SessionError(message: "\(model.qualifiedName): cannot show the state: \(error)")
        }
    }

    /// Has the plugin write its state into `encodedState`, reusing its memory. The buffer is
    /// taken out while the plugin writes: a plugin that calls back into the host meanwhile
    /// (a read from an action it reports) finds none to share.
    private func encode(_ store: UnsafeMutableRawPointer, with encoded: ModelDescriptor.SnapshotEncoded) -> Int32 {
        var bytes = encodedState
        encodedState = []
        bytes.removeAll(keepingCapacity: true)
        let status = Self.encode(store, with: encoded, into: &bytes)
        encodedState = bytes
        return status
    }

    /// What `parse` reads of the bytes the plugin's `snapshot_encoded` wrote, which must be
    /// one value and nothing after it; the plugin's error when they are not.
    private func parsedEncoding<Result>(_ parse: (inout WireReader) throws(WireError) -> Result) throws(SessionError)
        -> Result
    {
        var reader = WireReader(encodedState)
        do {
            let result = try parse(&reader)
            try reader.finish(after: "the value")
            return result
        } catch {
            throw SessionError(
                message: "\(model.qualifiedName): snapshot_encoded wrote a state that does not parse: \(error)")
        }
    }

    /// Has the plugin write its state into `bytes`. Not on the main actor: a main-actor
    /// closure around the call is compiled with a check of its isolation, which costs
    /// 75–100 ns per read where no task runs (a worker answering a request).
    private nonisolated static func encode(
        _ store: UnsafeMutableRawPointer, with encoded: ModelDescriptor.SnapshotEncoded, into bytes: inout [UInt8]
    ) -> Int32 {
        withUnsafeMutablePointer(to: &bytes) { encoded(store, appendEncoded, $0) }
    }
}

/// `snapshot_encoded`'s write: appends to the `[UInt8]` the sink points to.
private let appendEncoded: @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int32 = {
    sink, bytes, count in
    guard let sink, count >= 0 else { return 1 }
    guard count > 0 else { return 0 }
    guard let bytes else { return 1 }
    sink.assumingMemoryBound(to: [UInt8].self).pointee.append(
        contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
    return 0
}
