package import StoreHost
import StoreValue

/// A counter whose effect applies `poke(`: an action its update takes, written as a text
/// its own parser cannot read back (a plugin whose action text and parser disagree).
@MainActor
package func pokedCounter() -> ScriptedModel {
    ScriptedModel(
        plugin: "mem", name: "counter", actions: [("increment", [])], initial: .record(["count": .int(0)])
    ) { state, action, _ throws(SessionError) in
        guard case .int(let count)? = state["count"] else { throw SessionError(message: "no count") }
        switch action {
        case "increment": state = .record(["count": .int(count + 1)])
        case "poke(": state = .record(["count": .int(count + 100)])
        default: throw SessionError(message: "\(action): refused by the model")
        }
        return true
    }
}
