import StoreHost
import StoreValue
import Testing

/// An action given as values (an MCP tool call, an inspector form) binds as its text does
/// at the prompt: the same values, and for values that do not fit, the same message, with
/// an offset that points at the argument in the action's text.
@Suite("Action values: bound as their text is")
struct ActionValuesBindingTests {
    static let shipping = TypeShape.choice(
        name: "Shipping",
        cases: [.init("ground", rawValue: .string("ground")), .init("air", rawValue: .string("air"))])
    static let model = ModelDescriptor.schemaOnly(
        plugin: "test", name: "test",
        actions: [
            ("increment", []),
            ("setCount", [positional(.int)]),
            ("setPrice", [positional(.double)]),
            ("setUser", [labelled("name", .string), labelled("age", .int)]),
            ("todos[].rename", [labelled("id", .string), labelled("title", .string)]),
            ("grid[].cells[].set", [positional(.int), positional(.string), positional(.value)]),
            (
                "ship",
                [
                    labelled("sku", .string),
                    ParamDescriptor(
                        label: "via", type: .value, doc: nil, shape: shipping, defaultValue: .string("ground")),
                ]
            ),
            ("setLevel", [ParamDescriptor(label: nil, type: .int, doc: nil, shape: .int(range: 0...9))]),
        ])

    static func positional(_ type: ParamType) -> ParamDescriptor {
        ParamDescriptor(label: nil, type: type, doc: nil)
    }

    static func labelled(_ label: String, _ type: ParamType) -> ParamDescriptor {
        ParamDescriptor(label: label, type: type, doc: nil)
    }

    /// Binding `arguments` (every one given) as values, and their text as the prompt does.
    static func bothWays(_ name: String, _ arguments: [Value]) throws -> (
        values: Result<(String, [Value], String), ActionValues.Refusal>, text: Result<(String, [Value]), TextError>
    ) {
        let action = try #require(model.action(named: name))
        let text = action.text(with: arguments)
        let values = Result { () throws(ActionValues.Refusal) in
            let bound = try ActionBinding.bind(ActionValues(name: name, arguments: arguments), to: model)
            return (bound.action.name, bound.arguments, bound.text)
        }
        let typed = Result { () throws(TextError) in
            let bound = try ActionBinding.bind(ActionCall.parse(text), to: model)
            return (bound.0.name, bound.1)
        }
        return (values, typed)
    }

    @Test func valuesThatFitBindAsTheirText() throws {
        let cases: [(String, [Value])] = [
            ("increment", []),
            ("setCount", [.int(5)]),
            ("setPrice", [.int(5)]),
            ("setUser", [.string("b\"o\n"), .int(-3)]),
            ("todos[].rename", [.string("t1"), .string("milk")]),
            ("grid[].cells[].set", [.int(2), .string("é"), .record(type: nil, fields: [.init("a", .bool(true))])]),
            ("ship", [.string("box"), .string("air")]),
            ("setLevel", [.int(9)]),
        ]
        for (name, arguments) in cases {
            let (values, text) = try Self.bothWays(name, arguments)
            let bound = try values.get()
            let read = try text.get()
            #expect(bound.0 == read.0 && bound.1 == read.1, "\(name) \(arguments)")
            // A whole number for a double is written as the double it is taken as.
            let written = name == "setPrice" ? [.double(5)] : arguments
            #expect(bound.2 == (try #require(Self.model.action(named: name))).text(with: written))
        }
    }

    @Test func valuesThatDoNotFitAreRefusedAsTheirTextIs() throws {
        let cases: [(String, [Value])] = [
            ("setCount", [.string("x")]),
            ("setPrice", [.bool(true)]),
            ("setUser", [.string("bo"), .string("three")]),
            ("todos[].rename", [.int(1), .string("milk")]),
            ("grid[].cells[].set", [.int(2), .int(3), .null]),
            ("ship", [.string("box"), .string("sea")]),
            ("setLevel", [.int(10)]),
        ]
        for (name, arguments) in cases {
            let (values, text) = try Self.bothWays(name, arguments)
            guard case .failure(let refusal) = values, case .failure(let error) = text else {
                Issue.record("\(name) \(arguments) was taken: \(values) / \(text)")
                continue
            }
            #expect(refusal.message == error.message)
            #expect(refusal.offset == error.offset, "\(refusal.text): \(refusal.message)")
            #expect(refusal.text == (try #require(Self.model.action(named: name))).text(with: arguments))
        }
    }

    @Test func aLeftOutArgumentIsItsDefaultAndAMissingOneIsNamed() throws {
        let shipped = try ActionBinding.bind(
            ActionValues(name: "ship", arguments: [.string("box"), nil]), to: Self.model)
        #expect(shipped.arguments == [.string("box"), .string("ground")])
        #expect(shipped.text == #"ship sku: "box", via: "ground""#)
        #expect(throws: ActionValues.Refusal.self) {
            try ActionBinding.bind(ActionValues(name: "setUser", arguments: [.string("bo"), nil]), to: Self.model)
        }
        do {
            _ = try ActionBinding.bind(ActionValues(name: "incremnt", arguments: []), to: Self.model)
            Issue.record("an unknown action was bound")
        } catch {
            #expect(error.message == "unknown action 'incremnt'; did you mean 'increment'?")
        }
    }
}
