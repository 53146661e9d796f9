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
