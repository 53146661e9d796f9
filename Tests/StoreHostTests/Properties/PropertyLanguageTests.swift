import StoreHost
import StoreValue
import Testing

/// The property language of docs/shell/explore.md: each rule of its meaning, each example, and
/// the errors, on small states built here.
@Suite struct PropertyLanguageTests {
    static func record(_ fields: KeyValuePairs<String, Value>) -> Value { .record(fields) }
    func record(_ fields: KeyValuePairs<String, Value>) -> Value { .record(fields) }

    let state: Value = Self.record([
        "size": .int(3), "contents": .array([.int(1), .int(2)]), "name": .string("ada"), "flag": .bool(true),
        "none": .null, "rate": .double(0.5),
        "items": .array([
            Self.record(["id": .string("a"), "qty": .int(2)]), Self.record(["id": .string("b"), "qty": .int(-1)]),
        ]),
        "live": Self.record(["1": .string("one"), "7": .string("seven")]),
        "empty": .array([]),
    ])

    func outcome(_ text: String, in state: Value? = nil, step: PropertyStep? = nil) throws -> StateCondition.Outcome {
        let condition = try StateCondition.parse(text, context: step == nil ? .state : .action)
        return condition.check(state ?? self.state, identity: StateDiff(identityFields: ["id"]), step: step)
    }

    func holds(_ text: String, in state: Value? = nil, step: PropertyStep? = nil) throws -> Bool {
        try outcome(text, in: state, step: step) == .holds
    }

    func value(_ text: String) throws -> Value {
        try PropertyEvaluator(state: state, identity: StateDiff(identityFields: ["id"]))
            .value(of: try PropertyParser.parse(text))
    }

    // MARK: Meaning.

    @Test(arguments: [
        "size == 3", "size == 3.0", "name == \"ada\"", "flag == true", "none == null", "contents == [1, 2]",
        "contents != [2, 1]", "items[0] == {qty: 2, id: \"a\"}", "live == {\"7\": \"seven\", \"1\": \"one\"}",
        "items[0] != {id: \"a\"}", "contents == contents", "size != \"3\"", "[1, [2]] == [1, [2]]",
    ])
    func equalityIsStructural(text: String) throws {
        #expect(try holds(text), "\(text)")
    }

    @Test func orderTakesNumbersOrStrings() throws {
        #expect(try holds("size < 4 && size <= 3 && size > 2.5 && size >= 3 && rate < size"))
        #expect(try holds(#"name < "b" && name >= "ada""#))
        guard case .invalid(let reason) = try outcome("flag < 1") else {
            Issue.record("ordering Bools is not a failed comparison but a mistake")
            return
        }
        #expect(reason == "flag is true (bool), which '<' cannot compare with 1 (int)")
        guard case .invalid(let other) = try outcome("name < size") else { return }
        #expect(other == #"name is "ada" (string), which '<' cannot compare with size, which is 3 (int)"#)
    }

    @Test func aDictionaryKeyEqualsTheIntegerWhoseTextItIs() throws {
        #expect(try holds("keys(live)[0] == 1"))
        #expect(try holds("keys(live) == [1, 7]"))
        #expect(try holds(#"keys(live) == ["1", "7"]"#))
        #expect(try holds("contains(live, 7) && !contains(live, 2)"))
        #expect(try holds(#"live[7] == "seven""#))
        #expect(try holds(#"live["1"] == "one""#))
        // A string that is not a key does not equal a number.
        #expect(try holds(#""1" != 1"#))
    }

    @Test func containsLooksAtKeysElementsOrSubstrings() throws {
        #expect(try holds(#"contains(live, "1")"#))
        #expect(try holds(#"!contains(live, "one")"#))
        #expect(try holds("contains(contents, 2) && !contains(contents, 3)"))
        #expect(try holds(#"contains(name, "da") && !contains(name, "x") && contains(name, "")"#))
        #expect(try holds(#"contains(items, {id: "b", qty: -1})"#))
    }

    @Test func operatorsMapOverEveryElementAndFunctionsTakeTheList() throws {
        #expect(try value("items[*].qty") == .array([.int(2), .int(-1)]))
        #expect(try value("items[*].qty >= 0") == .array([.bool(true), .bool(false)]))
        #expect(try value("items[*].qty * 2 + 1") == .array([.int(5), .int(-1)]))
        #expect(try value("-items[*].qty") == .array([.int(-2), .int(1)]))
        #expect(try value("!(items[*].qty >= 0)") == .array([.bool(false), .bool(true)]))
        #expect(try value("items[*].qty == items[*].qty") == .array([.bool(true), .bool(true)]))
        #expect(try value("live[*]") == .array([.string("one"), .string("seven")]))
        #expect(try holds("!all(items[*].qty >= 0) && any(items[*].qty >= 0)"))
        #expect(try holds("count(items[*].qty) == 2 && sum(items[*].qty) == 1"))
        // Functions take the list as it is, an operator on their result does not map.
        #expect(try holds("sorted(items[*].qty) == [-1, 2]"))
        guard case .invalid(let reason) = try outcome("items[*].qty >= 0") else {
            Issue.record("a list of Bools is not true or false")
            return
        }
        #expect(reason.contains("wrap it in all(…) or any(…)"))
        #expect(try holds("all(items[*].qty != contents[*])"))
        let longer = record(["a": .array([.int(1)]), "b": .array([.int(1), .int(2)])])
        guard case .invalid(let mismatch) = try outcome("all(a[*] == b[*])", in: longer) else {
            Issue.record("lists of different lengths cannot be zipped")
            return
        }
        #expect(mismatch.contains("as many on both sides"))
    }

    @Test func theFunctions() throws {
        #expect(try value("count(contents)") == .int(2))
        #expect(try value("count(live)") == .int(2))
        #expect(try value(#"count("héllo")"#) == .int(5))
        #expect(try value(#"length("héllo")"#) == .int(5))
        #expect(try value("sum(contents)") == .int(3))
        #expect(try value("sum([1, 0.5])") == .double(1.5))
        #expect(try value("sum(empty)") == .int(0))
        #expect(try value("min(items[*].qty)") == .int(-1))
        #expect(try value("max(items[*].qty)") == .int(2))
        #expect(try value(#"max(["b", "a"])"#) == .string("b"))
        #expect(try value("unique([1, 2, 1, 1.0, 3])") == .array([.int(1), .int(2), .int(3)]))
        #expect(try value(#"sorted(["b", "a", "c"])"#) == .array([.string("a"), .string("b"), .string("c")]))
        #expect(try value("keys(live)") == .array([.string("1"), .string("7")]))
        #expect(try value("all([]) && !any([])") == .bool(true))
        #expect(throws: PropertyProblem.invalid(#"count takes a list, a dictionary or a string; size is 3 (int)"#)) {
            try value("count(size)")
        }
        #expect(throws: PropertyProblem.invalid("all takes a list of true and false; contents holds 1 (int)")) {
            try value("all(contents)")
        }
        #expect(
            throws: PropertyProblem.invalid(
                #"sorted takes numbers or strings; [1, "a"] holds 1 (int) and "a" (string)"#)
        ) {
            try value(#"sorted([1, "a"])"#)
        }
    }

    @Test func aPathNamingNothingOrMinOfNothingIsSkippedNotFailed() throws {
        for text in [
            "items[5].qty == 1", "missing > 0", "items[\"zz\"].qty == 1", "min(empty) == 3", "max(empty) < 0",
            "size.x == 1", "none[*] == 1", "live[2] == \"two\"", "!(flag && missing == 1)",
        ] {
            guard case .missing = try outcome(text) else {
                Issue.record("\(text) should be skipped as naming nothing")
                continue
            }
        }
        guard case .missing(let reason) = try outcome("items[5].qty == 1") else { return }
        #expect(reason == "index 5 is out of range: items has 2 items")
        // Short-circuit: what is not read cannot be missing.
        #expect(try holds("!flag || size == 3 || missing == 1"))
        #expect(try holds("flag || missing == 1"))
        #expect(try outcome("flag && missing == 1") != .holds)
    }

    @Test func integerArithmeticIsChecked() throws {
        #expect(try value("7 / 2 + 7 % 2 * 10 - -1") == .int(14))
        #expect(try value("2 * (3 + 4)") == .int(14))
        #expect(try value("1 - 2 - 3") == .int(-4))
        #expect(try value("-9223372036854775808") == .int(.min))
        #expect(throws: PropertyProblem.invalid("overflow: 9223372036854775807 + 1 does not fit in a 64-bit integer")) {
            try value("9223372036854775807 + 1")
        }
        #expect(throws: PropertyProblem.invalid("overflow: 4611686018427387904 * 2 does not fit in a 64-bit integer")) {
            try value("4611686018427387904 * 2")
        }
        #expect(throws: PropertyProblem.invalid("overflow: -(-9223372036854775808) does not fit in a 64-bit integer")) {
            try value("-(-9223372036854775808)")
        }
        #expect(throws: PropertyProblem.invalid("overflow: -9223372036854775808 / -1 does not fit in a 64-bit integer"))
        {
            try value("-9223372036854775808 / -1")
        }
        #expect(throws: PropertyProblem.invalid("division by zero: size - 3 is 0")) {
            try value("size / (size - 3)")
        }
        #expect(throws: PropertyProblem.invalid(#"'+' takes numbers; name is "ada" (string)"#)) {
            try value("name + 1")
        }
        // An overflow in an invariant is a failure that says so, not a wrap.
        guard case .invalid = try outcome("size * 4611686018427387904 > 0") else {
            Issue.record("an overflow must fail the check")
            return
        }
    }

    @Test func oldArgsAndAcceptedReadTheStepJustTaken() throws {
        let before = record(["items": .array([.int(5), .int(3), .int(9)]), "popped": .null, "shown": .int(4)])
        let after = record(["items": .array([.int(5), .int(9)]), "popped": .int(3), "shown": .int(2)])
        let pop = PropertyStep(action: "pop", labels: [], arguments: [], old: before, accepted: true)
        #expect(try holds("popped == old(min(items))", in: after, step: pop))
        #expect(try holds("accepted && count(items) == old(count(items)) - 1", in: after, step: pop))
        let found = PropertyStep(
            action: "found", labels: ["query", nil], arguments: [.string("q"), .int(7)], old: before, accepted: false)
        #expect(
            try holds(
                #"args.query == "q" && args[1] == 7 && args[0] == args.query && !accepted"#, in: after, step: found))
        #expect(
            try outcome("shown >= old(shown)", in: after, step: found)
                == .fails(explanation: "shown is 2 and old(shown) is 4"))
        #expect(
            try outcome("args.nope == 1", in: after, step: found)
                == .invalid(reason: "found has no argument 'nope'; its arguments: query"))
        // Refused on an empty heap: min of nothing skips.
        let empty = record(["items": .array([]), "popped": .null])
        let refused = PropertyStep(action: "pop", labels: [], arguments: [], old: empty, accepted: false)
        guard case .missing = try outcome("popped == old(min(items))", in: empty, step: refused) else {
            Issue.record("min of an empty list skips the check")
            return
        }
        // A computed key: live[args.key].
        let live = record(["live": record(["4": .string("x")])])
        let put = PropertyStep(action: "put", labels: ["key"], arguments: [.int(4)], old: live, accepted: true)
        #expect(try holds(#"live[args.key] == "x""#, in: live, step: put))
    }

    // MARK: The document's examples.

    @Test func aCircularBufferWhoseSizeIsWrongWhenFull() throws {
        let full = record(["size": .int(0), "contents": .array([.int(1), .int(2), .int(3)])])
        #expect(
            try outcome("size == count(contents)", in: full)
                == .fails(explanation: "size is 0 and count(contents) is 3"))
        #expect(
            try holds(
                "size == count(contents)", in: record(["size": .int(2), "contents": .array([.int(1), .int(2)])])))
    }

    @Test func aHeapWhoseSiftDownLooksAtOneChild() throws {
        let old = record(["items": .array([.int(1), .int(4), .int(2)]), "popped": .null])
        let wrong = record(["items": .array([.int(4), .int(2)]), "popped": .int(4)])
        let step = PropertyStep(action: "pop", labels: [], arguments: [], old: old, accepted: true)
        #expect(
            try outcome("popped == old(min(items))", in: wrong, step: step)
                == .fails(explanation: "popped is 4 and old(min(items)) is 1"))
    }

    @Test func aStaleSearchResponseOverwritingANewerOne() throws {
        let old = record(["shown": .int(2)])
        let step = PropertyStep(action: "found", labels: ["id"], arguments: [.int(1)], old: old, accepted: true)
        #expect(try !holds("shown >= old(shown)", in: record(["shown": .int(1)]), step: step))
        #expect(try holds("shown >= old(shown)", in: record(["shown": .int(3)]), step: step))
    }

    @Test func aLockThatOpensWithAWrongCode() throws {
        let wrong = record(["open": .bool(true), "digits": .string("12"), "code": .string("34")])
        #expect(
            try outcome("!(open && digits != code)", in: wrong)
                == .fails(explanation: #"open is true, digits is "12", code is "34""#))
        #expect(
            try holds(
                "!(open && digits != code)",
                in: record(["open": .bool(true), "digits": .string("34"), "code": .string("34")])))
    }

    // MARK: Today's forms and the text.

    @Test(arguments: [
        "balance >= 0", #"todos[0].title != """#, #"counters["a b"] == 3"#, "== {a: 1}", "x == nil", ". == 3",
    ])
    func todaysFormsStillRead(text: String) throws {
        _ = try StateCondition.parse(text)
    }

    @Test(arguments: [
        "size == count(contents)", "!(open && digits != code)", "!a == b", "!!a", "a && !b || c", "(a || b) && c",
        "-(5)", "-5", "--5", "-(-5)", "-(a + b) * c", "a - (b - c)", "a - b - c", "(a == b) == c", "x[*].y[*][0]",
        "m[k + 1].v", ".args == 1", "accepted == 1", "popped == old(min(items))", #"f["a b"].c"#, ".[\"a b\"]",
        "sorted(xs)[0]", "(5).x", ". == {a: [1, 2.5]}", "all(items[*].qty >= 0)", "a % b / c * d",
    ])
    func writtenBackItReadsBackAsItself(text: String) throws {
        for context in [PropertyParser.Context.state, .action] {
            guard let node = try? PropertyParser.parse(text, context: context) else { continue }
            let again = try PropertyParser.parse(node.text, context: context)
            #expect(again == node, "\(text) → \(node.text)")
        }
    }

    @Test(arguments: [
        ("balance >=", "expected a value after '>='", 10),
        ("balance >= 1 2", "expected an operator or the end, found '2'", 13),
        ("a = 1", "expected an operator or the end, found '=' (equality is '==')", 2),
        ("a & b", "expected an operator or the end, found '&' (and is '&&')", 2),
        ("a == 1 == 2", "expected '&&', '||' or the end, not a second comparison '==' (comparisons do not chain)", 7),
        ("(a == 1", "expected ')' to close the '(' at column 1, found the end", 7),
        ("count(a, b)", "count takes 1 argument, not 2", 0),
        (
            "cnt(a)",
            "unknown function 'cnt'; the functions: count, sum, min, max, unique, sorted, contains, keys, all, any, length, old",
            0
        ),
        ("x == old(y)", "old(…) reads the state before an action: it is for postconditions (--after ACTION EXPR)", 5),
        ("a.", "expected a field name after '.', found the end", 2),
        ("a[1", "expected ']' to close the '[' at column 2, found the end", 3),
        ("a[*", "expected ']' after '[*', found the end", 3),
        ("x == [1", "the '[' at column 6 is not closed", 7),
        ("", "expected an expression, e.g. balance >= 0 or size == count(items)", 0),
        ("a + ", "expected a value, a path or '(' at the end", 4),
        ("a + )", "expected a value, a path or '(', found ')'", 4),
        ("99999999999999999999 > 1", "'99999999999999999999' is not a number that fits in 64 bits", 0),
    ])
    func mistakesSayWhatWasExpectedWhere(text: String, message: String, offset: Int) {
        #expect(throws: TextError(message, at: offset)) { try StateCondition.parse(text) }
    }

    @Test func nestingIsLimited() {
        let deep = String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500)
        #expect(throws: TextError.self) { try StateCondition.parse(deep) }
        let long = Array(repeating: "a", count: 1000).joined(separator: " + ") + " == 1"
        #expect(throws: TextError.self) { try StateCondition.parse(long) }
        let nots = String(repeating: "!", count: 1000) + "a"
        #expect(throws: TextError.self) { try StateCondition.parse(nots) }
    }
}
