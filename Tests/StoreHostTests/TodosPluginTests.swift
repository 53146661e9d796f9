import StoreHost
import StoreShell
import StoreValue
import Testing

@MainActor
@Suite("The Todos plugin: keyed child actions")
struct TodosPluginTests {
    func todos() throws -> Session {
        let host = makeHost()
        try host.load("Todos")
        return try Session(model: host.model(named: "todos"), host: host)
    }

    func titles(_ session: Session) -> [String] {
        guard case .array(let items)? = session.state["todos"] else { return [] }
        return items.compactMap { if case .string(let title)? = $0["title"] { title } else { nil } }
    }

    @Test func addToggleAndRemoveCompleted() throws {
        let session = try todos()
        _ = try session.send(text: #"add title: "milk", priority: 1"#)
        _ = try session.send(text: #"add title: "eggs", priority: 3"#)
        _ = try session.send(text: #"add title: "bread", priority: 2"#)
        let toggled = try session.send(text: #"todos["t2"].toggle"#)
        #expect(toggled.changes.map(\.description) == [#"~ todos["t2"].done: false → true"#])
        _ = try session.send(text: "removeCompleted")
        #expect(titles(session) == ["milk", "bread"])
    }

    @Test func orderingAndMoving() throws {
        let session = try todos()
        for (title, priority) in [("a", 1), ("b", 3), ("c", 2)] {
            _ = try session.send(text: "add title: \"\(title)\", priority: \(priority)")
        }
        _ = try session.send(text: "orderByPriority")
        #expect(titles(session) == ["b", "c", "a"])
        _ = try session.send(text: "orderByDate")
        #expect(titles(session) == ["a", "b", "c"])
        _ = try session.send(text: "move from: 0, to: 2")
        #expect(titles(session) == ["b", "c", "a"])
        _ = try session.send(text: #"todos["t3"].rename "C""#)
        _ = try session.send(text: #"delete id: "t1""#)
        #expect(titles(session) == ["b", "C"])
    }

    @Test func aMissingKeyChangesNothing() throws {
        let session = try todos()
        _ = try session.send(text: #"add title: "milk", priority: 1"#)
        let result = try session.send(text: #"todos["nope"].toggle"#)
        #expect(!result.stateChanged)
        #expect(result.changes.isEmpty)
    }

    @Test func keyedActionsNeedTheirKey() throws {
        let session = try todos()
        #expect(throws: SendError.text(TextError("unknown action 'todos.toggle'; did you mean 'todos[].toggle'?", at: 0))) {
            try session.send(text: "todos.toggle")
        }
    }
}
