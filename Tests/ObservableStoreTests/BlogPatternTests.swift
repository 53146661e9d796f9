import ObservableStore
import Testing

/// The blog's todo list: an identified collection edited through bindings.
struct TodoList: ModelProtocol {
    struct Todo: Equatable, Identifiable {
        var id: Int
        var title: String
        var isDone = false
    }

    var todos: [Todo] = []

    enum Action: Equatable {
        case add(String)
        case replace(Todo)
    }

    static func update(state: TodoList, action: Action, environment: Void) -> Update<TodoList> {
        var next = state
        switch action {
        case .add(let title):
            next.todos.append(Todo(id: (state.todos.map(\.id).max() ?? 0) + 1, title: title))
        case .replace(let todo):
            guard let index = next.todos.firstIndex(where: { $0.id == todo.id }) else {
                return Update(state: state)
            }
            next.todos[index] = todo
        }
        return Update(state: next)
    }
}

extension StoreProtocol where Model == TodoList {
    /// A binding to one todo by id; writes become `.replace` actions.
    func todo(id: Int) -> Binding<TodoList.Todo?> {
        binding(
            get: { state in state.todos.first { $0.id == id } },
            tag: { todo in todo.map(TodoList.Action.replace) ?? .replace(.init(id: id, title: "")) }
        )
    }
}

@MainActor
@Suite("The blog pattern: side-by-side stores, bindings into collections")
struct BlogPatternTests {
    @Test func storesSideBySideAreIndependent() {
        let counter = Store(state: Counter(), environment: ())
        let todos = Store(state: TodoList(), environment: ())
        let otherTodos = Store(state: TodoList(), environment: ())
        counter.send(.increment)
        todos.send(.add("write tests"))
        #expect(counter.state.count == 1)
        #expect(todos.state.todos.map(\.title) == ["write tests"])
        #expect(otherTodos.state.todos.isEmpty)
    }

    @Test func bindingToOneTodoWritesThroughAnAction() {
        let store = Store(state: TodoList(), environment: ())
        store.send(.add("milk"))
        store.send(.add("eggs"))
        var sent: [TodoList.Action] = []
        let subscription = store.actions.sink { sent.append($0) }
        let eggs = store.todo(id: 2)
        #expect(eggs.wrappedValue?.title == "eggs")
        eggs.wrappedValue?.isDone = true
        #expect(store.state.todos.map(\.isDone) == [false, true])
        #expect(sent == [.replace(.init(id: 2, title: "eggs", isDone: true))])
        _ = subscription
    }

    @Test func bindingToAMissingTodoChangesNothing() {
        let store = Store(state: TodoList(), environment: ())
        store.send(.add("milk"))
        let ghost = store.todo(id: 99)
        #expect(ghost.wrappedValue == nil)
        ghost.wrappedValue = .init(id: 99, title: "ghost")
        #expect(store.state.todos.map(\.title) == ["milk"])
    }
}
