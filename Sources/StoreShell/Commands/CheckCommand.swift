import StoreHost
import StoreValue

/// `:check EXPR`: an invariant, with explore's semantics.
struct CheckCommand: ShellCommand {
    let name = "check"
    let usage = ":check EXPR"
    let summary = "check a property of the state as explore's --invariant does; silent when it holds"
    let detail = [
        "EXPR is the property language (docs/shell/explore.md): paths, [*], arithmetic, && || !, count(…), sum(…), … e.g. :check size == count(contents).",
        "Unlike :expect, a path that names nothing (or min/max of an empty list) passes: the check is skipped, as explore skips it.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        check(arguments, origin: origin, in: core)
    }

    /// Whether the expression holds in the current state.
    @MainActor private func check(_ arguments: CommandArguments, origin: LineOrigin, in context: some CommandContext)
        -> Bool
    {
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        guard let condition = context.parseCondition(arguments.text, in: arguments, origin: origin) else {
            return false
        }
        let state: Value
        do {
            state = try session.currentState()
        } catch {
            return context.fail(error.message, origin: origin)
        }
        return context.verdict(condition.check(state, identity: session.model.stateDiff), of: condition, origin: origin)
    }
}

/// `:check-after ACTION EXPR`: a postcondition of the last action line.
struct CheckAfterCommand: ShellCommand {
    let name = "check-after"
    let usage = ":check-after ACTION EXPR"
    let summary = "check a postcondition of the last action line, as explore's --after does; silent when it holds"
    let detail = [
        "The last action line must have been ACTION (accepted or refused): old(…) reads the state before it, args.NAME and args[N] its arguments, accepted whether the model took it.",
        "A path that names nothing passes, as in explore.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        checkAfter(arguments, origin: origin, in: core)
    }

    /// Whether the postcondition holds for the last action line.
    @MainActor private func checkAfter(
        _ arguments: CommandArguments, origin: LineOrigin, in context: some DebuggingContext
    ) -> Bool {
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        let text = arguments.text
        let action = String(text.prefix { $0 != " " && $0 != "\t" })
        let rest = text.dropFirst(action.count)
        let expression = String(rest.drop { $0 == " " || $0 == "\t" })
        guard !action.isEmpty, !expression.isEmpty else {
            return context.fail("usage: :check-after ACTION EXPR", origin: origin)
        }
        let condition: StateCondition
        do {
            condition = try StateCondition.parse(expression, context: .action)
        } catch {
            return context.fail(
                error.message, origin: origin, in: arguments, at: text.utf8.count - expression.utf8.count + error.offset
            )
        }
        let key = session.model.qualifiedName
        guard let last = context.debugging.lastAttempt, last.model == key else {
            return context.fail(
                "no action line of \(key) was run yet: :check-after checks the last one", origin: origin)
        }
        guard last.action == action else {
            return context.fail("the last action line was \(last.action), not \(action)", origin: origin)
        }
        // Batched lines (a script's, in a worker or quiet) read no state before an action,
        // and a script's action line followed by another does not keep it, so the state
        // before may be unknown: only old(…) needs it.
        guard let old = last.old ?? (Self.readsOld(condition.expression) ? nil : .null) else {
            return context.fail(
                "old(…) cannot be read here: the state before the last action was not kept (a script's action lines, but the last of a group in process); run it at the prompt or in a transcript",
                origin: origin)
        }
        let state: Value
        do {
            state = try session.currentState()
        } catch {
            return context.fail(error.message, origin: origin)
        }
        let labels = session.model.action(named: action)?.params.map(\.label) ?? []
        let step = PropertyStep(
            action: action, labels: labels, arguments: last.arguments, old: old, accepted: last.accepted)
        return context.verdict(
            condition.check(state, identity: session.model.stateDiff, step: step), of: condition, origin: origin)
    }

    private static func readsOld(_ node: PropertyNode) -> Bool {
        if case .old = node.kind { return true }
        return node.kind.childNodes.contains { readsOld($0) }
    }
}

extension CommandContext {
    /// What `:check` and `:check-after` answer: true when the condition holds, or names
    /// nothing (skipped, as explore skips it); otherwise the failure, reported.
    fileprivate func verdict(_ outcome: StateCondition.Outcome, of condition: StateCondition, origin: LineOrigin)
        -> Bool
    {
        switch outcome {
        case .holds, .missing: return true  // a path naming nothing: skipped, as explore skips it
        case .fails, .invalid:
            return fail("check failed: \(condition) is false: \(condition.explain(outcome) ?? "")", origin: origin)
        }
    }

}
