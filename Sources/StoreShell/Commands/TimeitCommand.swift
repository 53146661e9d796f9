import Dispatch
import StoreHost
import StoreValue

/// `:timeit ACTION [-n N] [-r R]`: an action's update timed from the current state, as
/// IPython's %timeit times a statement.
struct TimeitCommand: ShellCommand {
    let name = "timeit"
    let usage = ":timeit ACTION [-n N] [-r R]"
    let summary = "time an action's update from the current state: best, median and worst of R runs of N"
    let detail = [
        "As IPython's %timeit: the state is restored before each run of the action, in a store of its own, so the session and its history are unchanged. Without -n, N grows tenfold until a run takes 0.2 s; R is 7. Effects are not started."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        timeit(arguments, origin: origin, in: core)
    }

    /// Times the action in a store of its own, started from the current state each run.
    @MainActor private func timeit(_ arguments: CommandArguments, origin: LineOrigin, in context: some CommandContext)
        -> Bool
    {
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        let usage = "usage: :timeit ACTION [-n N] [-r R]"
        // The action is everything before the first -n or -r that stands alone.
        var actionText = arguments.text
        var number: Int?
        var repeats = 7
        for flag in ["-n", "-r"] {
            guard let range = CommandArguments.flagRange(flag, in: actionText) else { continue }
            let rest = actionText[range.upperBound...].drop { $0 == " " || $0 == "\t" }
            let word = rest.prefix { $0 != " " && $0 != "\t" }
            guard let count = Int(word), (1...1_000_000).contains(count) else {
                return context.fail("\(flag) needs a whole number from 1 to 1000000; \(usage)", origin: origin)
            }
            if flag == "-n" { number = count } else { repeats = min(count, 1000) }
            actionText.replaceSubrange(range.lowerBound..<word.endIndex, with: "")
        }
        actionText = ShellCore.trimmed(actionText)
        guard !actionText.isEmpty else { return context.fail(usage, origin: origin) }
        let bound: (ActionDescriptor, [Value])
        do {
            bound = try ActionBinding.bind(ActionCall.parse(actionText), to: session.model)
        } catch {
            return context.fail(error.message, origin: origin, text: actionText, offset: error.offset)
        }
        guard session.model.supportsTimeTravel else {
            return context.fail(
                "\(session.model.qualifiedName) has no replay entry point, which :timeit times (an update without its effects)",
                origin: origin)
        }
        let start: Value
        do {
            start = try session.currentState()
        } catch {
            return context.fail(error.message, origin: origin)
        }
        do throws(ShellError) {
            let store = try context.detachedSession(of: session.model)
            guard (try? store.restore(start)) == true else {
                return context.fail(
                    "\(session.model.qualifiedName) cannot restore a snapshot, which :timeit needs to start each run from the current state",
                    origin: origin)
            }
            // One run: `count` times the update from the current state, each timed alone.
            func run(_ count: Int) throws(ShellError) -> UInt64 {
                var spent: UInt64 = 0
                for _ in 0..<count {
                    do {
                        _ = try store.restore(start)
                        let began = DispatchTime.now().uptimeNanoseconds
                        _ = try store.replay(bound.0.name, arguments: bound.1)
                        spent += DispatchTime.now().uptimeNanoseconds - began
                    } catch {
                        throw ShellError("\(actionText): \(error.message)", origin: .prompt)
                    }
                }
                return spent
            }
            var loops = number ?? 1
            if number == nil {
                // IPython's rule: ten times more until one run takes 0.2 s.
                while loops < 1_000_000, try run(loops) < 200_000_000 { loops *= 10 }
            }
            var perAction: [Double] = []
            for _ in 0..<repeats {
                if context.takeInterrupt() {
                    return context.fail("interrupted after \(perAction.count) of \(repeats) runs", origin: origin)
                }
                perAction.append(Double(try run(loops)) / Double(loops))
            }
            perAction.sort()
            let best = perAction.first!
            let worst = perAction.last!
            let median =
                perAction.count % 2 == 1
                ? perAction[perAction.count / 2]
                : (perAction[perAction.count / 2 - 1] + perAction[perAction.count / 2]) / 2
            let show = { (value: Double) in HumanDuration.text(UInt64(value.rounded())) }
            let line =
                "\(actionText): best \(show(best)), median \(show(median)), worst \(show(worst)) per action (\(repeats) run\(repeats == 1 ? "" : "s") of \(loops); the update alone\(session.callsAreRoundTrips ? ", a round trip to the worker each" : ""), from the current state each time)"
            context.output(
                .report(
                    kind: "timeit", lines: [line],
                    data: .record([
                        "action": .string(actionText), "best_ns": .double(best), "median_ns": .double(median),
                        "worst_ns": .double(worst),
                        "runs": .int(Int64(repeats)), "number": .int(Int64(loops)),
                        "in_worker": .bool(session.callsAreRoundTrips),
                    ])))
            return true
        } catch {
            return context.fail(error.message, origin: origin)
        }
    }
}
