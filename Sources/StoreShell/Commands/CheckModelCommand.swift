import StoreHost
import StoreValue

/// `:check-model [NAME]`: the properties the model declares — its invariants in the
/// property language and its checks in code — asked for as `storesh explore` asks.
struct CheckModelCommand: ShellCommand {
    let name = "check-model"
    let usage = ":check-model [NAME]"
    let summary =
        "check the model's own properties (its declared invariants and its checks in code); silent for one NAME that holds"
    let detail = [
        "With NAME (quoted when it has spaces): that check in the model's code, as explore asks for it; a postcondition looks at the last action sent and holds when the model refused it. This is how a transcript of 'storesh explore' pins a check in code.",
        "Without: every check the model declares, each with whether it holds; an error when one does not.",
    ]
    var readsOnly: Bool { true }

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        checkModel(arguments, origin: origin, in: core)
    }

    /// One check in code, or every property the model declares.
    @MainActor private func checkModel(
        _ arguments: CommandArguments, origin: LineOrigin, in context: some CommandContext
    ) -> Bool {
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        let model = session.model
        guard arguments.words.count <= 1 else {
            return context.fail("usage: :check-model [NAME] (quote a name that has spaces)", origin: origin)
        }
        if let name = arguments.words.first {
            guard let index = model.checks.firstIndex(where: { $0.name == name }) else {
                let names = model.checks.map { "\"\($0.name)\"" }.joined(separator: ", ")
                return context.fail(
                    "\(model.qualifiedName) has no check in code named \"\(name)\""
                        + (names.isEmpty ? "; it declares none" : "; its checks: \(names)"),
                    origin: origin, in: arguments, at: 0)
            }
            let check = model.checks[index]
            do {
                let verdict = try session.check(index)
                if verdict.holds { return true }
                return context.fail(Self.broken(check, verdict.message), origin: origin)
            } catch {
                return context.fail(error.message, origin: origin)
            }
        }
        return checkEveryProperty(of: session, origin: origin, in: context)
    }

    /// Every property `session`'s model declares, with whether it holds now: a report,
    /// and an error naming each that does not.
    @MainActor private func checkEveryProperty(
        of session: Session, origin: LineOrigin, in context: some CommandContext
    ) -> Bool {
        let model = session.model
        guard !model.invariants.isEmpty || !model.checks.isEmpty else {
            context.output(.info(kind: "check-model", lines: ["\(model.qualifiedName) declares no checks"]))
            return true
        }
        let state: Value
        do {
            state = try session.currentState()
        } catch {
            return context.fail(error.message, origin: origin)
        }
        var rows: [(name: String, kind: String, holds: Bool, message: String?)] = []
        for condition in model.invariants {
            let outcome = condition.check(state, identity: model.stateDiff)
            switch outcome {
            case .holds, .missing: rows.append((condition.description, "invariant", true, nil))
            case .fails, .invalid:
                rows.append((condition.description, "invariant", false, condition.explain(outcome)))
            }
        }
        for (index, check) in model.checks.enumerated() {
            do {
                let verdict = try session.check(index)
                rows.append((check.name, check.kind + " in code", verdict.holds, verdict.message))
            } catch {
                rows.append((check.name, check.kind + " in code", false, error.message))
            }
        }
        let lines = rows.map { row in
            (row.holds ? "holds   " : "BROKEN  ") + "\(row.kind): \(row.name)" + (row.message.map { " (\($0))" } ?? "")
        }
        let data = Value.array(
            rows.map { row in
                .record([
                    "name": .string(row.name), "kind": .string(row.kind), "holds": .bool(row.holds),
                    "message": row.message.map(Value.string) ?? .null,
                ])
            })
        context.output(.report(kind: "check-model", lines: lines, data: data))
        let broken = rows.filter { !$0.holds }
        guard broken.isEmpty else {
            return context.fail(
                "\(broken.count) of \(rows.count) checks broken: " + broken.map(\.name).joined(separator: ", "),
                origin: origin)
        }
        return true
    }

    static func broken(_ check: ModelCheck, _ message: String?) -> String {
        "check failed: the model's \(check.kind) \"\(check.name)\" is broken" + (message.map { ": \($0)" } ?? "")
    }
}
