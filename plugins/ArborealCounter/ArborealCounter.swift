// ArborealCounter: the Arboreal flavour (an @Observable reference model) with an async
// effect that waits on the host clock.
import Arboreal
import Observation
import StorePlugin

@Observable
@MainActor
final class ArborealCounter: ArborealModel {
    var count = 0

    @PluginActions
    enum Action: Codable, Sendable {
        /// Adds one.
        case increment
        /// Subtracts one.
        case decrement
        /// Sets the count.
        /// - Parameter count: the new count
        case setCount(Int)
        /// Sets the count to zero.
        case reset
        /// Adds one after a second (an async effect on the host clock).
        case incrementLater
    }

    struct Environment {
        let clock: HostClock
    }

    func update(action: Action, environment: Environment) -> Fx<Action> {
        switch action {
        case .increment: count += 1
        case .decrement: count -= 1
        case .setCount(let value): count = value
        case .reset: count = 0
        case .incrementLater:
            let clock = environment.clock
            return Fx {
                try? await clock.sleep(for: .seconds(1))
                return .increment
            }
        }
        return .none
    }
}

/// What the shell shows of the model.
struct CounterState: Encodable {
    let count: Int
}

let arborealModel = PluginModel.arboreal(
    "arboreal", doc: "A counter as an @Observable reference model, with an async effect.",
    initial: { ArborealCounter() }, state: { CounterState(count: $0.count) },
    environment: { ArborealCounter.Environment(clock: $0.clock) }
)
.postcondition("reset makes the count zero") { (_: CounterState, action: ArborealCounter.Action, new: CounterState) in
    guard case .reset = action else { return true }
    return new.count == 0
}

@_cdecl("storeplugin_info_v1")
public func pluginInfo() -> UnsafeRawPointer { StorePlugin.info(name: "arboreal", version: "1.0.0") }

@_cdecl("storeplugin_register_v1")
public func pluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
    StorePlugin.register(host: host, error: error, models: [arborealModel])
}
