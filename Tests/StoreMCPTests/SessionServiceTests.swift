import Foundation
import HostTestSupport
import StoreHost
import StoreService
import StoreShell
import StoreValue
import Testing

/// The transport-neutral core: operations made from the schema, arguments checked before
/// anything runs, answers cut to size, events for what happens between operations.
@MainActor
@Suite struct SessionServiceTests {
    /// A service on a fresh shell with `plugin` loaded and its first model current.
    static func service(_ plugin: String, clock: (any ShellClock)? = nil) throws -> SessionService {
        let host = makeHost(clock: clock)
        let core = ShellCore(host: host) { _ in }
        let loaded = try host.load(plugin)
        try core.use(loaded.models[0].qualifiedName)
        return SessionService(core: core)
    }

    /// The inspector's `state` route says what a rebuilt past state lacks (an effect's
    /// action the history could not keep), so the slider can show it.
    @Test func aPastStateSaysWhatItLacks() async throws {
        let host = makeHost()
        let core = ShellCore(host: host) { _ in }
        let model = pokedCounter()
        try host.addScripted(plugin: "mem", models: [model])
        try core.use("mem.counter")
        let service = SessionService(core: core)
        _ = await service.run("increment")
        try #require(model.latest).applyFromEffect("poke(")
        _ = await service.run("increment")
        let past = service.stateJSON(model: "mem.counter", after: 1)
        #expect(past.contains(#""lacking":[]"#), "\(past)")
        let rebuilt = service.stateJSON(model: "mem.counter", after: 2)
        #expect(rebuilt.contains(#""lacking":[]"#), "the session's own state: \(rebuilt)")
        _ = await service.run(":undo")
        let undone = service.stateJSON(model: "mem.counter", after: 2)
        #expect(undone.contains(#""lacking":[{"after":1,"note":"an effect applied 'poke('"#), "\(undone)")
        #expect(undone.contains(#""state":{"count":2}"#), "\(undone)")
    }

    @Test func everyActionIsAnOperationWithTypedParameters() throws {
        let service = try Self.service("Todos")
        let operations = Dictionary(uniqueKeysWithValues: service.operations.map { ($0.name, $0) })
        #expect(operations["action_add"]?.parameters.map(\.name) == ["title", "priority"])
        #expect(operations["action_add"]?.parameters.map(\.kind) == [.string, .int])
        // A keyed action takes its key first, then its own arguments (positional: arg1).
        #expect(operations["action_todos_rename"]?.parameters.map(\.name) == ["key", "arg1"])
        #expect(operations["action_todos_toggle"]?.parameters.map(\.kind) == [.string])
        // The session's own operations come first and keep their names.
        #expect(
            service.operations.prefix(SessionService.fixedOperations.count).map(\.name)
                == SessionService.fixedOperations.map(\.name))
    }

    @Test func aGeneratedOperationSendsTheActionItNames() async throws {
        let service = try Self.service("Todos")
        let added = await service.perform(
            "action_add", arguments: ["title": .string("milk \"2%\""), "priority": .int(2)])
        #expect(added.succeeded)
        let toggled = await service.perform("action_todos_toggle", arguments: ["key": .string("t1")])
        #expect(toggled.rendered().text.contains("todos[\"t1\"].done: false → true"))
        let state = await service.perform("state", arguments: ["path": .string("todos[0].title")])
        #expect(state.rendered().text == "\"milk \\\"2%\\\"\"")
    }

    @Test func bisectReadsAFlagInAQuotedValueAsTextAndRefusesOneOfItsOwn() async throws {
        let service = try Self.service("Todos")
        _ = await service.perform("action_add", arguments: ["title": .string("tea"), "priority": .int(1)])
        _ = await service.perform("action_add", arguments: ["title": .string("milk --not bread"), "priority": .int(2)])
        let found = await service.perform(
            "bisect", arguments: ["condition": .string(#"todos[1].title == "milk --not bread""#)])
        #expect(found.succeeded, "\(found.errors.map(\.message))")
        #expect(found.rendered().text.hasPrefix(#"todos[1].title == "milk --not bread" first holds after #2"#))
        let flagged = await service.perform("bisect", arguments: ["condition": .string("added >= 1 --not")])
        #expect(
            flagged.errors.map(\.message) == [
                "bisect: condition is PATH OP VALUE; '--not' is not part of it (not, crash and error are parameters)"
            ])
    }

    @Test func argumentsThatDoNotFitAreRefusedBeforeAnythingRuns() async throws {
        let service = try Self.service("Todos")
        let wrongKind = await service.perform("action_add", arguments: ["title": .int(3), "priority": .int(1)])
        #expect(wrongKind.errors.map(\.message) == ["action_add: 'title' should be a string, not int 3"])
        let missing = await service.perform("action_add", arguments: ["title": .string("x")])
        #expect(missing.errors.map(\.message) == ["action_add needs 'priority' (an int)"])
        let unknown = await service.perform("state", arguments: ["depht": .int(2)])
        #expect(unknown.errors.map(\.message) == ["state has no parameter 'depht'; its parameters: path, depth"])
        let badChoice = await service.perform(
            "expect", arguments: ["path": .string("added"), "op": .string("=>"), "value": .int(0)])
        #expect(badChoice.errors.first?.message.contains("one of ==, !=, <, <=, >, >=") == true)
        #expect(service.core.recorder.histories["todos.todos"]?.entries.isEmpty == true)
    }

    /// An action tool's values go to the shell as values and are checked as the same action
    /// typed is: the same message, and a column that points at the argument in its text.
    @Test func anActionsValuesAreCheckedAsItsTextIs() async throws {
        let service = try Self.service("Parcels")
        let typed = await service.perform("send", arguments: ["action": .string(#"ship sku: "box", via: "sea""#)])
        let given = await service.perform("action_ship", arguments: ["sku": .string("box"), "via": .string("sea")])
        #expect(!typed.succeeded && !given.succeeded)
        #expect(given.errors.map(\.message) == typed.errors.map(\.message) && !given.errors.isEmpty)
        #expect(given.errors.first?.column == typed.errors.first?.column && given.errors.first?.column != nil)
        #expect(given.errors.first?.text == #"ship sku: "box", via: "sea""#)
        let shipped = await service.perform("action_ship", arguments: ["sku": .string("box")])
        #expect(
            shipped.rendered().text.hasPrefix(#"ship sku: "box", via: "ground": state changed"#),
            "\(shipped.rendered().text)")
        #expect(service.core.recorder.histories.values.map(\.entries.count) == [1])
    }

    @Test func aBadActionIsTheShellsErrorWithItsColumn() async throws {
        let service = try Self.service("Counter")
        let outcome = await service.perform("send", arguments: ["action": .string("setCount true")])
        #expect(!outcome.succeeded)
        #expect(outcome.errors.first?.column == 10)
        #expect(outcome.rendered().record.contains(#""column":10"#))
        let command = await service.perform("send", arguments: ["action": .string(":reset")])
        #expect(command.errors.map(\.message) == ["send takes an action; a :command goes to the run tool"])
    }

    @Test func quitAndLineBreaksAreRefused() async throws {
        let service = try Self.service("Counter")
        #expect(await service.run(":quit").errors.first?.message.contains("closing its connection") == true)
        #expect(
            await service.run("increment\nincrement").errors.map(\.message) == [
                "one line at a time: the line holds a line break"
            ])
        #expect(!service.core.quitRequested)
    }

    @Test func aBigAnswerIsCutAndSaysHowToNarrowIt() async throws {
        let service = try Self.service("Todos")
        _ = await service.perform("action_seed", arguments: ["count": .int(2_000)])
        let whole = await service.perform("state").rendered()
        #expect(whole.cut)
        #expect(whole.text.count < Outcome.characterLimit + 200)
        #expect(whole.text.hasSuffix("read a part: give a path (todos[0]) or a depth"))
        #expect(whole.record.contains(#""cut":true"#) && whole.record.contains(#""narrow":"#))
        let part = await service.perform("state", arguments: ["path": .string("todos[1999].title")]).rendered()
        #expect(!part.cut)
    }

    @Test func theOperationsThatOnlyReadAreTheOnesWhoseCommandOnlyReads() throws {
        let service = try Self.service("Counter")
        // One table: the shell's commands say whether they read only, and an operation
        // reads only when its command does (this list and the service's own once disagreed
        // on :bisect, :why and :find).
        #expect(
            service.operations.filter(\.readsOnly).map(\.name).sorted() == [
                "bisect", "expect", "find", "log", "state", "why",
            ])
        #expect(ShellCore.commandReadsOnly("why") && ShellCore.commandReadsOnly("h"))
        #expect(!ShellCore.commandReadsOnly("goto") && !ShellCore.commandReadsOnly("q"))
        #expect(!ShellCore.commandReadsOnly("nope"))
    }

    /// Reading the state, time travel, the clock and loading go to the core as values, through the commands'
    /// typed entry points: nothing is written as a shell line to be read again, so a value
    /// the line's grammar would have split or misread arrives whole, and a duration that
    /// is none is refused before anything runs.
    @Test func commandsGoToTheCoreAsValues() async throws {
        let service = try Self.service("Counter")
        for _ in 0..<3 { _ = await service.perform("action_increment") }
        let back = await service.perform("goto", arguments: ["position": .int(1)])
        #expect(back.succeeded && back.rendered().text.contains("count: 3 → 1"), "\(back.rendered().text)")
        #expect(await service.perform("undo").rendered().text.contains("count: 1 → 0"))
        #expect(await service.perform("redo", arguments: ["with_effects": .bool(true)]).succeeded)
        let lowest = await service.perform("goto", arguments: ["position": .int(Int64.min)])
        #expect(lowest.errors.first?.message.hasPrefix("there is no action -9223372036854775808") == true)
        let notADuration = await service.perform("advance", arguments: ["duration": .string("1s --with-effects")])
        #expect(!notADuration.succeeded)
        #expect(
            notADuration.errors.first?.message
                == "duration: '1s --with-effects' is not a duration; write seconds (5) or 500ms, 2s, 1m (at most 365 days)"
        )
        #expect(await service.perform("advance", arguments: ["duration": .string("2s")]).succeeded)
        let spaced = await service.perform("use", arguments: ["model": .string("no such model")])
        #expect(spaced.errors.first?.message.contains("no such model") == true, "\(spaced.errors)")
        #expect(await service.perform("state", arguments: ["path": .string("count")]).rendered().text == "1")
        let badPath = await service.perform("state", arguments: ["path": .string("count[")])
        #expect(badPath.errors.first?.message.hasPrefix("path 'count[', column 7: ") == true, "\(badPath.errors)")
        let firstTwo = await service.perform("log", arguments: ["from": .int(1), "to": .int(2)]).rendered().text
        // The redo with effects made the history the one action sent again.
        #expect(firstTwo == "1  typed   increment\nat 1 of 1", "\(firstTwo)")
        let far = await service.perform("log", arguments: ["from": .int(Int64.max), "to": .int(Int64.max)])
        #expect(far.succeeded, "no action there, and no overflow: \(far.errors)")
        #expect(
            await service.perform("log", arguments: ["last": .int(0)]).errors.map(\.message) == [
                "log: last 0 is not a positive number"
            ])
        let noDepth = await service.perform("state", arguments: ["depth": .int(0)])
        #expect(noDepth.errors.map(\.message) == ["depth: 0 is not a positive number"])
        #expect(await service.perform("reset").succeeded)
        #expect(await service.perform("state", arguments: ["path": .string("count")]).rendered().text == "0")
    }

    /// `expect` builds its condition from the path, the operator and the value as given:
    /// the value is not written out and read again, and a path cannot change what the
    /// comparison means. Written out, `count == 1 || true == false` held whenever count
    /// was 1, though the client asked whether that path was false.
    @Test func anExpectationGoesToTheCoreAsACondition() async throws {
        let service = try Self.service("Counter")
        _ = await service.perform("action_increment")
        func expect(_ path: String, _ op: String, _ value: Value) async -> Outcome {
            await service.perform("expect", arguments: ["path": .string(path), "op": .string(op), "value": value])
        }
        #expect(await expect("count", "==", .int(1)).succeeded)
        #expect(await expect("count", ">=", .int(1)).succeeded)
        #expect(await expect("count + 1", "==", .int(2)).succeeded)
        #expect(
            await expect("count", "==", .int(2)).errors.map(\.message) == ["expectation failed: count is 1, expected 2"]
        )
        #expect(
            await expect("count", "!=", .string("1 || true")).succeeded, "a string is a value, never an expression")
        let condition = await expect("count == 1 || true", "==", .bool(false))
        #expect(
            condition.errors.map(\.message) == [
                "path: 'count == 1 || true' is a condition (||), not a path; give the path, the operator and the value apart"
            ])
        #expect(await expect("", "!=", .null).succeeded, "a blank path is the whole state, as :expect == V")
        // A condition too deep for the tape's line to be read at the prompt is refused.
        let deep = await expect("count" + String(repeating: " + 0", count: 198), "==", .int(1))
        #expect(
            deep.errors.first?.message.hasPrefix(
                "path and value: the condition nests too deep to be written as a line :expect reads") == true,
            "\(deep.errors)")
        let badPath = await expect("count[", "==", .int(1))
        #expect(badPath.errors.first?.message.hasPrefix("path 'count[', column 7: ") == true, "\(badPath.errors)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("expect-\(UUID()).transcript").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(await service.perform("save_test", arguments: ["file": .string(file)]).succeeded)
        let transcript = try String(contentsOfFile: file, encoding: .utf8)
        for line in [
            "> :expect count == 1", "> :expect count >= 1", "> :expect count + 1 == 2", "!> :expect count == 2",
        ] {
            #expect(transcript.contains(line + "\n"), "\(line) in \(transcript)")
        }
    }

    /// A command given as values ends as a typed line does: it is on the tape, so a test
    /// saved afterwards makes it again (before, `load` and `advance` were missing there).
    @Test func commandsGivenAsValuesAreInTheSavedTest() async throws {
        let service = try Self.service("Counter")
        _ = await service.perform("load", arguments: ["plugin": .string("Todos")])
        _ = await service.perform("use", arguments: ["model": .string("counter.counter")])
        _ = await service.perform("action_increment")
        _ = await service.perform("advance", arguments: ["duration": .string("2s")])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("typed-\(UUID()).transcript").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let saved = await service.perform("save_test", arguments: ["file": .string(file)])
        #expect(saved.succeeded, "\(saved.errors)")
        let transcript = try String(contentsOfFile: file, encoding: .utf8)
        for line in ["> :load Todos", "> :use counter.counter", "> increment", "> :advance 2000ms"] {
            #expect(transcript.contains(line + "\n"), "\(line) in \(transcript)")
        }
    }

    @Test func aLoadOffersTheNewModelsActions() async throws {
        let service = try Self.service("Counter")
        let events = EventLog(service)
        _ = await service.perform("load", arguments: ["plugin": .string("Todos")])
        #expect(service.operation(named: "action_add") != nil && service.operation(named: "action_increment") == nil)
        await eventually { events.seen.contains(.operationsChanged) && events.seen.contains(.stateChanged) }
    }

    @Test func whatAnEffectDoesBetweenOperationsIsAnEvent() async throws {
        let service = try Self.service("Todos", clock: RealClock())
        _ = await service.perform("action_add", arguments: ["title": .string("milk"), "priority": .int(1)])
        let events = EventLog(service)
        let started = await service.perform(
            "action_toggleLater", arguments: ["id": .string("t1"), "milliseconds": .int(30)])
        #expect(started.rendered().text.contains("fx #1 toggleLater started"))
        await eventually {
            events.seen.contains { event in
                if case .output(.applied(let action, _, _)) = event { action == "todos[\"t1\"].toggle" } else { false }
            }
        }
        await eventually { events.seen.contains(.stateChanged) }
        #expect(service.timeline.entries.contains { if case .applied = $0.output { true } else { false } })
    }

    @Test func operationsRunOneAtATimeInTheOrderAsked() async throws {
        let service = try Self.service("Todos", clock: RealClock())
        _ = await service.perform("action_add", arguments: ["title": .string("milk"), "priority": .int(1)])
        _ = await service.perform("action_toggleLater", arguments: ["id": .string("t1"), "milliseconds": .int(100)])
        let waiting = Task { await service.perform("wait", arguments: ["timeout": .string("60s")]) }
        await eventually { service.isBusy }
        // Asked while :wait runs, the read waits for it: the effect has toggled the todo.
        let read = await service.perform("state", arguments: ["path": .string("todos[0].done")])
        #expect(read.rendered().text == "true")
        #expect(await waiting.value.succeeded)
    }
}

/// The events a service publishes, as they come.
@MainActor
final class EventLog {
    private(set) var seen: [ServiceEvent] = []
    private var task: Task<Void, Never>?

    init(_ service: SessionService) {
        let stream = service.events()
        task = Task { [weak self] in
            for await event in stream { self?.seen.append(event) }
        }
    }

    deinit {
        task?.cancel()
    }
}
