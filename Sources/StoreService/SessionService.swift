import StoreHost
package import StoreShell
package import StoreValue

/// The operations of one shell session, for clients that are not a terminal: `storesh mcp`
/// (the Model Context Protocol over stdio) today, the inspector over HTTP later. One core,
/// any number of transports: a transport lists `operations`, calls `perform`, renders the
/// `Outcome` (text and records, cut to size) and forwards `events()`.
///
/// Every operation is run by the `ShellCore` as the prompt's lines are (a `:command` line,
/// or an action handed over as values, `ActionValues`), so a client gets what the prompt
/// gives, errors and recovery included: a model that crashes is an error, and
/// its worker is started again with the history replayed. Operations run one at a time,
/// in the order they were asked for; what effects do between them comes as events.
@MainActor
package final class SessionService {
    /// The shell this service drives. Its `output` belongs to the service.
    package let core: ShellCore
    /// Outputs of the operation that is running; nil between operations.
    private var capturing: [ShellOutput]?
    /// True while an operation runs.
    package private(set) var isBusy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var subscribers: [Int: AsyncStream<ServiceEvent>.Continuation] = [:]
    private var nextSubscriber = 0
    /// The model whose actions `operations` offers, to see when it changes.
    private var offeredModel: ModelDescriptor?
    /// What happened in the session, newest last (`timeline`).
    package private(set) var timeline = Timeline()
    /// The summary as of the last step (an operation begun or ended, an output), for
    /// readers off the main actor.
    package nonisolated let snapshot = SessionSnapshot()

    /// A service driving `core`, which reports to it from now on. What the core reported
    /// to before (a prompt's printer) still gets every output first, so at a prompt what a
    /// client does (the inspector's "jump here") is printed as if typed.
    package init(core: ShellCore) {
        self.core = core
        let previous = core.output
        core.output = { [weak self] output in
            previous(output)
            self?.received(output)
        }
        offeredModel = core.current?.model
        publishSnapshot()
    }

    // MARK: Operations

    /// Every operation on offer now: the fixed ones (`SessionService.fixedOperations`),
    /// then one per action of the current model (`action_NAME`).
    package var operations: [Operation] {
        Self.fixedOperations + Self.actionOperations(of: core.current?.model)
    }

    /// The operation called `name`, if one is on offer.
    /// Action operations are made from the schema only for a name that can be one.
    package func operation(named name: String) -> Operation? {
        if let fixed = Self.fixedOperations.first(where: { $0.name == name }) { return fixed }
        guard name.hasPrefix(Self.actionPrefix) else { return nil }
        return Self.actionOperations(of: core.current?.model).first { $0.name == name }
    }

    /// Runs the operation called `name` with `arguments` (by parameter name). Arguments
    /// that do not fit its parameters are refused before anything runs.
    package func perform(_ name: String, arguments: [String: Value] = [:]) async -> Outcome {
        guard let operation = operation(named: name) else {
            var message = "unknown operation '\(name)'"
            if let near = Suggestion.nearest(to: name, in: operations.map(\.name)) {
                message += "; did you mean '\(near)'?"
            }
            return Outcome(operation: name, refusal: message)
        }
        let checked: OperationArguments
        do throws(OperationError) {
            checked = try OperationArguments(arguments, for: operation)
        } catch {
            return Outcome(operation: name, refusal: error.message)
        }
        switch operation.work {
        case .line(let line):
            do throws(OperationError) {
                return await run(try line(checked), as: operation)
            } catch {
                return Outcome(operation: name, refusal: error.message)
            }
        case .call(let command, let entry):
            let call: Operation.Entry
            do throws(OperationError) {
                call = try entry(checked)
            } catch {
                return Outcome(operation: name, refusal: error.message)
            }
            return await performing(operation, command: command) {
                await core.execute(command: call.text) { await call.run(core, .prompt) }
            }
        case .action(let action, let argumentNames):
            // The values go to the shell as they are: no text is written to be read again
            // (`call`, which the fuzz target `values` reaches through `actionValues(of:arguments:)`).
            let call = Self.call(action, argumentNames, checked)
            return await performing(operation) { core.execute(call) }
        }
    }

    /// Runs one shell line, as `run` does. Refused: more than one line, `:quit`.
    package func run(_ line: String, as operation: Operation? = nil) async -> Outcome {
        let name = operation?.name ?? "run"
        if line.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            return Outcome(operation: name, refusal: "one line at a time: the line holds a line break")
        }
        let command = ShellCore.commandName(ofLine: line)
        if command == "quit" {
            return Outcome(
                operation: name, refusal: "a client ends the session by closing its connection, not with :quit")
        }
        return await performing(operation, command: command) { await core.execute(line) }
    }

    /// Runs `body` (the shell doing `operation`, or any line: nil) when no other operation
    /// runs, capturing what the shell reports into its outcome. `command` names the
    /// `:command` it runs, if it runs one.
    private func performing(
        _ operation: Operation?, command: String? = nil, _ body: () async -> Bool
    ) async -> Outcome {
        await exclusively {
            capturing = []
            let succeeded = await body()
            let outputs = capturing ?? []
            capturing = nil
            let changed = operation?.readsOnly != true && Self.mayChangeState(command: command, outputs: outputs)
            settle(stateChanged: changed, timelineGrew: outputs.contains(where: Timeline.records))
            return Outcome(
                operation: operation?.name ?? "run", succeeded: succeeded, outputs: outputs,
                narrowing: operation?.narrowing ?? "ask for less")
        }
    }

    /// Runs work that drives the core itself (a line typed at the prompt, a script) one at
    /// a time with the operations: an operation asked for meanwhile waits for it. What the
    /// core reports meanwhile goes out as events; then subscribers hear that the state may
    /// have changed.
    package func runOutside(_ work: () async -> Void) async {
        await exclusively {
            await work()
            settle(stateChanged: true, timelineGrew: false)
        }
    }

    // MARK: Events

    /// A stream of what happens in the session: state changes (by operations and by
    /// effects), new timeline entries, a new set of operations (another model, a reload),
    /// and what effects report between operations. Ends when the caller stops iterating.
    package func events() -> AsyncStream<ServiceEvent> {
        let (stream, continuation) = AsyncStream<ServiceEvent>.makeStream(bufferingPolicy: .bufferingNewest(1_000))
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { _ in Task { @MainActor [weak self] in self?.subscribers[id] = nil } }
        return stream
    }

    private func publish(_ event: ServiceEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    /// Everything the shell reports comes here: into the running operation's outcome, or
    /// (between operations: an effect's events and actions, a worker's loss) out as events.
    private func received(_ output: ShellOutput) {
        timeline.append(output, at: core.host.clock.now / 1_000_000)
        publishSnapshot()
        if capturing != nil {
            capturing?.append(output)
            return
        }
        publish(.output(output))
        var changed = false
        switch output {
        case .applied: changed = true
        case .action(_, let result): changed = result.stateChanged  // a line the front end ran itself
        case .error: changed = true  // a lost worker, recovered: its state was rebuilt
        default: break
        }
        settle(stateChanged: changed, timelineGrew: Timeline.records(output))
    }

    /// After an operation or an event: says what changed.
    private func settle(stateChanged: Bool, timelineGrew: Bool) {
        if stateChanged { publish(.stateChanged) }
        if timelineGrew { publish(.timelineChanged) }
        let model = core.current?.model
        if model !== offeredModel {
            offeredModel = model
            publish(.operationsChanged)
        }
    }

    /// Whether a line may have changed the state: an action that changed it, or a command
    /// (`command`: its name) that is not one of those that only read.
    private static func mayChangeState(command: String?, outputs: [ShellOutput]) -> Bool {
        guard let word = command else {
            return outputs.contains { output in
                switch output {
                case .action(_, let result): result.stateChanged
                case .applied: true
                default: false
                }
            }
        }
        return !ShellCore.commandReadsOnly(word)
    }

    /// Runs `body` when no other operation runs, in the order of asking.
    private func exclusively<Result>(_ body: () async -> Result) async -> Result {
        if isBusy {
            await withCheckedContinuation { waiting.append($0) }
        }
        isBusy = true
        publishSnapshot()
        defer {
            if waiting.isEmpty { isBusy = false } else { waiting.removeFirst().resume() }
            publishSnapshot()
        }
        return await body()
    }

    /// Makes the snapshot of the summary again (a few microseconds: a line per model).
    private func publishSnapshot() {
        snapshot.publish(summaryJSON(), busy: isBusy)
    }
}

/// What a `SessionService` tells its transports between answers.
package enum ServiceEvent: Sendable, Equatable {
    /// The state may have changed: an action, an effect's action, a jump in time.
    case stateChanged
    /// The timeline has new entries.
    case timelineChanged
    /// The operations on offer changed: another model is current, or its plugin was reloaded.
    case operationsChanged
    /// Something the shell reported between operations (an effect's event or action, a
    /// worker lost and recovered).
    case output(ShellOutput)
}
