import HostTestSupport
import StoreHost
import StoreValue
import Testing

/// A session applies a plugin's `set` changes to its state in place and diffs only what
/// they replaced: the state and the diff must be what applying them to a copy and
/// diffing the copy gives, for any changes, and the list must not be copied.
@Suite("Changes applied in place")
struct PatchedDiffTests {
    private func item(_ id: String, done: Bool = false) -> Value {
        .record(
            ["id": .string(id), "title": .string("item \(id)"), "done": .bool(done), "tags": .array([.string("a")])],
            type: "Item")
    }

    private func state(_ count: Int) -> Value {
        .record(
            [
                "items": .array((0..<count).map { item("i\($0)") }),
                "numbers": .array((0..<4).map { .int(Int64($0)) }),
                "name": .string("board"),
            ], type: "Board")
    }

    /// A path to somewhere in `value`, a step at a time, stopping at random.
    private func randomPath(in value: Value, _ generator: inout SplitMix) -> [StatePatch.Segment] {
        var path: [StatePatch.Segment] = []
        var here = value
        while generator.next() % 4 != 0 {
            switch here {
            case .record(_, let fields) where !fields.isEmpty:
                let field = fields[Int(generator.next() % UInt64(fields.count))]
                path.append(.field(field.label ?? ""))
                here = field.value
            case .array(let items) where !items.isEmpty:
                let index = Int(generator.next() % UInt64(items.count))
                path.append(.index(index))
                here = items[index]
            default:
                return path
            }
        }
        return path
    }

    private func randomValue(_ generator: inout SplitMix) -> Value {
        switch generator.next() % 6 {
        case 0: .bool(generator.next() % 2 == 0)
        case 1: .int(Int64(generator.next() % 5))
        case 2: .string("s\(generator.next() % 3)")
        case 3: item("i\(generator.next() % 8)", done: true)  // may repeat an id
        case 4: item("new\(generator.next() % 1000)")
        default: .array([.int(1)])
        }
    }

    @Test func randomChangesGiveWhatACopyAndItsDiffGive() throws {
        var generator = SplitMix(seed: 11)
        for round in 0..<2000 {
            let old = state(Int(generator.next() % 8))
            var patches: [StatePatch] = []
            var expected = old
            for _ in 0..<(1 + generator.next() % 4) {
                let patch = StatePatch.set(path: randomPath(in: expected, &generator), value: randomValue(&generator))
                try patch.apply(to: &expected)
                patches.append(patch)
            }
            let tree = try #require(PatchTree(patches, over: old), "round \(round): \(patches)")
            let whole = StateDiff().changes(from: old, to: expected)
            let touched = StateDiff().changes(from: old, to: expected, touched: StateTouch(patches))
            #expect(touched == whole, "round \(round)")
            var inPlace = old
            let changes = StateDiff().changes(applying: tree, to: &inPlace, memo: IdentityMemo())
            #expect(inPlace == expected, "round \(round): \(patches)")
            #expect(changes == whole, "round \(round): \(patches)")
            var applied = old
            tree.apply(to: &applied)
            #expect(applied == expected, "round \(round): \(patches)")
        }
    }

    /// Splices among sets, applied in place with an identity memo that lives from round to
    /// round as a session's does: the state and the diff are what the general way gives
    /// (a copy, the patches applied to it, the touched diff with its own memo).
    @Test func randomSplicesGiveWhatTheGeneralWayGives() throws {
        var generator = SplitMix(seed: 29)
        var old = state(6)
        let inPlaceMemo = IdentityMemo()
        let generalMemo = IdentityMemo()
        for round in 0..<1500 {
            var patches: [StatePatch] = []
            var expected = old
            for _ in 0..<(1 + generator.next() % 3) {
                guard case .array(let items)? = expected["items"] else { break }
                let patch: StatePatch
                if generator.next() % 3 == 0 {
                    patch = .set(path: randomPath(in: expected, &generator), value: randomValue(&generator))
                } else {
                    let at = Int(generator.next() % UInt64(items.count + 1))
                    let removing = Int(generator.next() % UInt64(min(2, items.count - at) + 1))
                    patch = .splice(
                        path: [.field("items")], at: at, removing: removing,
                        inserting: (0..<Int(generator.next() % 3)).map { _ in randomValue(&generator) })
                }
                try patch.apply(to: &expected)
                patches.append(patch)
            }
            let general = StateDiff().changes(from: old, to: expected, touched: StateTouch(patches), memo: generalMemo)
            #expect(
                general == StateDiff().changes(from: old, to: expected),
                "round \(round): the touched diff is the whole diff")
            guard let tree = PatchTree(patches, over: old) else {
                old = expected
                continue
            }
            var inPlace = old
            let changes = StateDiff().changes(applying: tree, to: &inPlace, memo: inPlaceMemo)
            #expect(inPlace == expected, "round \(round): \(patches)")
            #expect(changes == general, "round \(round): \(patches)")
            var applied = old
            tree.apply(to: &applied)
            #expect(applied == expected, "round \(round): \(patches)")
            old = expected
            if case .array(let items)? = old["items"], items.count > 12 { old = state(6) }
        }
    }

    @Test func anAppendChangesTheListInPlace() throws {
        var state = state(2000)
        let memo = IdentityMemo()
        let first = StatePatch.splice(path: [.field("items")], at: 2000, removing: 0, inserting: [item("a")])
        _ = StateDiff().changes(applying: try #require(PatchTree([first], over: state)), to: &state, memo: memo)
        let storage = Self.listStorage(state)
        let second = StatePatch.splice(path: [.field("items")], at: 2001, removing: 0, inserting: [item("b")])
        let changes = StateDiff().changes(
            applying: try #require(PatchTree([second], over: state)), to: &state, memo: memo)
        #expect(changes == [StateChange(kind: .added, path: "items[\"b\"]", old: nil, new: item("b"))])
        #expect(
            Self.listStorage(state) == storage, "the list grew where it is (its first append left room), not copied")
    }

    @Test func splicesAndChangesThatDoNotFitAreLeftToTheGeneralWay() {
        let old = state(3)
        #expect(
            PatchTree([.splice(path: [.field("items")], at: 4, removing: 0, inserting: [])], over: old) == nil,
            "past the end")
        #expect(
            PatchTree([.splice(path: [.field("items")], at: 2, removing: 2, inserting: [])], over: old) == nil,
            "removing past the end")
        #expect(
            PatchTree([.splice(path: [.field("name")], at: 0, removing: 0, inserting: [])], over: old) == nil,
            "not a list")
        #expect(
            PatchTree(
                [
                    .splice(path: [.field("items")], at: 0, removing: 1, inserting: []),
                    .set(path: [.field("items"), .index(0), .field("done")], value: .bool(true)),
                ], over: old) == nil,
            "a splice and another change of the same list")
        #expect(PatchTree([.set(path: [.field("missing")], value: .null)], over: old) == nil)
        #expect(PatchTree([.set(path: [.field("items"), .index(3)], value: .null)], over: old) == nil)
        #expect(PatchTree([.set(path: [.field("name"), .index(0)], value: .null)], over: old) == nil)
        let twice = Value.record(type: nil, fields: [.init("a", .int(1)), .init("a", .int(2))])
        #expect(
            PatchTree([.set(path: [.field("a")], value: .int(3))], over: twice) == nil,
            "which 'a'? the general way decides")
    }

    @Test func aToggleChangesTheListInPlace() throws {
        var state = state(2000)
        let storage = Self.listStorage(state)
        let toggle = StatePatch.set(path: [.field("items"), .index(700), .field("done")], value: .bool(true))
        let tree = try #require(PatchTree([toggle], over: state))
        let memo = IdentityMemo()
        let changes = StateDiff().changes(applying: tree, to: &state, memo: memo)
        #expect(
            changes == [StateChange(kind: .changed, path: "items[\"i700\"].done", old: .bool(false), new: .bool(true))])
        #expect(Self.listStorage(state) == storage, "the list was changed where it is, not copied")
    }

    @Test func aListTheIdentityMemoHoldsIsChangedInPlaceToo() throws {
        var state = state(2000)
        let memo = IdentityMemo()
        // A splice's diff leaves the memo holding the new list.
        let added = StatePatch.splice(path: [.field("items")], at: 2000, removing: 0, inserting: [item("new")])
        var grown = try StatePatch.apply([added], to: state)
        let addition = StateDiff().changes(from: state, to: grown, touched: StateTouch([added]), memo: memo)
        #expect(addition.map(\.path) == ["items[\"new\"]"])
        state = grown
        grown = .null
        let storage = Self.listStorage(state)
        let toggle = StatePatch.set(path: [.field("items"), .index(3), .field("done")], value: .bool(true))
        let changes = StateDiff().changes(
            applying: try #require(PatchTree([toggle], over: state)), to: &state, memo: memo)
        #expect(changes.map(\.path) == ["items[\"i3\"].done"])
        #expect(Self.listStorage(state) == storage)
    }

    /// The general way (a splice, or a set the session cannot apply in place) changes a
    /// state nothing else holds where it is too.
    @Test func aPatchChangesAStateNothingElseHoldsInPlace() throws {
        var state = state(2000)
        let storage = Self.listStorage(state)
        try StatePatch.set(path: [.field("items"), .index(9), .field("done")], value: .bool(true)).apply(to: &state)
        #expect(Self.listStorage(state) == storage, "a set")
        try StatePatch.splice(path: [.field("items")], at: 1999, removing: 1, inserting: []).apply(to: &state)
        #expect(Self.listStorage(state) == storage, "a splice")
    }

    private static func listStorage(_ state: Value) -> UnsafeRawPointer? {
        guard case .array(let items)? = state["items"] else { return nil }
        return items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
}
