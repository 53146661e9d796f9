import StoreValue

/// For fuzzing the worker protocol's reader: decodes bytes as the stream a worker sends
/// storesh (frames; in each, a registration, a value, a list of values, or a plugin's
/// encoded changes) and checks that
/// every value read writes back to the same bytes. No input may crash it.
package enum WorkerWireCheck {
    /// How many frames were read, or the first oracle violation.
    package static func check(_ bytes: [UInt8]) -> Result<Int, OracleViolation> {
        var frames = FrameBuffer()
        bytes.withUnsafeBytes { frames.append($0) }
        var count = 0
        while let frame = try? frames.next() {
            count += 1
            var registration = WireReader(frame.body)
            _ = try? WorkerPlugin.readRegistration(&registration)
            var single = WireReader(frame.body)
            if let value = try? single.value(), let problem = roundTrip([value]) { return .failure(problem) }
            if let problem = skipAgrees(frame.body) { return .failure(problem) }
            var list = WireReader(frame.body)
            if let values = try? list.values(), let problem = roundTrip(values) { return .failure(problem) }
            var state = WireReader(frame.body)
            if case .changes(_, _, let patches)? = try? state.state(), let problem = applies(patches) {
                return .failure(problem)
            }
            var observed = WireReader(frame.body)
            if let problem = observedAnswers(&observed) { return .failure(problem) }
            // The body as a probe's answer: its changes, if it brings some, applied as above.
            var probe = WireReader(frame.body)
            if case .changes(_, _, let patches)? = (try? WorkerConnection.probeAnswer(&probe, sent: 64))?.outcome
                .stateAfter, let problem = applies(patches)
            {
                return .failure(problem)
            }
            // The body as a plugin's snapshot_changes_encoded: one list of changes.
            if let patches = try? StatePatch.list(encoded: frame.body), let problem = applies(patches) {
                return .failure(problem)
            }
        }
        return .success(count)
    }

    /// The body as the answer to an observed batch: its messages read as frames are, each
    /// action's answer read, then the state after the batch; changes in them applied as
    /// above.
    private static func observedAnswers(_ reader: inout WireReader) -> OracleViolation? {
        guard let count = try? reader.u32() else { return nil }
        for _ in 0..<min(count, 1024) {
            guard let prologue = try? WorkerConnection.observedPrologue(&reader) else { return nil }
            for message in prologue.messages {
                var body = WireReader(message.body)
                _ = try? body.state()
            }
            guard prologue.refusal == nil else { continue }
            guard let answer = try? WorkerConnection.sendAnswer(&reader) else { return nil }
            if case .success(.changes(_, _, let patches)?) = answer.state, let problem = applies(patches) {
                return problem
            }
        }
        guard (try? reader.bool()) == true, case .changes(_, _, let patches)? = try? reader.state() else { return nil }
        return applies(patches)
    }

    private static func appliesInPlace(_ patches: [StatePatch], to start: Value) -> OracleViolation? {
        let copied = try? StatePatch.apply(patches, to: start)
        guard let tree = PatchTree(patches, over: start) else {
            let allSets = patches.allSatisfy { if case .set = $0 { true } else { false } }
            return allSets && copied != nil
                ? OracleViolation(description: "sets that fit were not applied in place: \(patches)") : nil
        }
        guard let copied else {
            return OracleViolation(description: "changes that do not fit were applied in place: \(patches)")
        }
        var inPlace = start
        let changes = StateDiff().changes(applying: tree, to: &inPlace)
        if inPlace != copied {
            return OracleViolation(description: "changes applied in place give another state: \(patches)")
        }
        if changes != StateDiff().changes(from: start, to: copied) {
            return OracleViolation(description: "changes applied in place give another diff: \(patches)")
        }
        return nil
    }

    /// A value that did not survive being written and read again.
    package struct OracleViolation: Error, CustomStringConvertible {
        package let description: String
    }

    /// Changes from the wire applied to a small state: each either fits or is refused
    /// with the state left as it was; and the session's way of applying sets in place
    /// gives the state and the diff that applying them to a copy gives.
    private static func applies(_ patches: [StatePatch]) -> OracleViolation? {
        let start = Value.record([
            "items": .array([.int(1), .record(["a": .null, "id": .string("k")])]), "name": .string("x"),
        ])
        if let problem = appliesInPlace(patches, to: start) { return problem }
        var state = start
        for patch in patches {
            let before = state
            do {
                try patch.apply(to: &state)
            } catch {
                if state != before {
                    return OracleViolation(description: "a refused change altered the state: \(patch)")
                }
            }
        }
        return nil
    }

    /// A worker checks its plugin's state with `skipValue` and decodes it only when it
    /// needs it: the check must accept exactly what decoding accepts, end where it ends,
    /// count the values it holds, and fail with the same words.
    private static func skipAgrees(_ body: [UInt8]) -> OracleViolation? {
        var skipping = WireReader(body)
        var reading = WireReader(body)
        let skipped = Result { () throws(WireError) in try skipping.skipValue() }
        let read = Result { () throws(WireError) in try reading.value() }
        switch (skipped, read) {
        case (.success(let count), .success(let value)):
            if skipping.offset != reading.offset {
                return OracleViolation(
                    description: "skipValue ended at \(skipping.offset), value() at \(reading.offset)")
            }
            if count != nodeCount(value) {
                return OracleViolation(description: "skipValue counted \(count) values in \(value)")
            }
            return nil
        case (.failure(let skipError), .failure(let readError)):
            return skipError.description == readError.description
                ? nil : OracleViolation(description: "skipValue said '\(skipError)', value() '\(readError)'")
        case (.success, .failure(let readError)):
            return OracleViolation(description: "skipValue accepted what value() refuses: \(readError)")
        case (.failure(let skipError), .success):
            return OracleViolation(description: "skipValue refused what value() reads: \(skipError)")
        }
    }

    private static func nodeCount(_ value: Value) -> Int {
        switch value {
        case .array(let items): 1 + items.reduce(0) { $0 + nodeCount($1) }
        case .record(_, let fields), .enumCase(_, let fields): 1 + fields.reduce(0) { $0 + nodeCount($1.value) }
        default: 1
        }
    }

    private static func roundTrip(_ values: [Value]) -> OracleViolation? {
        var first = WireWriter()
        first.values(values)
        var reader = WireReader(first.bytes)
        guard let again = try? reader.values(), reader.atEnd else {
            return OracleViolation(description: "values written as \(first.bytes.count) bytes do not read back")
        }
        var second = WireWriter()
        second.values(again)
        return second.bytes == first.bytes
            ? nil : OracleViolation(description: "values read back differently: \(values) → \(again)")
    }
}
