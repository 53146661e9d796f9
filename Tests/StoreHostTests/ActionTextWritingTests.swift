import StoreHost
import StoreValue
import Testing

@Suite("Action text: an action written back as typed")
struct ActionTextWritingTests {
    static let model: ModelDescriptor = {
        func action(_ name: String, _ params: [(String?, ParamType)]) -> (name: String, params: [ParamDescriptor]) {
            (name, params.map { ParamDescriptor(label: $0.0, type: $0.1, doc: nil) })
        }
        return ModelDescriptor.schemaOnly(plugin: "test", name: "test", actions: [
            action("increment", []),
            action("setCount", [(nil, .int)]),
            action("setUser", [("name", .string), ("age", .int)]),
            action("child.increment", []),
            action("todos[].toggle", [(nil, .string)]),
            action("todos[].rename", [("id", .string), ("title", .string)]),
            action("grid[].cells[].set", [(nil, .int), (nil, .string), (nil, .value)]),
            action("setTags", [(nil, .value)]),
        ])
    }()

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
        #expect(try text("setTags", [.array([.string("a"), .record(type: nil, fields: [.init("y z", .null)])])])
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
