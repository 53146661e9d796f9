import StoreHost
import StoreValue
import Testing

@Suite("Action text: an action written back as typed")
struct ActionTextWritingTests {
    static let model = ModelDescriptor.schemaOnly(
        plugin: "test", name: "test",
        actions: [
            ("increment", []),
            ("setCount", [positional(.int)]),
            ("setUser", [labelled("name", .string), labelled("age", .int)]),
            ("child.increment", []),
            ("todos[].toggle", [positional(.string)]),
            ("todos[].rename", [labelled("id", .string), labelled("title", .string)]),
            ("grid[].cells[].set", [positional(.int), positional(.string), positional(.value)]),
            ("setTags", [positional(.value)]),
        ])

    static func positional(_ type: ParamType) -> ParamDescriptor {
        ParamDescriptor(label: nil, type: type, doc: nil)
    }

    static func labelled(_ label: String, _ type: ParamType) -> ParamDescriptor {
        ParamDescriptor(label: label, type: type, doc: nil)
    }

    func text(_ name: String, _ arguments: [Value]) throws -> String {
        let action = try #require(Self.model.action(named: name))
        return action.text(with: arguments)
    }

    @Test func namesKeysLabelsAndLiterals() throws {
        #expect(try text("increment", []) == "increment")
        #expect(try text("setCount", [.int(5)]) == "setCount 5")
        #expect(try text("setUser", [.string("bo"), .int(3)]) == #"setUser name: "bo", age: 3"#)
        #expect(try text("child.increment", []) == "child.increment")
        #expect(try text("todos[].toggle", [.string("t1")]) == #"todos["t1"].toggle"#)
        #expect(try text("todos[].rename", [.string("t1"), .string("milk")]) == #"todos["t1"].rename title: "milk""#)
        #expect(try text("grid[].cells[].set", [.int(2), .string("b"), .double(1)]) == #"grid[2].cells["b"].set 1.0"#)
        #expect(
            try text("setTags", [.array([.string("a"), .record(type: nil, fields: [.init("y z", .null)])])])
                == #"setTags ["a", {"y z": null}]"#)
    }

    @Test func fewerArgumentsThanKeysLeaveTheRestOfTheNameAsItIs() throws {
        #expect(try text("grid[].cells[].set", [.int(2)]) == "grid[2].cells[].set")
        #expect(try text("todos[].toggle", []) == "todos[].toggle")
    }

    @Test func whatIsWrittenReadsBackAsTheSameAction() throws {
        let cases: [(String, [Value])] = [
            ("setUser", [.string("b\"o\n"), .int(-3)]),
            ("grid[].cells[].set", [.int(2), .string("é"), .record(type: nil, fields: [.init("a", .bool(true))])]),
            ("todos[].rename", [.string("t1"), .string("x")]),
        ]
        for (name, arguments) in cases {
            let written = try text(name, arguments)
            let (action, reread) = try ActionBinding.bind(ActionCall.parse(written), to: Self.model)
            #expect(action.name == name && reread == arguments, "\(written)")
        }
    }
}
