import StoreHost
import StoreValue
import Testing

/// Today's `PATH OP LITERAL` checks, which the property language (PropertyLanguageTests) reads as before.
@Suite struct StateConditionTests {
    let state: Value = .record(
        type: "S",
        fields: [
            .init("balance", .int(-1)), .init("rate", .double(0.5)), .init("name", .string("ada")),
            .init(
                "todos",
                .array([.record(type: nil, fields: [.init("id", .string("t1")), .init("title", .string(""))])])),
            .init("counters", .record(type: nil, fields: [.init("a<b", .int(3))])),
        ])

    @Test(arguments: [
        ("balance >= 0", false), ("balance < 0", true), ("balance <= -1", true), ("balance > -2", true),
        ("balance == -1", true), ("balance != -1", false), ("rate < 1", true), ("rate >= 0.5", true),
        ("balance < 0.5", true), (#"name < "b""#, true), (#"name > "ada""#, false), (#"todos[0].title != """#, false),
        (#"todos["t1"].title == """#, true), (#"counters["a<b"] == 3"#, true),
        (
            "== {balance: -1, rate: 0.5, name: \"ada\", todos: [{id: \"t1\", title: \"\"}], counters: {\"a<b\": 3}}",
            true
        ),
    ])
    func everyOperatorCompares(text: String, holds: Bool) throws {
        let condition = try StateCondition.parse(text)
        #expect(condition.holds(in: state, identity: StateDiff(identityFields: ["id"])) == holds, "\(text)")
    }

    @Test func anOperatorInAQuotedKeyIsPartOfTheKey() throws {
        let condition = try StateCondition.parse(#"counters["x>=y"] <= 3"#)
        #expect(condition.subject == #"counters["x>=y"]"#)
        #expect(condition.description == #"counters["x>=y"] <= 3"#)
    }

    @Test func failuresSayWhatWasFound() throws {
        let atLeastZero = try StateCondition.parse("balance >= 0")
        #expect(atLeastZero.explain(atLeastZero.check(state)) == "balance is -1, expected >= 0")
        let named = try StateCondition.parse(#"name == "bob""#)
        #expect(named.explain(named.check(state)) == #"name is "ada", expected "bob""#)
        let bare = try StateCondition.parse("balance")
        #expect(
            bare.explain(bare.check(state))
                == "balance is -1 (int), not true or false; compare it with something (balance == …)")
        let ordered = try StateCondition.parse("name < 3")
        #expect(
            ordered.explain(ordered.check(state)) == #"name is "ada" (string), which '<' cannot compare with 3 (int)"#)
        let missing = try StateCondition.parse("todos[3].title == 1")
        guard case .missing(let reason) = missing.check(state) else {
            Issue.record("a missing path is not a failed comparison")
            return
        }
        #expect(reason == "index 3 is out of range: todos has 1 items")
    }

    @Test(arguments: [
        ("balance >=", "expected a value after '>='", 10),
        ("balance >= 1 2", "expected an operator or the end, found '2'", 13),
        ("a..b == 1", "expected a field name after '.', found '.'", 2),
        ("  x. == 1", "expected a field name after '.', found ' '", 4),
        ("x == [1", "the '[' at column 6 is not closed", 7),
    ])
    func mistakesAreErrorsAtTheirByte(text: String, message: String, offset: Int) {
        #expect(throws: TextError(message, at: offset)) { try StateCondition.parse(text) }
    }
}
