import Dispatch
import Foundation
package import StoreHost
import StoreValue

/// The shell without a terminal: runs lines (actions and `:commands`) against the current
/// model and reports what happened as `ShellOutput`. storesh's prompt, its batch mode and
/// the transcript runner all drive this one object.
@MainActor
package final class ShellCore: CommandContext, ExploreContext, ImportContext, InspectorContext, SaveTestContext {
    package let host: PluginHost
    /// Show the state diff after each action (`:diff on|off`).
    @exclusivity(unchecked) package var showDiff: Bool
    /// Report each action's result; off in `--quiet` runs, where only errors and asked-for
    /// output appear.
    @exclusivity(unchecked) package var reportActions: Bool
    /// Seconds effects get to settle after each step on a virtual clock before the shell
    /// takes them for waiting on something it does not control: real time in which they
    /// could run (a stalled turn costs 5 ms), and at most ten times as long in all
    /// (`EffectTimeBudget`).
    package var settleLimit: Double = 5
    /// Receives everything the shell reports, as it happens.
    package var output: (ShellOutput) -> Void
    /// Keep the state current after every action even when action results are not
    /// reported, so what effects apply still comes with its diff (`--format json --quiet`).
    @exclusivity(unchecked) package var watchesStateWhenQuiet = false
    /// Set by `:quit`.
    package private(set) var quitRequested = false

    /// The session of the current model.
    @exclusivity(unchecked) package private(set) var current: Session?
    var sessions: [String: Session] = [:]
    /// Each model's effects in flight and the ones that failed.
    var effects = EffectLedger()
    /// Each model's history and the journal written ahead of it.
    package let recorder = Recorder()
    /// Replaces lost workers and counts them.
    package let recovery = WorkerRecovery()
    /// Errors plugins and the host logged (a plugin's `SP_LOG_ERROR`, a failed
    /// `--check-changes`): a run with any fails, as one with a failed line does.
    package internal(set) var hostErrors = 0
    /// The services `:stub` replaced, by model.
    var stubs = ServiceStubs()
    /// The calls the in-process world could not control that the session has been told of
    /// ("plugin: call"), so it is told once.
    var worldWarnings: Set<String> = []
    /// Where relative file arguments (`:load ./x.so`, `:import`, `:export`) are found:
    /// a transcript's folder; nil for the working directory.
    package var baseDirectory: String?
    /// Asked by long-running work (`:wait`, `:advance`, a `:goto` replay, a script between
    /// statements): true (once) when the user pressed Ctrl-C. The front end sets it.
    package var takeInterrupt: () -> Bool = { false } {
        didSet { host.takeInterrupt = takeInterrupt }
    }
    /// The `--watch` timer, while one runs.
    var watchTimer: (any DispatchSourceTimer)?
    /// Set by `:fx leave-running`: effects still in flight at the end are not a failure.
    package var effectsMayOutlive: Bool {
        get { effects.mayOutlive }
        set { effects.mayOutlive = newValue }
    }
    /// Output produced while an action is being sent (effects it starts), shown after the
    /// action's own result line.
    @exclusivity(unchecked) var held: [ShellOutput]?
    /// Watches, breakpoints, the session's tape for `:save-test`, the timer.
    let debugging = DebuggingState()
    /// Starts the inspector's page on a port (nil: any free one) and answers its address,
    /// or says why it cannot (`:inspect`). Set by the front end that can serve one.
    package var startInspector: (@MainActor (_ port: Int?) async throws(ShellError) -> String)?
    /// What the inspector's reads of the past keep (`ShellCore+Inspection`).
    let inspection = InspectionState()
    /// How callbacks reach the core without a weak reference to it (see `WeakRoute`).
    private(set) lazy var route = WeakRoute(self)

    package init(
        host: PluginHost, showDiff: Bool = true, reportActions: Bool = true, output: @escaping (ShellOutput) -> Void
    ) {
        self.host = host
        self.showDiff = showDiff
        self.reportActions = reportActions
        self.output = output
        host.pluginLost = { [weak route] plugin, loss in
            guard let self = route?.target else { return }
            self.recovery.lostBetweenLines(plugin, loss, in: self)
        }
        // What plugins and the host say in passing (a plugin's log, a plugin whose changes
        // did not fit its state), unless the embedder listens itself. Debug is left out.
        if host.log == nil {
            host.log = { [weak route] level, message in
                guard let self = route?.target, level != .debug else { return }
                let word = level == .error ? "error" : level == .warning ? "warning" : "note"
                if level == .error { self.hostErrors += 1 }
                self.report(.info(kind: "message", lines: ["\(word): \(message)"]))
            }
        }
    }

    /// Runs one line. Returns false when it failed (the error has been reported); the
    /// session and its state are then as they were.
    @discardableResult
    package func execute(_ line: String, origin: LineOrigin = .prompt) async -> Bool {
        // A blank line does nothing at all; a comment only recovers lost workers, as
        // every line that is not blank does. A command is run from its ':'.
        let (kind, textStart) = LineKind.classify(line)
        guard kind != .blank else { return true }
        let inProcessWorld = beginLine()
        defer { endLine(inProcessWorld: inProcessWorld) }
        let started = debugging.timer ? DispatchTime.now().uptimeNanoseconds : 0
        switch kind {
        case .blank, .comment: return true
        case .command:
            let succeeded = await command(String(line[textStart...]), origin: origin)
            await deliverDueAnswers()
            return lineDone(line, kind: kind, succeeded: succeeded, origin: origin, started: started)
        case .action:
            let sent = send(line, origin: origin)
            await deliverDueAnswers()
            return lineDone(line, kind: kind, succeeded: sent, origin: origin, started: started)
        }
    }

    /// What runs before every line that is not blank, however it came (typed, a script's,
    /// values from MCP or the inspector): models run in this process see this host's clock
    /// and seed. Answers whether the line's end must look at that in-process world; models
    /// in workers have their own.
    func beginLine() -> Bool {
        guard host.isolation == .inProcess else { return false }
        host.driveInProcessWorld()
        return true
    }

    /// What runs after every line that is not blank: lost workers are replaced, and what
    /// the in-process world could not control is said (`inProcessWorld`: `beginLine`'s answer).
    func endLine(inProcessWorld: Bool) {
        recoverLostWorkers()
        if inProcessWorld { reportUncontrolledWorld() }
    }

    /// An action line, sent on its own. `followedByAnAction`: the next line of its script's
    /// group is an action line, sent before anything can read this one as the last
    /// attempted, so the state before it is not kept (`AttemptedAction.old`).
    func sendLine(_ line: String, origin: LineOrigin, followedByAnAction: Bool = false) -> Bool {
        let sent = send(line, origin: origin, keepingStateBefore: !followedByAnAction)
        // A worker lost on the way (an effect may have crashed it between lines) is started
        // again at once, so the next line finds its model, as it does at the prompt.
        if !sent { recoverLostWorkers() }
        return sent
    }

    /// Restarts every worker that is gone and rebuilds its sessions (`WorkerRecovery`).
    /// Run after each line, and when a worker dies between lines. `announce: false` when
    /// the caller goes on to report what happened itself. Returns how many were lost.
    @discardableResult
    func recoverLostWorkers(announce: Bool = true) -> Int {
        recovery.recoverLost(among: host.plugins, in: self, announce: announce)
    }

    // MARK: Actions

    /// `line` without the spaces around it, as Foundation's trimming of `.whitespaces`
    /// gives, without its cost for the usual line that has none.
    static func trimmed(_ line: String) -> String {
        // Bytes, not Characters: the usual line starts and ends with ASCII that is no space.
        guard let first = line.utf8.first, let last = line.utf8.last else { return line }
        if first < 0x80, last < 0x80, !Self.isSpace(first), !Self.isSpace(last) { return line }
        return line.trimmingCharacters(in: .whitespaces)
    }

    /// Why there is no current model, and what to do: none is loaded, or (a `--model` that
    /// named none) plugins are loaded and none of their models was chosen.
    var noCurrentModel: String {
        let loaded = host.plugins.flatMap { $0.models.map(\.qualifiedName) }
        if loaded.isEmpty { return "no model is loaded; load one with :load NAME" }
        return "no model is current; choose one with :use MODEL (loaded: \(loaded.joined(separator: ", ")))"
    }

    private func send(_ line: String, origin: LineOrigin, keepingStateBefore: Bool = true) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        let bound: (ActionDescriptor, [Value])
        do {
            bound = try ActionBinding.bind(ActionCall.parse(line), to: session.model)
        } catch {
            return fail(error.message, origin: origin, text: line, offset: error.offset)
        }
        return send(bound, line: line, to: session, origin: origin, keepingStateBefore: keepingStateBefore)
    }

    /// Sends an action already bound to `session`'s schema; `line` is its text as typed
    /// (or, given as values, as written from them). `keepingStateBefore`: `:check-after`'s
    /// `old(…)` may read the state before it. Kept, that state shares its storage with the
    /// session's, so applying the action's changes copies every list they touch: a cost
    /// in proportion to the state, paid only where a `:check-after` may follow.
    func send(
        _ bound: (ActionDescriptor, [Value]), line: String, to session: Session, origin: LineOrigin,
        keepingStateBefore: Bool = true
    ) -> Bool {
        let source: ActionSource = origin.file == nil ? .typed : .script
        if recorder.journal != nil {  // the record's text is rendered only for a journal
            let record = JournalRecord.action(
                model: session.model.qualifiedName, source: source, text: bound.0.text(with: bound.1))
            guard journalAhead(record, origin: origin, text: line) else { return false }
        }
        debugging.lastAttempt = AttemptedAction(
            model: session.model.qualifiedName, action: bound.0.name, arguments: bound.1,
            old: keepingStateBefore && session.stateIsKnown ? session.state : nil, accepted: false)
        return holdingEffectOutput {
            do throws(SessionError) {
                let result =
                    debugging.timer
                    ? try timedSend(session, bound.0, bound.1, observe: observesActions)
                    : try session.send(bound.0, arguments: bound.1, observe: observesActions)
                debugging.lastAttempt?.accepted = true
                return reportSent(result, of: bound.0, bound.1, line: line, origin: origin, in: session)
            } catch {
                retractJournal()
                if let loss = error.workerLoss {
                    recorder.histories[session.model.qualifiedName]?.noteIncident(
                        "\(bound.0.text(with: bound.1))  (not applied: \(Self.incidentWord(loss)) \(loss))")
                }
                return fail(error.message, origin: origin, text: line)
            }
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
    }

    /// Whether an action's result comes with the state after it and its diff.
    var observesActions: Bool { showDiff && (reportActions || watchesStateWhenQuiet) }

    /// What follows a sent action: it is recorded in the history, its result shown, and a
    /// state that could not be read after it is an error. False when that error happened.
    func reportSent(
        _ result: SendResult, of action: ActionDescriptor, _ arguments: [Value], line: String, origin: LineOrigin,
        in session: Session, snapshot: Bool = true
    ) -> Bool {
        let source: ActionSource = origin.file == nil ? .typed : .script
        let note = record(
            action, arguments, source: source, changed: result.stateChanged,
            diff: Self.knownDiff(changed: result.stateChanged, result.changes), in: session, snapshot: snapshot)
        if reportActions { output(.action(text: Self.trimmed(line), result: result)) }
        if let note { output(note) }
        if let problem = result.stateError { return fail("the action was applied, but \(problem)", origin: origin) }
        return true
    }

    /// Runs `body` with what it causes (effect events, effect actions) held back, then
    /// shows that: an action's own result comes first.
    func holdingEffectOutput<Result>(_ body: () -> Result) -> Result {
        held = []
        defer {
            let later = held ?? []
            held = nil
            later.forEach(output)
        }
        return body()
    }

    /// How `:log` names what happened to an action that took its worker down.
    static func incidentWord(_ loss: WorkerLoss) -> String {
        switch loss.cause {
        case .hung: "hung,"
        case .interrupted: "interrupted,"
        default: "crashed,"
        }
    }

    @discardableResult
    func fail(_ error: ShellError) -> Bool {
        if let text = error.text, LineKind.of(text) == .action { noteFailedAction(text) }
        output(.error(error))
        return false
    }

    // MARK: Models and sessions

    /// Makes `name` (a model, `plugin.model`, or a plugin whose first model is meant)
    /// current, creating its session on first use.
    package func use(_ name: String) throws(ShellError) {
        var model: ModelDescriptor
        do {
            model = try host.model(named: name)
        } catch {
            if let plugin = host.plugins.first(where: { $0.name == name }), let first = plugin.models.first {
                model = first
            } else {
                throw ShellError(error.description, origin: .prompt)
            }
        }
        if let substitute = host.modelSubstitutes.first(where: { [model.qualifiedName, model.name].contains($0.model) })
        {
            do {
                model = try host.model(named: substitute.other)
            } catch {
                throw ShellError(
                    "\(model.qualifiedName) is to run as \(substitute.other) (--substitute): \(error.description)",
                    origin: .prompt)
            }
        }
        try recorder.writeAhead(.use(model: model.qualifiedName))
        if let existing = sessions[model.qualifiedName] {
            current = existing
            return
        }
        do {
            current = try makeSession(model)
        } catch {
            retractJournal()
            throw error
        }
    }

    /// A new store for `old`'s model in its initial state, with the same stubs, replacing
    /// `old` (whose effects are cancelled as it goes).
    /// `cancelling`: a jump in time or a reset, which stops the old store's effects. Once
    /// the new store is made, each is reported cancelled, as a plugin's restore reports
    /// them, so what a jump prints does not depend on whether a snapshot was at hand.
    func freshSession(for old: Session, cancelling: Bool = false) throws(ShellError) -> Session {
        let fresh = try detachedSession(of: old.model)
        if cancelling { reportEffectsCancelled(in: old) }
        install(fresh, replacing: old)
        return fresh
    }

    /// A new store for `model` with the model's stubs, not yet the model's session: work
    /// that may still be refused (an import) is done on it before `install` makes it so.
    func detachedSession(of model: ModelDescriptor) throws(ShellError) -> Session {
        do {
            let session = try Session(model: model, host: host)
            try stubs.apply(to: session)
            return session
        } catch {
            throw ShellError(error.message, origin: .prompt)
        }
    }

    /// Makes `session` its model's session (and the current one if `old` was).
    func install(_ session: Session, replacing old: Session?) {
        let key = session.model.qualifiedName
        old?.onEvent = nil
        sessions[key] = session
        effects.startOver(key)
        if recorder.histories[key] == nil { recorder.histories[key] = recorder.newHistory(initial: session.state) }
        session.onEvent = { [weak route] event in route?.target.observe(event, in: key) }
        if let old, current === old { current = session }
    }

    private func makeSession(_ model: ModelDescriptor) throws(ShellError) -> Session {
        let session = try detachedSession(of: model)
        install(session, replacing: nil)
        return session
    }

    /// Replaces the current model's store with a new one in its initial state.
    package func reset() throws(ShellError) {
        guard let current else { throw ShellError(noCurrentModel, origin: .prompt) }
        try recorder.writeAhead(.reset)
        do {
            self.current = try freshSession(for: current, cancelling: true)
        } catch {
            retractJournal()
            throw error
        }
        recorder.histories[current.model.qualifiedName] = recorder.newHistory(initial: self.current!.state)
    }

    func requestQuit() { quitRequested = true }

    /// A file argument as the user means it: `~` is the home directory, and a relative
    /// path is relative to `baseDirectory` when there is one.
    func resolvePath(_ path: String) -> String {
        if path == "~" || path.hasPrefix("~/") {
            return NSHomeDirectory() + path.dropFirst()
        }
        guard let baseDirectory, !path.hasPrefix("/") else { return path }
        return baseDirectory + "/" + path
    }
}
