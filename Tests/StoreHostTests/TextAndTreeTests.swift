import HostTestSupport
import StoreHost
import StoreValue
import Testing

@Suite("Action text: the grammar, and errors with byte offsets")
struct ActionTextTests {
    @Test func namesPositionalLabelledAndLiterals() throws {
        let bare = try ActionCall.parse("increment")
        #expect(bare.name == "increment" && bare.keys.isEmpty && bare.arguments.isEmpty && bare.nameRange == 0..<9)
        let positional = try ActionCall.parse("setCount 5")
        #expect(positional.arguments.map(\.value) == [.int(5)])
        let labelled = try ActionCall.parse(#"setUser name: "bo", age: 3"#)
        #expect(labelled.arguments.map(\.label) == ["name", "age"])
        #expect(labelled.arguments.map(\.value) == [.string("bo"), .int(3)])
        #expect(labelled.arguments.map(\.offset) == [8, 20])
        let child = try ActionCall.parse("child.increment")
        #expect(child.name == "child.increment")
        let keyed = try ActionCall.parse(#"todos["a"].toggle"#)
        #expect(keyed.name == "todos[].toggle")
        #expect(keyed.keys == [.string("a")])
        let compound = try ActionCall.parse(#"setTags ["a", "b"], {x: 1.5, "y z": [true, null]}"#)
        #expect(
            compound.arguments.map(\.value) == [
                .array([.string("a"), .string("b")]),
                .record(type: nil, fields: [.init("x", .double(1.5)), .init("y z", .array([.bool(true), .null]))]),
            ])
        let parenthesised = try ActionCall.parse("setCount(-7)")
        #expect(parenthesised.arguments.map(\.value) == [.int(-7)])
        let escaped = try ActionCall.parse(#"say "a\"b\n\u00e9""#)
        #expect(escaped.arguments.first?.value == .string("a\"b\né"))
    }

    @Test func mistakesPointAtTheirByte() {
        func error(_ text: String) -> TextError? {
            do {
                _ = try ActionCall.parse(text)
                return nil
            } catch {
                return error
            }
        }
        #expect(error("") == TextError("expected an action name", at: 0))
        #expect(error("setCount 5 6") == TextError("unexpected '6'; separate arguments with ','", at: 11))
        #expect(error(#"say "open"#) == TextError("the string opened at column 5 is not closed", at: 4))
        #expect(error("setTags [1, 2") == TextError("the '[' at column 9 is not closed", at: 13))
        #expect(error("setCount(5") == TextError("expected ',' or ')'", at: 10))
        #expect(error("say hello") == TextError(#"'hello' is not a value; text must be quoted: "hello""#, at: 4))
        #expect(error("child.") == TextError("expected a name after '.'", at: 6))
        #expect(error("f a: 1, a: 2") == TextError("argument 'a' is given twice", at: 8))
        #expect(
            error("n 99999999999999999999")
                == TextError("'99999999999999999999' is not a number that fits in 64 bits", at: 2))
    }
}

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

@Suite("Values and Codable")
struct ValueCodableTests {
    struct Profile: Codable, Equatable {
        enum Role: String, Codable { case admin, guest }
        var name: String
        var age: Int
        var score: Double
        var tags: [String]
        var role: Role
        var manager: String?
        var limits: [String: Int]
    }

    enum Action: Codable, Equatable {
        case increment
        case setCount(Int)
        case setUser(name: String, age: Int)
        case child(Action2)
        enum Action2: Codable, Equatable { case reset }
    }

    @Test func roundTripsThroughValues() throws {
        let profile = Profile(name: "bo", age: 3, score: 2.5, tags: ["a"], role: .admin, manager: nil, limits: ["x": 1])
        let value = try ValueEncoder().encode(profile)
        #expect(value["name"] == .string("bo"))
        #expect(value["role"] == .string("admin"))
        #expect(value["manager"] == .null, "a nil optional is null: nothing in a state is silently dropped")
        #expect(try ValueDecoder().decode(Profile.self, from: value) == profile)
    }

    @Test func enumCasesDecodeFromTheirSynthesizedShape() throws {
        let decoder = ValueDecoder()
        #expect(try decoder.decode(Action.self, from: .record(["increment": .record([:])])) == .increment)
        #expect(try decoder.decode(Action.self, from: .record(["setCount": .record(["_0": .int(5)])])) == .setCount(5))
        #expect(
            try decoder.decode(
                Action.self, from: .record(["setUser": .record(["name": .string("bo"), "age": .int(3)])]))
                == .setUser(name: "bo", age: 3))
        #expect(
            try decoder.decode(Action.self, from: .record(["child": .record(["_0": .record(["reset": .record([:])])])]))
                == .child(.reset))
    }

    @Test func numbersConvertOnlyWhenExact() throws {
        #expect(try ValueDecoder().decode(Double.self, from: .int(3)) == 3.0)
        #expect(try ValueDecoder().decode(Int.self, from: .double(4.0)) == 4)
        #expect(throws: DecodingError.self) { try ValueDecoder().decode(Int.self, from: .double(4.5)) }
        #expect(throws: DecodingError.self) { try ValueDecoder().decode(UInt8.self, from: .int(300)) }
        #expect(throws: EncodingError.self) { try ValueEncoder().encode(UInt64.max) }
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
