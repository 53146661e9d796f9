// Todos: the blog's todo list. Top-level actions edit the list; per-todo actions go
// through a keyed cursor: `todos["t1"].toggle`.
import ObservableStore
import StorePlugin

struct Todo: ModelProtocol, Codable {
    var id: String
    var title: String
    var done = false
    var priority = 0
    /// When it was added, as a sequence number (deterministic, unlike a wall clock).
    var created = 0

    @PluginActions
    enum Action: Codable, Sendable {
        /// Marks a todo done or not done.
        case toggle
        /// Renames a todo.
        /// - Parameter title: the new title
        case rename(String)
        /// Sets a todo's priority.
        /// - Parameter priority: the new priority
        case setPriority(Int)
    }

    static func update(state: Todo, action: Action, environment: Void) -> Update<Todo> {
        var next = state
        switch action {
        case .toggle: next.done.toggle()
        case .rename(let title): next.title = title
        case .setPriority(let priority): next.priority = priority
        }
        return Update(state: next)
    }
}

struct TodoList: ModelProtocol, Codable {
    var todos: [Todo] = []
    var added = 0

    @PluginActions
    enum Action: Codable, Sendable {
        /// Adds a todo at the end.
        case add(title: String, priority: Int)
        /// Adds COUNT numbered todos at once, for trying out big lists.
        case seed(count: Int)
        /// Deletes the todo with this id.
        case delete(id: String)
        /// Moves the todo at one position to another.
        case move(from: Int, to: Int)
        /// Orders todos oldest first.
        case orderByDate
        /// Orders todos by priority, highest first.
        case orderByPriority
        /// Removes every done todo.
        case removeCompleted
        /// Toggles a todo after a delay on the host clock: an effect that sends
        /// `todos[ID].toggle` (if the todo is deleted first, storesh warns that it did nothing).
        case toggleLater(id: String, milliseconds: Int)
        /// A per-todo action, by id: `todos["t1"].toggle`.
        case todos(String, Todo.Action)
    }

    struct Environment: Sendable {
        let clock: HostClock
    }

    static func update(state: TodoList, action: Action, environment: Environment) -> Update<TodoList> {
        var next = state
        switch action {
        case .add(let title, let priority):
            next.added += 1
            next.todos.append(Todo(id: "t\(next.added)", title: title, priority: priority, created: next.added))
        case .seed(let count):
            guard count > 0 else { return Update(state: state) }
            next.todos.reserveCapacity(next.todos.count + count)
            for _ in 0..<count {
                next.added += 1
                next.todos.append(
                    Todo(
                        id: "t\(next.added)", title: "todo number \(next.added)", priority: next.added % 5,
                        created: next.added))
            }
        case .delete(let id):
            next.todos.removeAll { $0.id == id }
        case .move(let from, let to):
            guard next.todos.indices.contains(from), (0...next.todos.count - 1).contains(to) else {
                return Update(state: state)
            }
            next.todos.insert(next.todos.remove(at: from), at: to)
        case .orderByDate:
            next.todos.sort { $0.created < $1.created }
        case .orderByPriority:
            next.todos.sort { ($0.priority, $1.created) > ($1.priority, $0.created) }
        case .removeCompleted:
            next.todos.removeAll(where: \.done)
        case .toggleLater(let id, let milliseconds):
            return Update(
                state: state,
                fx: Fx<Action>.task {
                    try? await environment.clock.sleep(for: .milliseconds(milliseconds))
                    return .todos(id, .toggle)
                })
        case .todos(let id, let action):
            return TodoCursor.update(state: state, action: action, key: id, environment: ())
        }
        return Update(state: next)
    }
}

/// One todo of the list, by id. A missing id is a no-op.
enum TodoCursor: KeyedCursorProtocol {
    static func get(state: TodoList, key: String) -> Todo? {
        state.todos.first { $0.id == key }
    }

    static func set(state: TodoList, inner: Todo, key: String) -> TodoList {
        var next = state
        if let index = next.todos.firstIndex(where: { $0.id == key }) { next.todos[index] = inner }
        return next
    }

    static func tag(action: Todo.Action, key: String) -> TodoList.Action { .todos(key, action) }
}

let todosModel = PluginModel.observable(
    "todos", doc: "A todo list; edit one todo with todos[\"t1\"].toggle.", initial: { TodoList() },
    environment: { TodoList.Environment(clock: $0.clock) })

@_cdecl("storeplugin_info_v1")
public func pluginInfo() -> UnsafeRawPointer { StorePlugin.info(name: "todos", version: "1.0.0") }

@_cdecl("storeplugin_register_v1")
public func pluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
    StorePlugin.register(host: host, error: error, models: [todosModel])
}
