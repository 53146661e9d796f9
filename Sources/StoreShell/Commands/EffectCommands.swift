import StoreHost
import StoreValue

/// `:fx [leave-running | none-failed]`: the effects in flight in the current model.
struct FxCommand: ShellCommand {
    let name = "fx"
    let readsOnly = true
    let usage = ":fx [leave-running | none-failed]"
    let summary = "effects in flight in the current model"
    let detail = [
        "A script or transcript that ends with effects in flight fails, as TCA's TestStore does; ':fx leave-running' says that is expected.",
        "':fx none-failed' is a check: an error when an effect of the current model failed since its store was made (storesh explore pins a failed effect with it).",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let args = arguments.words
        switch args.first {
        case nil: break
        case "leave-running" where args.count == 1:
            core.effectsMayOutlive = true
            return true
        case "none-failed" where args.count == 1:
            guard let model = core.current?.model.qualifiedName else {
                return core.fail(core.noCurrentModel, origin: origin)
            }
            let failed = core.effects.failed[model] ?? []
            guard failed.isEmpty else {
                return core.fail(
                    "\(failed.count) effect\(failed.count == 1 ? "" : "s") failed: \(failed.joined(separator: "; "))",
                    origin: origin)
            }
            return true
        default: return core.fail("usage: :fx [leave-running | none-failed]", origin: origin)
        }
        let running = core.inFlight()
        let lines = running.map { "fx #\($0.id) \($0.label ?? "effect") running for \($0.milliseconds)ms" }
        let records: [Value] = running.map { effect in
            .record([
                "id": .int(Int64(effect.id)), "label": effect.label.map(Value.string) ?? .null,
                "running_ms": .int(effect.milliseconds),
            ])
        }
        core.output(
            .report(
                kind: "fx", lines: lines.isEmpty ? ["no effects in flight"] : lines,
                data: .record([
                    "model": core.current.map { .string($0.model.qualifiedName) } ?? .null,
                    "effects": .array(records),
                ])))
        return true
    }
}

/// `:wait [TIMEOUT]`: waits until the current model's effects settle.
struct WaitCommand: ShellCommand {
    let name = "wait"
    let usage = ":wait [TIMEOUT]"
    let summary = "wait until the current model's effects settle"
    let detail = [
        "TIMEOUT is seconds (5), or like 500ms, 2s or 1m (default 10s). Under a virtual clock, time is advanced to each next wake-up instead."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        await core.wait(arguments.words, origin: origin)
    }
}

/// `:advance DURATION`: moves the virtual clock forward.
struct AdvanceCommand: ShellCommand {
    let name = "advance"
    let usage = ":advance DURATION"
    let summary = "move the virtual clock forward (storesh --virtual-clock)"
    let detail = [
        "DURATION is seconds (5), or like 500ms, 2s or 1m. Effects due by then fire in deadline order; ties in the order they were scheduled."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        await core.advance(arguments.words, origin: origin)
    }
}
