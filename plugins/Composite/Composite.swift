// Composite: a parent with two child components wired through cursors. Child actions
// are tagged (`child.increment` is `.child(.increment)`), child effects come back tagged,
// and `resetAll` runs several child actions as one update.
import ObservableStore
import StorePlugin

/// The child component: a tally with a delayed increment.
struct Tally: ModelProtocol, Codable {
    var value = 0

    @PluginActions
    enum Action: Codable, Sendable {
        /// Adds one.
        case increment
        /// Subtracts one.
        case decrement
        /// Sets the value.
        /// - Parameter value: the new value
        case setValue(Int)
        /// Adds one after a second on the host clock.
        case incrementLater
    }

    static func update(state: Tally, action: Action, environment: HostClock) -> Update<Tally> {
        var next = state
        switch action {
        case .increment: next.value += 1
        case .decrement: next.value -= 1
        case .setValue(let value): next.value = value
        case .incrementLater:
            return Update(
                state: state,
                fx: Fx<Action>.task {
                    try? await environment.sleep(for: .seconds(1))
                    return .increment
                })
        }
        return Update(state: next)
    }
}

struct Composite: ModelProtocol, Codable {
    var title = "scores"
    var child = Tally()
    var other = Tally()

    @PluginActions
    enum Action: Codable, Sendable {
        /// The first tally's actions: `child.increment`, …
        case child(Tally.Action)
        /// The second tally's actions: `other.increment`, …
        case other(Tally.Action)
        /// Renames the board.
        /// - Parameter title: the new title
        case rename(String)
        /// Sets both children to zero in one update.
        case resetAll
        /// Sets both children to zero after two seconds (a publisher effect on the host
        /// scheduler).
        case resetLater
    }

    struct Environment {
        let clock: HostClock
        let scheduler: HostScheduler
    }

    static func update(state: Composite, action: Action, environment: Environment) -> Update<Composite> {
        switch action {
        case .child(let action):
            return ChildCursor.update(state: state, action: action, environment: environment.clock)
        case .other(let action):
            return OtherCursor.update(state: state, action: action, environment: environment.clock)
        case .rename(let title):
            var next = state
            next.title = title
            return Update(state: next)
        case .resetAll:
            return update(
                state: state, actions: [.child(.setValue(0)), .other(.setValue(0))], environment: environment)
        case .resetLater:
            let later = Just(Action.resetAll).delay(for: .seconds(2), scheduler: environment.scheduler)
            return Update(state: state, fx: later.eraseToAnyPublisher())
        }
    }
}

enum ChildCursor: CursorProtocol {
    static func get(state: Composite) -> Tally { state.child }
    static func set(state: Composite, inner: Tally) -> Composite {
        var next = state
        next.child = inner
        return next
    }
    static func tag(_ action: Tally.Action) -> Composite.Action { .child(action) }
}

enum OtherCursor: CursorProtocol {
    static func get(state: Composite) -> Tally { state.other }
    static func set(state: Composite, inner: Tally) -> Composite {
        var next = state
        next.other = inner
        return next
    }
    static func tag(_ action: Tally.Action) -> Composite.Action { .other(action) }
}

let compositeModel = PluginModel.observable(
    "composite", doc: "A parent with two child tallies wired through cursors.", initial: { Composite() },
    environment: { Composite.Environment(clock: $0.clock, scheduler: $0.scheduler) }
)

@_cdecl("storeplugin_info_v1")
public func pluginInfo() -> UnsafeRawPointer { StorePlugin.info(name: "composite", version: "1.0.0") }

@_cdecl("storeplugin_register_v1")
public func pluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
    StorePlugin.register(host: host, error: error, models: [compositeModel])
}
