import StoreHost
import StoreValue

/// What `:bisect` needs beyond any command's context: the last action that failed, and
/// stores in a host and worker of their own, where replaying a crash leaves the session's
/// worker alone. `ShellCore` is the one conformer.
@MainActor
protocol BisectContext: CommandContext {
    /// The last action line that failed, for `--crash` and `--error`.
    var lastFailure: FailedAction? { get }
    /// A store of `model` in a host and worker of their own.
    func probeSession(of model: ModelDescriptor) throws(ShellError) -> Session
}

/// `:bisect`: the first action after which a condition holds (or stops holding), or from
/// whose state the last action that crashed or was refused does so again.
struct BisectCommand: ShellCommand {
    let name = "bisect"
    let readsOnly = true
    let usage = ":bisect PATH OP VALUE [--not] | --crash | --error"
    let summary = "find the first action after which a condition holds (or a later action crashes or fails)"
    let detail = [
        "OP as for :expect. The condition must hold now and not at the start; the history's snapshots and a binary search find the action, with at most ⌈log2 n⌉ + 1 replays in a store of its own (the session is left as it is). It assumes that once the condition holds it keeps holding, as git bisect does.",
        "--not: the first action after which it stops holding. --crash (a model in a worker) and --error: the first action from whose state the last action that crashed (or was refused) crashes (or is refused) again.",
        "It shows the action, the diff it made, and the :goto that shows the state before and after.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        bisect(arguments, origin: origin, in: core)
    }

    @MainActor private func bisect(_ arguments: CommandArguments, origin: LineOrigin, in context: some BisectContext)
        -> Bool
    {
        let args = arguments.words
        guard let session = context.current, let history = context.recorder.histories[session.model.qualifiedName]
        else {
            return context.fail(context.noCurrentModel, origin: origin)
        }
        guard session.model.supportsTimeTravel else {
            return context.fail(
                "\(session.model.qualifiedName) cannot travel in time: its plugin has no replay entry point",
                origin: origin)
        }
        if args == ["--crash"] || args == ["--error"] {
            return bisectFailure(
                crash: args == ["--crash"], session: session, history: history, origin: origin, in: context)
        }
        // The condition is the arguments as written, without --not (wherever it is).
        var text = arguments.text
        var negated = false
        if let range = CommandArguments.flagRange("--not", in: text) {
            negated = true
            text.replaceSubrange(
                range, with: String(repeating: " ", count: text.distance(from: range.lowerBound, to: range.upperBound)))
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            return context.fail("usage: :bisect PATH OP VALUE [--not] | --crash | --error", origin: origin)
        }
        guard let condition = context.parseCondition(text, in: arguments, origin: origin) else { return false }
        let identity = session.model.stateDiff
        let wanted = { (state: Value) in condition.holds(in: state, identity: identity) != negated }
        let position = history.position
        let now: Value
        do {
            now = try session.currentState()
        } catch {
            return context.fail(error.message, origin: origin)
        }
        let what = negated ? "stops holding" : "holds"
        guard wanted(now) else {
            let outcome = condition.check(now, identity: identity)
            let why =
                negated
                ? "\(condition.subject) is \(condition.subjectValue(in: now, identity: identity)?.compact ?? "missing")"
                : condition.explain(outcome) ?? ""
            return context.fail(
                "\(condition) \(negated ? "holds" : "does not hold") in the current state (\(why)); :bisect looks for the action after which it \(what), so it must \(negated ? "not hold" : "hold") where you are (at \(history.shown(position)))",
                origin: origin)
        }
        let past = PastStates(history: history, upTo: position) { () throws(ShellError) in
            try context.detachedSession(of: session.model)
        }
        past.note(now, at: position)
        defer {
            context.sayUnreplayable(upTo: position, in: history, of: session.model.qualifiedName, command: ":bisect")
        }
        do throws(ShellError) {
            if wanted(try past.state(after: 0)) {
                let start =
                    history.dropped == 0
                    ? "from the start, before any action" : "already after #\(history.dropped), the oldest action kept"
                context.output(
                    .report(
                        kind: "bisect", lines: ["\(condition) \(negated ? "does not hold" : "holds") \(start)"],
                        data: .record([
                            "action": .int(Int64(history.dropped)), "condition": .string(condition.description),
                            "negated": .bool(negated), "replays": .int(Int64(past.replays)),
                        ])))
                return true
            }
            // The first known state (a snapshot, or the current one) where it holds, then a
            // binary search between it and the known state before it.
            let points = past.knownPositions
            guard let high = points.first(where: { wanted((try? past.state(after: $0)) ?? .null) }) else {
                return false
            }
            var low = points.last { $0 < high } ?? 0
            var upper = high
            while upper - low > 1 {
                let middle = low + (upper - low) / 2
                if wanted(try past.state(after: middle)) { upper = middle } else { low = middle }
            }
            let before = try past.state(after: upper - 1)
            let after = try past.state(after: upper)
            let changes = history.diff(at: upper - 1) ?? identity.changes(from: before, to: after)
            report(
                bisectFound: upper, in: history, of: session.model, headline: "\(condition) first \(what) after",
                changes: changes, replays: past.replays,
                extra: [
                    ("condition", .string(condition.description)), ("negated", .bool(negated)),
                    ("value", condition.subjectValue(in: after, identity: identity) ?? .null),
                ], in: context)
            return true
        } catch {
            return context.fail(error.message, origin: origin)
        }
    }

    /// `:bisect --crash` / `--error`: the first action from whose state the last failed
    /// action fails the same way, replaying it (its update only) from the states between
    /// the start and where it failed.
    @MainActor private func bisectFailure(
        crash: Bool, session: Session, history: History, origin: LineOrigin, in context: some BisectContext
    ) -> Bool {
        let word = crash ? "crashed" : "was refused"
        guard let failure = context.lastFailure, failure.model == session.model.qualifiedName,
            failure.crashed == crash
        else {
            return context.fail(
                "no action of \(session.model.qualifiedName) \(word) in this session; :bisect --\(crash ? "crash" : "error") looks for the action that led to the last one that did",
                origin: origin)
        }
        guard !crash || session.containsCrashes else {
            return context.fail(
                "--crash replays a crash, which needs the model in a worker; start storesh without --in-process",
                origin: origin)
        }
        let bound: (ActionDescriptor, [Value])
        do {
            bound = try ActionBinding.bind(ActionCall.parse(failure.text), to: session.model)
        } catch {
            return context.fail(
                "'\(failure.text)' no longer binds to \(session.model.qualifiedName): \(error.message)", origin: origin)
        }
        guard failure.position <= history.entries.count else {
            return context.fail(
                "the history no longer reaches #\(history.shown(failure.position)), where '\(failure.text)' \(word)",
                origin: origin)
        }
        let model = session.model
        let makeStore: () throws(ShellError) -> Session =
            crash
            ? { () throws(ShellError) in try context.probeSession(of: model) }
            : { () throws(ShellError) in try context.detachedSession(of: model) }
        let past = PastStates(history: history, upTo: failure.position, makeStore: makeStore)
        defer {
            context.sayUnreplayable(upTo: failure.position, in: history, of: model.qualifiedName, command: ":bisect")
        }
        // Whether the failed action fails (the same way) from the state after `position`.
        func fails(after position: Int) throws(ShellError) -> Bool {
            let store = try past.move(to: position)
            past.moved()
            do {
                _ = try store.replay(bound.0.name, arguments: bound.1)
                return false
            } catch {
                if error.workerLoss != nil { past.forget() }
                return (error.workerLoss != nil) == crash
            }
        }
        do throws(ShellError) {
            if try fails(after: 0) {
                context.output(
                    .report(
                        kind: "bisect",
                        lines: [
                            "'\(failure.text)' \(crash ? "crashes" : "is refused") from the start, before any action"
                        ],
                        data: .record([
                            "action": .int(Int64(history.dropped)), "failed": .string(failure.text),
                            "crash": .bool(crash), "replays": .int(Int64(past.replays)),
                        ])))
                return true
            }
            var low = 0
            var upper = failure.position
            while upper - low > 1 {
                let middle = low + (upper - low) / 2
                if try fails(after: middle) { upper = middle } else { low = middle }
            }
            let identity = session.model.stateDiff
            let changes: [StateChange]
            if let known = history.diff(at: upper - 1) {
                changes = known
            } else {
                changes = identity.changes(from: try past.state(after: upper - 1), to: try past.state(after: upper))
            }
            report(
                bisectFound: upper, in: history, of: model,
                headline: "'\(failure.text)' \(crash ? "crashes" : "is refused") from the state after",
                changes: changes, replays: past.replays,
                extra: [
                    ("failed", .string(failure.text)), ("crash", .bool(crash)),
                ], in: context)
            return true
        } catch {
            return context.fail(error.message, origin: origin)
        }
    }

    /// The bisect record: action `index + 1` (0-based `index` is the entry before it) as
    /// found, its diff, and where `:goto` goes.
    @MainActor private func report(
        bisectFound position: Int, in history: History, of model: ModelDescriptor, headline: String,
        changes: [StateChange], replays: Int, extra: [(String, Value)], in context: some CommandContext
    ) {
        let entry = history.entries[position - 1]
        let number = history.shown(position)
        let action = entry.text(in: model)
        var lines = ["\(headline) #\(number) \(action) (\(entry.source.rawValue))"]
        lines += changes.isEmpty ? ["  (it changed nothing)"] : changes.map { "  " + $0.description }
        lines.append(
            ":goto \(number) shows the state after it, :goto \(number - 1) the one before (\(replays) replay\(replays == 1 ? "" : "s"))"
        )
        let fields: [(String, Value)] =
            [
                ("action", .int(Int64(number))), ("text", .string(action)), ("source", .string(entry.source.rawValue)),
                ("diff", .array(changes.map(\.record))), ("replays", .int(Int64(replays))),
            ] + extra
        context.output(
            .report(
                kind: "bisect", lines: lines, data: .record(type: nil, fields: fields.map { Value.Field($0.0, $0.1) })))
    }
}
