package import StoreHost
import StoreValue

/// `:expect EXPR`: the condition holds in the current state, and a path naming nothing
/// fails it (`:check` and `:check-after`, with explore's semantics, are in
/// `Commands/CheckCommand.swift`). MCP's and the inspector's `expect` call it with the
/// condition already read.
extension ShellCore {
    /// `:expect PATH OP VALUE`, OP one of `==`, `!=`, `<`, `<=`, `>`, `>=` (`StateCondition`).
    func expect(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        guard current != nil else { return fail(noCurrentModel, origin: origin) }
        let condition: StateCondition
        do {
            condition = try StateCondition.parse(arguments.text)
        } catch {
            return fail(error.message, origin: origin, in: arguments, at: error.offset)
        }
        return expect(condition, origin: origin)
    }

    /// `:expect` with its condition already read (an MCP client's path, operator and
    /// value): fails, saying what the state holds, unless the condition holds in the
    /// current model's state.
    package func expect(_ condition: StateCondition, origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        let state: Value
        do {
            state = try session.currentState()
        } catch {
            return fail(error.message, origin: origin)
        }
        if let problem = condition.explain(condition.check(state, identity: session.model.stateDiff)) {
            return fail("expectation failed: \(problem)", origin: origin)
        }
        return true
    }
}
