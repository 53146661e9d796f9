import Foundation
import StoreHost
import StoreService
import StoreValue

extension FuzzTarget {
    /// Bytes as a client's typed action (MCP's `tools/call`, the inspector's form): the
    /// first byte picks one of the fuzz model's action operations, the rest is the JSON
    /// object of its arguments. Read, checked against the operation, then bound to the
    /// schema, it never traps; a refusal's offset points into its text; and the action's
    /// text, as shown and recorded, parses and binds to the same action and values (the
    /// typed path and the prompt's agree).
    static func typedValues(_ data: Data) {
        // libFuzzer calls from the main thread; the operations are the main actor's.
        MainActor.assumeIsolated { typedValuesOnTheMainActor(data) }
    }

    @MainActor private static func typedValuesOnTheMainActor(_ data: Data) {
        guard let pick = data.first else { return }
        let operations = SessionService.actionOperations(of: FuzzModel.model)
        let operation = operations[Int(pick) % operations.count]
        guard let arguments = try? JSONArguments.read(Array(data.dropFirst().prefix(8192))),
            let call = try? SessionService.actionValues(of: operation, arguments: arguments)
        else { return }
        let bound: (action: ActionDescriptor, arguments: [Value], text: String)
        do throws(ActionValues.Refusal) {
            bound = try ActionBinding.bind(call, to: FuzzModel.model)
        } catch {
            guard (0...error.text.utf8.count).contains(error.offset) else {
                violated("the refusal '\(error.message)' points at \(error.offset), outside '\(error.text)'")
            }
            return
        }
        let again: (ActionDescriptor, [Value])
        do {
            again = try ActionBinding.bind(ActionCall.parse(bound.text), to: FuzzModel.model)
        } catch {
            violated("\(call) was recorded as '\(bound.text)', which does not parse and bind: \(error)")
        }
        guard again.0.index == bound.action.index, again.1 == bound.arguments else {
            violated("\(call) bound as \(bound.arguments), but its text '\(bound.text)' as \(again.1)")
        }
    }
}
