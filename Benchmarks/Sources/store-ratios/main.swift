// Prints the throughput of each store workload beside its raw update loop, measured in
// the same run, and the ratio between them. Best of several rounds, to damp noise.
//   swift run -c release store-ratios [--actions N] [--effects N] [--host-actions N] [--rounds N] [--plugins DIR]
import Dispatch
import EmbeddingWorkloads
import Foundation
import StoreHost
import StoreValue
import StoreWorkloads

let usage =
    "usage: store-ratios [--actions N] [--effects N] [--host-actions N] [--script-lines N] [--todos N] [--history N] [--rounds N] [--plugins DIR] [--against DIR] [--only scaling|time-travel|stores|output|host|explore]"

struct Options {
    var actions = 10_000_000
    var effects = 500_000
    var hostActions = 1_000_000
    var scriptLines = 1_000_000
    var todos = 10_000
    var history = 1_000_000
    var rounds = 5
    /// Only one section: `scaling` (the observed toggle at 1k, 10k, 100k todos, in process
    /// and in a worker), `time-travel` (a long history), `explore` (the ring buffer), …
    var only: String?
    /// Where the root package built the example plugins.
    var plugins: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let release = root.appendingPathComponent(".build/release").path
        return FileManager.default.fileExists(atPath: release + "/libStoreshExampleCounter.so")
            ? release : root.appendingPathComponent(".build/debug").path
    }()
    /// Another build's plugins and `storesh` (`--only output`): each round times both
    /// builds in turn, so a before/after comparison sees one machine speed per round.
    var against: String?

    /// A bad command line: the usage on standard error, exit status 2 (not a crash).
    static func fail() -> Never {
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(2)
    }

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let text = rest.popFirst() else { Options.fail() }
            if flag == "--only", ["scaling", "time-travel", "stores", "output", "host", "explore"].contains(text) {
                only = text
                continue
            }
            if flag == "--plugins" {
                plugins = text
                continue
            }
            if flag == "--against" {
                against = text
                continue
            }
            guard let value = Int(text), value > 0 else { Options.fail() }
            switch flag {
            case "--actions": actions = value
            case "--effects": effects = value
            case "--host-actions": hostActions = value
            case "--script-lines": scriptLines = value
            case "--todos": todos = value
            case "--history": history = value
            case "--rounds": rounds = value
            default:
                FileHandle.standardError.write(Data("store-ratios: unknown option \(flag)\n".utf8))
                Options.fail()
            }
        }
    }
}

/// Seconds for the fastest of `rounds` runs of `body`, which must return `expected`.
@MainActor
func best(_ rounds: Int, expected: Int, _ body: @MainActor () async -> Int) async -> Double {
    var fastest = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = await body()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        precondition(result == expected, "workload returned \(result), expected \(expected)")
        fastest = min(fastest, seconds)
    }
    return fastest
}

func rate(_ count: Int, _ seconds: Double) -> String {
    let perSecond = Double(count) / seconds
    return perSecond >= 1e6
        ? String(format: "%8.2f M/s", perSecond / 1e6)
        : String(format: "%8.1f k/s", perSecond / 1e3)
}

@MainActor
func report(_ name: String, count: Int, measured: Double, raw: Double, target: String) {
    print(
        "\(name.padding(toLength: 38, withPad: " ", startingAt: 0)) \(rate(count, measured))   raw \(rate(count, raw))   ratio \(String(format: "%5.2f", measured / raw))×   target \(target)"
    )
}

let options = Options(CommandLine.arguments)
let n = options.actions
let e = options.effects
let r = options.rounds

/// The whole observed toggle (dispatch, state back, diff) on a Todos state of 1k, 10k and
/// 100k items, in process and in a worker: what a user waits for at the prompt.
@MainActor
func observedToggleCurve() {
    WorkerWorkloads.useWorker(from: options.plugins)
    for count in [options.todos / 10, options.todos, options.todos * 10] {
        var figures: [String] = []
        for isolation in [PluginHost.Isolation.inProcess, .workers] {
            let place = isolation == .inProcess ? "in process" : "in a worker"
            do {
                let best = try ShellWorkloads.observedToggle(
                    count: count, from: options.plugins, isolation: isolation, rounds: r)
                figures.append(String(format: "%@ %.2f ms", place, best * 1000))
            } catch {
                // A figure that could not be measured says why (a stale worker, a missing plugin).
                figures.append("\(place) failed: \(error)")
            }
        }
        print(
            String(format: "observed toggle in %7d todos: ", count) + figures.joined(separator: ", ")
                + (count == 10_000 ? "   target <= 10 ms" : count == 100_000 ? "   target <= 100 ms" : ""))
    }
}

/// Time travel over a long history: recording, the worst `:goto`, resident memory.
@MainActor
func timeTravel() async {
    print("\ntime travel over a \(options.history)-action history (storesh's core, Counter plugin)")
    do {
        let figures = try await HistoryWorkloads.run(count: options.history, from: options.plugins)
        let worst = figures.gotoMilliseconds.map(\.milliseconds).max() ?? 0
        print(
            String(
                format:
                    "recording: %.2f M actions/s; :goto worst %.2f ms over %d jumps   target <= 10 ms; resident %.0f MB   target <= 200 MB",
                Double(options.history) / figures.recordSeconds / 1e6, worst, figures.gotoMilliseconds.count,
                figures.residentMegabytes))
        print(
            "  "
                + figures.gotoMilliseconds.map { String(format: ":goto %d %.2f ms", $0.target, $0.milliseconds) }
                .joined(separator: ", "))
    } catch {
        print("time-travel benchmark skipped: \(error)")
    }
}

if options.only == "time-travel" {
    await timeTravel()
    exit(0)
}

if options.only == "scaling" {
    observedToggleCurve()
    exit(0)
}

/// `--format json` against `--quiet` on the same scripts (issue 14's "no more than twice"),
/// for this build and, with `--against`, another one timed in the same rounds.
func outputCost() {
    let builds = [options.plugins] + (options.against.map { [$0] } ?? [])
    print(
        "\nshowing every result: --format json against --quiet (best of \(r); each round times quiet, json, quiet\(builds.count > 1 ? " for each build in turn" : ""))"
    )
    for script in ShellWorkloads.outputScripts {
        for (mode, flags) in [("in a worker", [String]()), ("in process", ["--in-process"])] {
            var quiet = [Double](repeating: .infinity, count: builds.count)
            var json = quiet
            var ratios = [[Double]](repeating: [], count: builds.count)
            do {
                for _ in 0..<r {
                    for (index, build) in builds.enumerated() {
                        let run = try ShellWorkloads.outputCost(
                            script: script.lines, name: script.name, plugin: script.plugin, storesh: build + "/storesh",
                            options: flags)
                        quiet[index] = min(quiet[index], run.quiet)
                        json[index] = min(json[index], run.json)
                        ratios[index].append(run.json / run.quiet)
                    }
                }
                for (index, build) in builds.enumerated() {
                    // The median of each round's own ratio is the steadier figure on a machine
                    // whose speed moves between rounds.
                    let median = ratios[index].sorted()[ratios[index].count / 2]
                    print(
                        String(
                            format:
                                "%@ (%d lines), %@, %@: --quiet %.3f s, --format json %.3f s = %.2fx, median of %d paired rounds %.2fx   target <= 2x",
                            script.name, script.lines.count, mode, build, quiet[index], json[index],
                            json[index] / quiet[index], r, median))
                }
            } catch {
                print("\(script.name) \(mode): skipped: \(error)")
            }
        }
    }
}

if options.only == "explore" {
    let binary = options.plugins + "/storesh"
    do {
        var startUp = Double.infinity
        for _ in 0..<max(r, 3) { startUp = min(startUp, try ShellWorkloads.startUp(storesh: binary)) }
        print(
            try ringFigure(
                binary: binary, startUp: startUp, runs: min(20000, max(100, options.scriptLines / 50)),
                rounds: max(r, 3)))
    } catch {
        print("explore skipped: \(error)")
    }
    exit(0)
}

if options.only == "output" {
    outputCost()
    exit(0)
}
print("store-ratios: \(n) actions, \(e) effects, best of \(r) rounds")

let rawSend = await best(r, expected: n) { Workloads.rawUpdateLoop(n) }
let send = await best(r, expected: n) { Workloads.storeSend(n) }
report("ObservableStore Store.send", count: n, measured: send, raw: rawSend, target: ">= 10 M/s, <= 4x raw")
let childSend = await best(r, expected: n) { Workloads.childSend(n) }
report("child action via update(get:set:tag:)", count: n, measured: childSend, raw: send, target: "<= 2x Store.send")
let viewStoreSend = await best(r, expected: n) { Workloads.viewStoreSend(n) }
report("ViewStore send", count: n, measured: viewStoreSend, raw: send, target: "<= 2x Store.send")
let elsewhere = await best(r, expected: n) { Workloads.viewStoreSendElsewhere(n) }
report("ViewStore send, from another function", count: n, measured: elsewhere, raw: send, target: "<= 2x Store.send")

// Issue 37's floor: a model of a count and 100 strings, against its update alone, and its
// child actions through a parent against a send to the child's own store.
let rawList = await best(r, expected: n) { Workloads.rawListUpdateLoop(n) }
let listSend = await best(r, expected: n) { Workloads.listStoreSend(n) }
report("Store.send, count + 100 strings", count: n, measured: listSend, raw: rawList, target: "<= 1.5x raw")
let listChild = await best(r, expected: n) { Workloads.listChildSend(n) }
report(
    "  its child action, update(get:set:tag:)", count: n, measured: listChild, raw: listSend,
    target: "<= 1.5x a send to its own store")
let listView = await best(r, expected: n) { Workloads.listViewStoreSend(n) }
report(
    "  its child action, viewStore(get:tag:)", count: n, measured: listView, raw: listSend,
    target: "<= 1.5x a send to its own store")

let rawPing = await best(r, expected: e) { Workloads.rawPingPongLoop(e) }
let roundTrip = await best(r, expected: e) { await Workloads.storeEffectRoundTrip(e) }
report("ObservableStore effect round trip", count: e, measured: roundTrip, raw: rawPing, target: ">= 500 k/s")

let rawArboreal = await best(r, expected: n) { Workloads.rawArborealLoop(n) }
let arborealSend = await best(r, expected: n) { Workloads.arborealSend(n) }
report("Arboreal Store.send", count: n, measured: arborealSend, raw: rawArboreal, target: ">= 10 M/s, <= 1.5x raw")

let arborealTrip = await best(r, expected: e) { await Workloads.arborealEffectRoundTrip(e) }
report(
    "Arboreal effect round trip", count: e, measured: arborealTrip, raw: rawArboreal * Double(e) / Double(n),
    target: ">= 500 k/s")
if options.only == "stores" {
    exit(0)
}

print("\nplugins from \(options.plugins)")
do {
    let counterFirst = try HostWorkloads.load("Counter", from: options.plugins)
    let cFirst = try HostWorkloads.load("CCounter", from: options.plugins)
    var again = UInt64.max
    for _ in 0..<r { again = min(again, try HostWorkloads.load("Counter", from: options.plugins)) }
    print(
        String(
            format:
                "plugin load to registered: Counter %.2f ms, CCounter %.2f ms (first dlopen); Counter again %.3f ms   target <= 5 ms",
            Double(counterFirst) / 1e6, Double(cFirst) / 1e6, Double(again) / 1e6))

    let h = options.hostActions
    let inProcess = await best(r, expected: h) { Workloads.storeSend(h) }
    for (path, label) in [
        (HostWorkloads.Path.typed, "typed (libffi)"), (.valueTree, "value tree"),
        (.observed, "typed + state read + diff"),
    ] {
        let seconds = await best(r, expected: h) {
            (try? HostWorkloads.send(
                h, action: "increment", model: "counter", plugin: "Counter", from: options.plugins, path: path)) ?? -1
        }
        report(
            "host → Counter, \(label)", count: h, measured: seconds, raw: inProcess,
            target: "ratio to in-process Store.send")
    }
    let cTyped = await best(r, expected: h) {
        (try? HostWorkloads.send(
            h, action: "increment", model: "ccounter", plugin: "CCounter", from: options.plugins, path: .typed)) ?? -1
    }
    report(
        "host → CCounter, typed (libffi)", count: h, measured: cTyped, raw: inProcess,
        target: "ratio to in-process Store.send")
    if options.only == "host" { exit(0) }
} catch {
    print("plugin benchmarks skipped: \(error) (build the root package first)")
}

print("\nstoresh (\(options.plugins)/storesh)")
do {
    let binary = options.plugins + "/storesh"
    var script = Double.infinity
    var inProcessScript = Double.infinity
    var startUp = Double.infinity
    for _ in 0..<r {
        script = min(script, try ShellWorkloads.script(lines: options.scriptLines, storesh: binary))
        inProcessScript = min(
            inProcessScript,
            try ShellWorkloads.script(lines: options.scriptLines, storesh: binary, options: ["--in-process"]))
        startUp = min(startUp, try ShellWorkloads.startUp(storesh: binary))
    }
    print(
        String(
            format:
                "%d-line script of increment, --quiet: in a worker %.3f s = %.2f M actions/s   target >= 0.5 M/s; --in-process %.3f s = %.2f M actions/s   target >= 1 M/s (end to end)",
            options.scriptLines, script, Double(options.scriptLines) / script / 1e6, inProcessScript,
            Double(options.scriptLines) / inProcessScript / 1e6))
    // storesh explore on Counter: steps generated, sent and checked per second (start-up
    // taken off), in a worker and in process, with and without the determinism replays; in
    // one job (the default's jobs, one per core, are the ring buffer's figure).
    let (runs, steps) = (max(1, options.scriptLines / 500), 500)
    var explored: [String] = []
    for (label, flags) in [("in a worker", ["--jobs", "1"]), ("in process", ["--in-process", "--jobs", "1"])] {
        for replays in [false, true] {
            var best = Double.infinity
            for _ in 0..<r {
                best = min(
                    best,
                    try ShellWorkloads.explore(
                        runs: runs, steps: steps, storesh: binary, replays: replays, options: flags) - startUp)
            }
            explored.append(
                String(
                    format: "%@%@ %.0f k steps/s", label, replays ? " with replays" : "",
                    Double(runs * steps) / max(best, 1e-6) / 1e3))
        }
    }
    print(
        "storesh explore, Counter, \(runs * steps) steps: " + explored.joined(separator: "; ")
            + "   target >= 100 k/s in a worker")
    print(
        try ringFigure(
            binary: binary, startUp: startUp, runs: min(20000, max(100, options.scriptLines / 50)), rounds: max(r, 3)))
    var prompt = Double.infinity
    var baseline = Double.infinity
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/script") {
        for _ in 0..<max(r, 5) {
            prompt = min(prompt, try ShellWorkloads.promptLatency(binary))
            baseline = min(baseline, try ShellWorkloads.promptLatency("/bin/sh -c 'printf \"counter> \"; read x'"))
        }
    }
    print(
        String(
            format:
                "start to first prompt on a pseudo-terminal: %.1f ms (a shell printing the same prompt: %.1f ms)   target <= 50 ms; start, load Counter, run :quit without a terminal: %.1f ms",
            prompt, baseline, startUp * 1000))
    let before = ShellWorkloads.todoState(count: options.todos)
    let after = ShellWorkloads.todoState(count: options.todos, toggled: options.todos / 2)
    var diff = Double.infinity
    for _ in 0..<r { diff = min(diff, ShellWorkloads.diff(before, after)) }
    let observed = try ShellWorkloads.observedToggle(count: options.todos, from: options.plugins, rounds: r)
    print(
        String(
            format:
                "diff of a %d-todo state after one toggle: %.2f ms   target <= 5 ms; the whole observed toggle through the Todos plugin (dispatch, snapshot, diff): %.2f ms",
            options.todos, diff * 1000, observed * 1000))
    // Identity diffs: a sort of 10x the todos (every element moves), a toggle in 100x.
    let sortedCount = options.todos
    let bigCount = options.todos * 10
    let unsorted = ShellWorkloads.todoState(count: sortedCount)
    var sort = (seconds: Double.infinity, records: 0)
    for _ in 0..<r {
        let run = ShellWorkloads.timedDiff(unsorted, ShellWorkloads.reversed(unsorted))
        if run.seconds < sort.seconds { sort = run }
    }
    let big = ShellWorkloads.todoState(count: bigCount)
    let bigToggled = ShellWorkloads.todoState(count: bigCount, toggled: bigCount / 2)
    var toggle = Double.infinity
    var touchedToggle = Double.infinity
    // What the Todos plugin reports for that toggle (snapshot_changes): one field.
    let reported = StateTouch([.set(path: [.field("todos"), .index(bigCount / 2), .field("done")], value: .bool(true))])
    for _ in 0..<r {
        toggle = min(toggle, ShellWorkloads.diff(big, bigToggled))
        touchedToggle = min(touchedToggle, ShellWorkloads.diff(big, bigToggled, touched: reported))
    }
    print(
        String(
            format:
                "identity diff: reversing %d identified todos %.2f ms, %d records (targets at 10,000: <= 50 ms, <= 10,001 records); one toggle in %d todos %.2f ms comparing whole states, %.3f ms where the plugin's changes touched (target at 100,000: <= 20 ms)",
            sortedCount, sort.seconds * 1000, sort.records, bigCount, toggle * 1000, touchedToggle * 1000))
} catch {
    print("storesh benchmarks skipped: \(error) (build the root package first)")
}

print("\nmodels in worker processes (\(options.plugins)/storesh-worker)")
do {
    WorkerWorkloads.useWorker(from: options.plugins)
    let start = try WorkerWorkloads.startUp("Counter", from: options.plugins, rounds: max(r, 3))
    print(String(format: "worker start to Counter registered: %.1f ms   target <= 20 ms", start))
    let h = options.hostActions
    var inWorker = Double.infinity
    var inProcess = Double.infinity
    for _ in 0..<r {
        inWorker = min(inWorker, try WorkerWorkloads.observedSends(h, from: options.plugins, isolation: .workers))
        inProcess = min(inProcess, try WorkerWorkloads.observedSends(h, from: options.plugins, isolation: .inProcess))
    }
    print(
        String(
            format:
                "observed action (send, state back, diff) as at the prompt: in a worker %.1f µs, in process %.1f µs (%.1fx)   target <= 1 ms",
            inWorker / Double(h) * 1e6, inProcess / Double(h) * 1e6, inWorker / inProcess))
    var total = Double.infinity
    var recovery = Double.infinity
    for _ in 0..<r {
        let run = try await WorkerWorkloads.crashRecovery(history: min(options.history, 10_000), from: options.plugins)
        total = min(total, run.total)
        recovery = min(recovery, run.recovery)
    }
    print(
        String(
            format:
                "crash after a %d-action history: recovery (new worker, store, state rebuilt) %.1f ms   target <= 100 ms; crash to error reported, the crash report included, %.1f ms",
            min(options.history, 10_000), recovery, total))
} catch {
    print("worker benchmarks skipped: \(error) (build the root package first)")
}

outputCost()
await timeTravel()
