import HostTestSupport
import StoreHost
import StoreValue
import Testing

@Suite("State trees: diff, rendering, paths")
struct StateTreeTests {
    let todos = Value.record([
        "title": .string("list"),
        "todos": .array([
            .record(["id": .string("t1"), "done": .bool(false)]),
            .record(["id": .string("t2"), "done": .bool(false)]),
        ]),
    ])

    @Test func diffNamesEachChangedLeaf() {
        let toggled = Value.record([
            "title": .string("list"),
            "todos": .array([
                .record(["id": .string("t1"), "done": .bool(false)]),
                .record(["id": .string("t2"), "done": .bool(true)]),
                .record(["id": .string("t3"), "done": .bool(false)]),
            ]),
            "count": .int(3),
        ])
        #expect(
            StateDiff.changes(from: todos, to: toggled).map(\.description) == [
                #"~ todos["t2"].done: false → true"#,
                #"+ todos["t3"]: {id: "t3", done: false}"#,
                "+ count: 3",
            ])
        #expect(
            StateDiff.changes(from: toggled, to: todos).map(\.description).contains(
                #"- todos["t3"]: {id: "t3", done: false}"#))
        #expect(StateDiff.changes(from: todos, to: todos).isEmpty)
        #expect(StateDiff.changes(from: .int(1), to: .string("1")).map(\.description) == [#"~ .: 1 → "1""#])
    }

    @Test func treeRendering() {
        #expect(
            todos.tree() == """
                title: "list"
                todos:
                  [0]:
                    id: "t1"
                    done: false
                  [1]:
                    id: "t2"
                    done: false
                """)
        #expect(
            todos.tree(depth: 1) == """
                title: "list"
                todos: […] (2 items)
                """)
        #expect(
            Value.enumCase(name: "loggedIn", payload: [.init("user", .string("bo"))]).compact
                == #".loggedIn(user: "bo")"#)
    }

    @Test func pathsFindPartsOfTheState() throws {
        #expect(try PathSyntax.lookup("todos[1].id", in: todos) == .string("t2"))
        #expect(try PathSyntax.lookup(#"["title"]"#, in: todos) == .string("list"))
        #expect(try PathSyntax.lookup(".", in: todos) == todos)
        #expect(throws: TextError("index 5 is out of range: todos has 2 items", at: 0)) {
            try PathSyntax.lookup("todos[5]", in: todos)
        }
        #expect(throws: TextError("no field 'nope' at the top level; fields: title, todos", at: 0)) {
            try PathSyntax.lookup("nope", in: todos)
        }
        #expect(throws: TextError("the '[' at column 6 is not closed", at: 7)) {
            try PathSyntax.lookup("todos[1", in: todos)
        }
    }
}

@Suite("Diffs that understand identity")
struct IdentityDiffTests {
    private func list(_ ids: [String], done: Set<String> = []) -> Value {
        .array(ids.map { .record(["id": .string($0), "done": .bool(done.contains($0))]) })
    }

    @Test func reorderingIsMovesNotEveryField() {
        let changes = StateDiff.changes(from: list(["a", "b", "c", "d"]), to: list(["d", "a", "b", "c"]))
        #expect(changes.map(\.description) == [#"↕ ["d"]: moved from [3] to [0]"#])
        #expect(changes.first?.from == 3 && changes.first?.to == 0)
    }

    @Test func insertsRemovesMovesAndChangesTogether() {
        let changes = StateDiff.changes(from: list(["a", "b", "c"]), to: list(["c", "x", "a"], done: ["a"]))
        #expect(
            changes.map(\.description) == [
                #"- ["b"]: {id: "b", done: false}"#,
                #"↕ ["c"]: moved from [2] to [0]"#,
                #"+ ["x"]: {id: "x", done: false}"#,
                #"~ ["a"].done: false → true"#,
            ])
    }

    @Test func sortingTenThousandIsAtMostOneRecordEach() {
        let ids = (0..<10_000).map { "t\($0)" }
        let changes = StateDiff.changes(from: list(ids), to: list(ids.reversed()))
        #expect(changes.count <= 10_001)
        #expect(changes.allSatisfy { $0.kind == .moved })
    }

    @Test func theLongestRunStaysInPlace() {
        #expect(StateDiff.longestIncreasingRun([3, 1, 2, 0, 4]) == [1, 2, 4])
        #expect(StateDiff.longestIncreasingRun([]) == [])
    }

    @Test func plainListsReportWhatWasRemovedAndAddedNotEveryShiftedPlace() {
        func strings(_ items: [String]) -> Value { .array(items.map { .string($0) }) }
        func described(_ old: [String], _ new: [String]) -> [String] {
            StateDiff.changes(from: strings(old), to: strings(new)).map(\.description)
        }
        #expect(described(["apple", "bread"], ["bread"]) == [#"- [0]: "apple""#])
        #expect(described(["a", "b", "c"], ["a", "x", "b", "c"]) == [#"+ [1]: "x""#])
        #expect(described(["a", "b", "c", "d"], ["a", "c", "d", "e"]) == [#"- [1]: "b""#, #"+ [3]: "e""#])
        #expect(
            described(["a", "b", "c"], ["a", "z", "c"]) == [#"~ [1]: "b" → "z""#],
            "an element replaced in place is a change")
        #expect(described(["a", "b", "c"], ["z", "b", "y", "c"]) == [#"~ [0]: "a" → "z""#, #"+ [2]: "y""#])
        // Only removals, or only insertions: exactly those are reported, each naming an
        // element of the old list (removed) or of the new one (added) at its index.
        var random = SplitMix(seed: 7)
        for round in 0..<300 {
            let old = (0..<Int(random.next() % 12)).map { _ in String(random.next() % 4) }
            var new = old
            let removing = round % 2 == 0 && !old.isEmpty
            for _ in 0..<(1 + Int(random.next() % 3)) {
                if removing, !new.isEmpty {
                    new.remove(at: Int(random.next() % UInt64(new.count)))
                } else if !removing {
                    new.insert(String(random.next() % 4), at: Int(random.next() % UInt64(new.count + 1)))
                }
            }
            let changes = StateDiff.changes(from: strings(old), to: strings(new))
            let context = "\(old) → \(new): \(changes.map(\.description))"
            #expect(changes.count == abs(old.count - new.count), "\(context)")
            #expect(changes.allSatisfy { $0.kind == (removing ? .removed : .added) }, "\(context)")
            let named = Set(changes.map(\.path))
            let rest =
                removing
                ? old.indices.filter { !named.contains("[\($0)]") }.map { old[$0] }
                : new.indices.filter { !named.contains("[\($0)]") }.map { new[$0] }
            #expect(rest == (removing ? new : old), "\(context)")
        }
    }

    @Test func listsWithoutIdsOrWithRepeatedIdsAreComparedByValue() {
        #expect(
            StateDiff.changes(from: .array([.int(1), .int(2)]), to: .array([.int(2), .int(1)])).map(\.description) == [
                "- [0]: 1", "+ [1]: 1",
            ])
        let twice = Value.array([.record(["id": .string("a")]), .record(["id": .string("a")])])
        #expect(StateDiff.changes(from: twice, to: .array([])).map(\.description).first == #"- [0]: {id: "a"}"#)
    }
}
