// Counter: the smallest ObservableStore model, exported as a storesh plugin.
import ObservableStore
import StorePlugin

@PluginState
struct Counter: ModelProtocol, Codable {
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
    }

    static func update(state: Counter, action: Action, environment: Void) -> Update<Counter> {
        var next = state
        switch action {
        case .increment: next.count += 1
        case .decrement: next.count -= 1
        case .setCount(let value): next.count = value
        case .reset: next.count = 0
        }
        return Update(state: next)
    }
}

let counterModel = PluginModel.observable(
    "counter", doc: "A counter: the smallest model there is.", initial: { Counter() }, environment: { _ in })

@_cdecl("storeplugin_info_v1")
public func pluginInfo() -> UnsafeRawPointer { StorePlugin.info(name: "counter", version: "1.0.0") }

@_cdecl("storeplugin_register_v1")
public func pluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
    StorePlugin.register(host: host, error: error, models: [counterModel])
}
