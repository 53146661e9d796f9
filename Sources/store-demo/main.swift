// store-demo: a short guided run of both store libraries, printing every action, state
// change and effect event. It is the README's run command until the storesh shell lands.
import Arboreal
import Dispatch
import ObservableStore

/// Lets the main queue run until `done` holds (effects deliver on the main queue).
@MainActor
func settle(_ done: @MainActor () -> Bool) async {
    while !done() {
        try? await Task.sleep(for: .milliseconds(5))
    }
}

print("== ObservableStore: a search box whose queries supersede each other")
let search = ObservableStore.Store(state: SearchModel(), environment: SearchModel.Environment())
search.onEffectEvent = { print("   effect \($0)") }
let watching = search.$state.dropFirst().sink { print("   state  \($0)") }
for action: SearchModel.Action in [.type("s"), .type("sw"), .type("swift")] {
    print("-> \(action)")
    search.send(action)
}
await settle { search.effectsInFlight == 0 }
print("-> clear")
search.send(.clear)
_ = watching

print("\n== Arboreal: an observable counter with an async effect")
let counter = Arboreal.Store(state: ArborealCounter(), environment: ())
counter.onEffectEvent = { print("   effect \($0)") }
for action: ArborealCounter.Action in [.increment, .increment, .incrementLater] {
    print("-> \(action)")
    counter.send(action)
    print("   count  \(counter.state.count)")
}
await settle { counter.effectsInFlight == 0 }
print("   count  \(counter.state.count)")
print("\nThe storesh shell (issue: storesh) will load models like these from plugins.")
