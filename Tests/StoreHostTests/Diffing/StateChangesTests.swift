import HostTestSupport
import StoreHost
import StoreValue
import Testing

/// A state shaped like the ones users have: a list of identified records, a list of plain
/// values, a nested record and a value that is not Equatable.
private struct Item: Codable, Equatable {
    var id: String
    var title: String
    var done = false
    var tags: [String] = []
}

private struct Settings: Codable {  // not Equatable: compared by its encoding
    var theme = "light"
    var size = 12
}

private struct Board: Codable, Equatable {
    var items: [Item] = []
    var numbers: [Int] = []
    var settings = Settings()
    var name = "board"

    static func == (a: Board, b: Board) -> Bool {
        a.items == b.items && a.numbers == b.numbers && a.name == b.name
            && a.settings.theme == b.settings.theme && a.settings.size == b.settings.size
    }
}

@Suite("Incremental snapshots: a plugin reports what changed, the host applies and diffs it")
struct ChangeTrackerTests {
    private func board(_ count: Int) -> Board {
        Board(items: (0..<count).map { Item(id: "i\($0)", title: "item \($0)") }, numbers: Array(0..<5))
    }

    @Test func aToggleInALongListIsOneChangeAtItsField() throws {
        let tracker = ChangeTracker(rootType: "Board", smallState: 0)
        var state = board(1000)
        _ = try tracker.snapshot(of: state)
        state.items[500].done = true
        let patches = try #require(try tracker.changes(of: state))
        #expect(patches == [.set(path: [.field("items"), .index(500), .field("done")], value: .bool(true))])
        #expect(try tracker.changes(of: state) == [], "nothing changed since the last call")
    }

    @Test func insertsAndRemovesAreSplicesOfWhatChanged() throws {
        let tracker = ChangeTracker(smallState: 0)
        var state = board(10)
        _ = try tracker.snapshot(of: state)
        state.items.insert(Item(id: "new", title: "new"), at: 3)
        let inserted = try #require(try tracker.changes(of: state))
        guard case .splice(let path, let at, let removing, let inserting) = try #require(inserted.first) else {
            Issue.record("expected a splice, got \(inserted)")
            return
        }
        #expect(inserted.count == 1 && path == [.field("items")] && at == 3 && removing == 0 && inserting.count == 1)
        state.items.removeLast(2)
        #expect(try tracker.changes(of: state) == [.splice(path: [.field("items")], at: 9, removing: 2, inserting: [])])
    }

    @Test func noBaselineMeansTakeASnapshot() throws {
        let tracker = ChangeTracker(smallState: 0)
        #expect(try tracker.changes(of: board(1)) == nil)
        _ = try tracker.snapshot(of: board(1))
        tracker.reset()
        #expect(try tracker.changes(of: board(1)) == nil)
    }

    @Test func smallStatesAreReadWhole() throws {
        let tracker = ChangeTracker()
        _ = try tracker.snapshot(of: board(2))
        #expect(try tracker.changes(of: board(3)) == nil, "a handful of values: a snapshot is cheaper")
        _ = try tracker.snapshot(of: board(20))
        #expect(try tracker.changes(of: board(20)) == [])
    }

    @Test func theSnapshotIsTheStateFieldByField() throws {
        let expected = Value.record([
            "items": .array([
                .record(["id": .string("i0"), "title": .string("item 0"), "done": .bool(false), "tags": .array([])])
            ]),
            "numbers": .array((0..<5).map { .int(Int64($0)) }),
            "settings": .record(["theme": .string("light"), "size": .int(12)]),
            "name": .string("board"),
        ])
        #expect(try ChangeTracker().snapshot(of: board(1)) == expected)
        #expect(
            try ChangeTracker(rootType: "Board").snapshot(of: board(1))
                == .record(type: "Board", fields: expected.children))
        #expect(try ValueEncoder().encode(board(1)) == expected)
    }

    /// Random edits: applying the changes to the old snapshot gives the new snapshot, and
    /// the diff that looks only where they touched equals the whole diff.
    @Test func randomEditsRoundTrip() throws {
        var generator = SplitMix(seed: 7)
        for round in 0..<400 {
            let tracker = ChangeTracker(rootType: "Board", smallState: 0)
            var state = board(Int(generator.next() % 12))
            var shown = try tracker.snapshot(of: state)
            let memo = IdentityMemo()
            for _ in 0..<6 {
                edit(&state, &generator)
                let patches = try #require(try tracker.changes(of: state))
                var applied = shown
                for patch in patches { try patch.apply(to: &applied) }
                let expected = try ChangeTracker(rootType: "Board", smallState: 0).snapshot(of: state)
                #expect(applied == expected, "round \(round): \(patches)")
                let whole = StateDiff.changes(from: shown, to: applied)
                #expect(
                    StateDiff.changes(from: shown, to: applied, touched: StateTouch(patches)) == whole,
                    "round \(round): \(patches)")
                #expect(
                    StateDiff.changes(from: shown, to: applied, touched: StateTouch(patches), memo: memo) == whole,
                    "round \(round): \(patches)")
                shown = applied
            }
        }
    }

    private func edit(_ state: inout Board, _ generator: inout SplitMix) {
        func pick(_ count: Int) -> Int { count == 0 ? 0 : Int(generator.next() % UInt64(count)) }
        switch generator.next() % 9 {
        case 0 where !state.items.isEmpty: state.items[pick(state.items.count)].done.toggle()
        case 1:
            state.items.insert(Item(id: "n\(generator.next() % 1000)", title: "new"), at: pick(state.items.count + 1))
        case 2 where !state.items.isEmpty: state.items.remove(at: pick(state.items.count))
        case 3: state.items.reverse()
        case 4 where !state.items.isEmpty: state.items[pick(state.items.count)].tags.append("t")
        case 5: state.numbers.append(pick(100))
        case 6: state.settings.size += 1
        case 7 where !state.items.isEmpty: state.items[pick(state.items.count)].id = "same"  // ids stop being unique
        default: state.name += "!"
        }
    }

    @Test func aChangeThatDoesNotFitChangesNothing() {
        var value = Value.record(["items": .array([.int(1)])])
        let before = value
        for patch in [
            StatePatch.set(path: [.field("nope")], value: .int(1)),
            .set(path: [.field("items"), .index(1)], value: .int(1)),
            .splice(path: [.field("items")], at: 1, removing: 1, inserting: []),
            .splice(path: [.field("items")], at: -1, removing: 0, inserting: []),
            .set(path: [.index(0)], value: .int(1)),
        ] {
            #expect(throws: StatePatch.Mismatch.self) { try patch.apply(to: &value) }
            #expect(value == before)
        }
    }

    @Test func patchesSurviveTheirValueForm() throws {
        for patch in [
            StatePatch.set(path: [.field("a"), .index(3)], value: .string("x")),
            .set(path: [], value: .record(["n": .int(1)])),
            .splice(path: [.field("list")], at: 2, removing: 1, inserting: [.int(5), .null]),
        ] {
            #expect(try StatePatch(patch.value) == patch)
        }
        #expect(throws: StatePatch.Mismatch.self) {
            try StatePatch(.record(["path": .array([.bool(true)])], type: "set"))
        }
        #expect(throws: StatePatch.Mismatch.self) { try StatePatch(.record(["path": .array([])], type: "move")) }
    }
}

@MainActor
@Suite("Incremental snapshots through the Todos plugin, in process and in a worker")
struct IncrementalSessionTests {
    private let script = [
        "seed 20", #"add title: "milk", priority: 1"#, #"add title: "eggs", priority: 3"#,
        #"todos["t2"].toggle"#, "orderByPriority", #"todos["t7"].rename "seven""#, "removeCompleted",
        "move from: 0, to: 5", #"delete id: "t4""#, "orderByDate", #"todos["t9"].setPriority 4"#, "seed 3",
    ]

    /// What each action reported, and the state after each, read one way.
    private func run(isolation: PluginHost.Isolation, readsChanges: Bool) throws -> [String] {
        let host = makeHost()
        host.isolation = isolation
        host.readsChanges = readsChanges
        try host.load("Todos")
        let session = try Session(model: host.model(named: "todos"), host: host)
        var log: [String] = []
        for line in script {
            let result = try session.send(text: line)
            // Every read after the first (the state was small before it) is the plugin's
            // changes, not the whole state.
            if line != script[0] { #expect((session.lastRead?.patches != nil) == readsChanges, "\(line)") }
            log.append(line + " → " + result.changes.map(\.description).joined(separator: "; "))
            log.append(session.state.brief(items: 1000))
        }
        return log
    }

    @Test func changesGiveWhatWholeSnapshotsGive() throws {
        let whole = try run(isolation: .inProcess, readsChanges: false)
        #expect(try run(isolation: .inProcess, readsChanges: true) == whole)
        #expect(try run(isolation: .workers, readsChanges: true) == whole)
    }
}

@MainActor
@Suite("A plugin's changes that do not fit: the host reads the whole state")
struct UntrustedChangesTests {
    /// A session of the `changes` model built from `source`, and the warnings its host
    /// logged so far (which holds the host: a session's hold on it is weak).
    private func session(_ source: String, _ name: String, isolation: PluginHost.Isolation) async throws -> (
        Session, () -> [String]
    ) {
        let library = try await Fixtures.library(name, source: source, in: Fixtures.directory())
        let host = makeHost()
        host.isolation = isolation
        let warnings = Warnings()
        host.log = { _, message in warnings.list.append(message) }
        try host.load(library)
        return (
            try Session(model: host.model(named: "changes"), host: host),
            { withExtendedLifetime(host) { warnings.list } }
        )
    }

    private final class Warnings { var list: [String] = [] }

    /// Sends `mode N` and `increment` for each mode: the count is right every time.
    private func everyModeShowsTheCount(_ session: Session, modes: [Int], from start: Int64 = 0) throws {
        var count = start
        for mode in modes {
            _ = try session.send(text: "mode \(mode)")
            let result = try session.send(text: "increment")
            count += 1
            #expect(result.changes.map(\.description) == ["~ count: \(count - 1) → \(count)"], "mode \(mode)")
            #expect(session.state["count"] == .int(count) && session.state["label"] == .string("c"), "mode \(mode)")
        }
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func everyWrongAnswerFallsBackToTheWholeState(isolation: PluginHost.Isolation) async throws {
        let (session, warnings) = try await session(changesPluginSource, "libchanges.so", isolation: isolation)
        try everyModeShowsTheCount(session, modes: Array(0...4))
        if isolation == .inProcess {
            // A path it does not have, a splice of a record: each read after `mode` and
            // after `increment`; and a string for a list, said as plainly.
            let misfits = warnings().filter {
                $0.contains("changes.changes reported a change that does not fit its state")
            }
            let notLists = warnings().filter {
                $0.contains(
                    "changes.changes's snapshot_changes gave what is not a list of changes (a string, not an array)")
            }
            #expect(misfits.count == 4 && notLists.count == 2 && warnings().count == 6, "\(warnings())")
        }
        // A lie that fits cannot be told from the truth; what it says is what is shown,
        // until the state is read whole again.
        _ = try session.send(text: "mode 5")
        _ = try session.send(text: "increment")
        #expect(session.state["label"] == .string("lie"))
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func encodedChangesAreReadAndEveryWrongAnswerFallsBack(isolation: PluginHost.Isolation) async throws {
        let (session, warnings) = try await session(
            changesEncodedPluginSource, "libchangesencoded.so", isolation: isolation)
        _ = try session.send(text: "increment")
        #expect(
            session.lastRead?.patches == [.set(path: [.field("count")], value: .int(1))],
            "the bytes were read as the changes")
        _ = try session.send(text: "mode 0")
        try everyModeShowsTheCount(session, modes: [0, 1, 2, 3, 4, 6, 7, 8], from: 1)
        if isolation == .inProcess {
            let warned = warnings()
            let notAList = "changes.changes's snapshot_changes_encoded gave what is not a list of changes"
            #expect(
                warned.filter { $0.contains("reported a change that does not fit its state") }.count == 4, "\(warned)")
            #expect(
                warned.filter { $0.contains(notAList) && $0.contains("a string, not an array") }.count == 2, "\(warned)"
            )
            #expect(warned.filter { $0.contains(notAList) && $0.contains("ends early") }.count == 2, "\(warned)")
            #expect(
                warned.filter { $0.contains(notAList) && $0.contains("1 byte follows the list") }.count == 2,
                "\(warned)")
            #expect(
                warned.filter { $0.contains(notAList) && $0.contains("not a set or splice record") }.count == 2,
                "\(warned)")
            #expect(warned.count == 12, "a refusal (mode 2) is no warning: \(warned)")
        }
        _ = try session.send(text: "mode 5")
        _ = try session.send(text: "increment")
        #expect(session.state["label"] == .string("lie"), "what the bytes say is what is shown")
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func encodedChangesPastTheDeclaredSizeAreNeverCalled(isolation: PluginHost.Isolation) async throws {
        // Built before the member: its struct ends before snapshot_changes_encoded, and what
        // follows in memory (here the function after all) is not the host's to call.
        let source = changesEncodedPluginSource.replacingOccurrences(
            of: "sp_model model = { sizeof(sp_model),",
            with: "sp_model model = { offsetof(sp_model, snapshot_changes_encoded),"
        )
        #expect(source != changesEncodedPluginSource)
        let (session, warnings) = try await session(source, "libchangesolder.so", isolation: isolation)
        // Mode 0 tells the truth: had the host asked, the read would hold its changes.
        let result = try session.send(text: "increment")
        #expect(result.changes.map(\.description) == ["~ count: 0 → 1"])
        #expect(session.lastRead?.patches == nil, "read whole")
        #expect(warnings().isEmpty, "\(warnings())")
    }
}

private struct Profile: Codable, Equatable {
    var name: String
    var nickname: String?
    var age: Int?
    var manager: Item?
}

@Suite("Nothing in a Codable state is silently dropped")
struct NullFieldTests {
    @Test func nilOptionalsAreNullInEveryEncoding() throws {
        let profile = Profile(name: "bo")
        let expected = Value.record(["name": .string("bo"), "nickname": .null, "age": .null, "manager": .null])
        #expect(try ValueEncoder().encode(profile) == expected)
        #expect(try ChangeTracker(smallState: 0).snapshot(of: profile) == expected)
        #expect(try ValueDecoder().decode(Profile.self, from: expected) == profile, "a snapshot with nulls restores")
    }

    @Test func aValueThatBecomesNilIsAChangeToNull() throws {
        let tracker = ChangeTracker(smallState: 0)
        var profile = Profile(name: "bo", nickname: "b")
        _ = try tracker.snapshot(of: profile)
        profile.nickname = nil
        #expect(try tracker.changes(of: profile) == [.set(path: [.field("nickname")], value: .null)])
    }
}

@MainActor
@Suite("A plugin built before snapshot_changes")
struct OlderPluginTests {
    @Test func itKeepsItsTimeTravelAndIsReadWhole() async throws {
        // The same plugin as an older header would declare it: sp_model ends at restore.
        let source = changesPluginSource.replacingOccurrences(
            of: "sp_model model = { sizeof(sp_model),", with: "sp_model model = { offsetof(sp_model, snapshot_changes),"
        ).replacingOccurrences(
            of: "create, destroy, dispatch, snapshot, NULL, NULL, snapshot_changes };",
            with: "create, destroy, dispatch, snapshot, dispatch, NULL, snapshot_changes };")
        #expect(source != changesPluginSource)
        let library = try await Fixtures.library("libolder.so", source: source, in: Fixtures.directory())
        let host = makeHost()
        let plugin = try host.load(library)
        let model = try #require(plugin.models.first)
        #expect(model.supportsTimeTravel, "replay is read: the struct covers it")
        let session = try Session(model: model, host: host)
        _ = try session.send(text: "mode 1")  // would be a change that does not fit, if it were asked
        let result = try session.send(text: "increment")
        #expect(result.changes.map(\.description) == ["~ count: 0 → 1"])
        #expect(session.lastRead?.patches == nil, "snapshot_changes is past the declared size: never called")
    }
}
