package import StoreHost
import StoreValue

/// `:check EXPR` and `:check-after ACTION EXPR`: an invariant and a postcondition with
/// explore's own semantics (a path naming nothing skips the check), which is how the
/// transcript `storesh explore` writes pins the property it broke; and `:expect EXPR`,
/// for which a path naming nothing fails.
extension ShellCore {
    func check(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        guard let condition = parseCondition(arguments.text, in: arguments, origin: origin) else { return false }
        let state: Value
        do {
            state = try session.currentState()
        } catch {
            return fail(error.message, origin: origin)
        }
        return report(condition.check(state, identity: session.model.stateDiff), of: condition, origin: origin)
    }

    func checkAfter(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        let text = arguments.text
        let action = String(text.prefix { $0 != " " && $0 != "\t" })
        let rest = text.dropFirst(action.count)
        let expression = String(rest.drop { $0 == " " || $0 == "\t" })
        guard !action.isEmpty, !expression.isEmpty else {
            return fail("usage: :check-after ACTION EXPR", origin: origin)
        }
        let condition: StateCondition
        do {
            condition = try StateCondition.parse(expression, context: .action)
        } catch {
            return fail(
                error.message, origin: origin, in: arguments, at: text.utf8.count - expression.utf8.count + error.offset
            )
        }
        let key = session.model.qualifiedName
        guard let last = debugging.lastAttempt, last.model == key else {
            return fail("no action line of \(key) was run yet: :check-after checks the last one", origin: origin)
        }
        guard last.action == action else {
            return fail("the last action line was \(last.action), not \(action)", origin: origin)
        }
        // Batched lines (a script's, in a worker or quiet) read no state before an action,
        // and a script's action line followed by another does not keep it, so the state
        // before may be unknown: only old(…) needs it.
        guard let old = last.old ?? (Self.readsOld(condition.expression) ? nil : .null) else {
            return fail(
                "old(…) cannot be read here: the state before the last action was not kept (a script's action lines, but the last of a group in process); run it at the prompt or in a transcript",
                origin: origin)
        }
        let state: Value
        do {
            state = try session.currentState()
        } catch {
            return fail(error.message, origin: origin)
        }
        let labels = session.model.action(named: action)?.params.map(\.label) ?? []
        let step = PropertyStep(
            action: action, labels: labels, arguments: last.arguments, old: old, accepted: last.accepted)
        return report(
            condition.check(state, identity: session.model.stateDiff, step: step), of: condition, origin: origin)
    }

    private static func readsOld(_ node: PropertyNode) -> Bool {
        if case .old = node.kind { return true }
        return node.kind.childNodes.contains { readsOld($0) }
    }

    private func report(_ outcome: StateCondition.Outcome, of condition: StateCondition, origin: LineOrigin) -> Bool {
        switch outcome {
        case .holds, .missing: return true  // a path naming nothing: skipped, as explore skips it
        case .fails, .invalid:
            return fail("check failed: \(condition) is false: \(condition.explain(outcome) ?? "")", origin: origin)
        }
    }

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
