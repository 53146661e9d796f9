// Upstream Arboreal code got `@Observable` from `import SwiftUI`. With the SwiftUI import
// removed, `import Arboreal` alone gave "unknown attribute 'Observable'": this file imports
// nothing else, and compiling it is half the test.
import Arboreal
import TestSupport
import Testing

@Observable @MainActor
final class UpstreamCounter: ArborealModel {
    var count = 0
    enum Action: Sendable { case increment }

    func update(action: Action, environment: Void) -> Fx<Action> {
        count += 1
        return .none
    }
}

@MainActor
@Suite("upstream Arboreal code compiles with import Arboreal alone")
struct UpstreamObservableTests {
    @Test func anObservableModelFromUpstreamIsObserved() {
        let store = Store(state: UpstreamCounter(), environment: ())
        let changed = Locked(false)
        withObservationTracking {
            _ = store.state.count
        } onChange: {
            changed.update { $0 = true }
        }
        store.send(.increment)
        #expect(store.state.count == 1)
        #expect(changed.current, "@Observable came with import Arboreal")
    }
}
