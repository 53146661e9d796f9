import Dispatch
import Foundation
import StoreHost
import StoreShell
import StoreValue

/// Workloads for the shell: the storesh binary end to end, and the state diff.
package enum ShellWorkloads {
    /// Seconds for `storesh --quiet -f SCRIPT` where SCRIPT is `lines` lines of `increment`
    /// (parse, libffi dispatch and update per line, plus start-up and plugin load).
    package static func script(lines: Int, storesh: String, options: [String] = []) throws -> Double {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-bench-\(lines).storesh").path
        if !FileManager.default.fileExists(atPath: path) {
            try String(repeating: "increment\n", count: lines).write(toFile: path, atomically: true, encoding: .utf8)
        }
        return try time(storesh, options + ["--quiet", "-f", path, "-c", ":state count"], expect: "\(lines)\n").seconds
    }

    /// What showing every result costs: seconds for `storesh --plugin PLUGIN -f SCRIPT`
    /// with `--quiet` (nothing read or shown per action) and with `--format json` (the
    /// state read, diffed and printed after every action), output thrown away. The quiet
    /// run is timed before and after the JSON one and averaged, so the pair sees one
    /// machine speed (a shared machine's can change within seconds).
    package static func outputCost(
        script lines: [String], name: String, plugin: String, storesh: String, options: [String] = []
    ) throws -> (quiet: Double, json: Double) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-bench-\(name).storesh").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let arguments = options + ["--plugin", plugin, "-f", path]
        let quietBefore = try time(storesh, arguments + ["--quiet"], expect: nil).seconds
        let json = try time(storesh, arguments + ["--format", "json"], expect: nil)
        let quietAfter = try time(storesh, arguments + ["--quiet"], expect: nil).seconds
        // A JSON run that showed less than a record per action measured something else.
        guard json.outputLines >= lines.count else {
            throw Failure(
                message: "\(storesh) --format json printed \(json.outputLines) lines for \(lines.count) actions")
        }
        return ((quietBefore + quietAfter) / 2, json.seconds)
    }

    /// The scripts `outputCost` is measured on: `count` Counter increments; a Todos list
    /// of 2,000 seeded todos, 500 toggles, two sorts and a removal.
    package static let outputScripts: [(name: String, plugin: String, lines: [String])] = [
        ("100k-increments", "Counter", Array(repeating: "increment", count: 100_000)),
        (
            "todos-seeded", "Todos",
            ["seed 2000"] + (1...500).map { "todos[\"t\($0 * 3)\"].toggle" } + [
                "orderByPriority", "orderByDate", "removeCompleted",
            ]
        ),
        // Issue 37's: 2,000 todos added one by one, then sorted by priority and by date three
        // times (every sort moves most of them: a long diff each time).
        (
            "todos-sorted", "Todos",
            (1...2000).map { "add(title: \"todo \($0)\", priority: \($0 * 7 % 5))" }
                + Array(repeating: ["orderByPriority", "orderByDate"], count: 3).flatMap { $0 }
        ),
    ]

    /// Seconds for `storesh explore` on Counter to generate, send and check `runs` runs of
    /// `steps` steps (increment, decrement and reset have no bug, so every run is whole), without the determinism
    /// replays unless `replays`; start-up included (subtract `startUp`).
    package static func explore(runs: Int, steps: Int, storesh: String, replays: Bool, options: [String] = []) throws
        -> Double
    {
        // setCount is left out: Counter traps at the largest Int on purpose (the crash the
        // worker docs show), and explore finds that within a few runs.
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-bench-explore.transcript").path
        let arguments =
            [
                "explore", "--seed", "1", "--runs", String(runs), "--steps", String(steps), "--actions",
                "increment,decrement,reset",
                "--out", out,
            ] + (replays ? [] : ["--no-determinism-check"]) + options
        let run = try time(storesh, arguments, expect: nil)
        return run.seconds
    }

    /// `storesh explore` in its default mode (determinism checked, guidance on) on a ring
    /// buffer written in C (`planted.ring` of Tests/Plugins/planted.c, built with -DFIXED,
    /// so no run fails): the steps it made and its seconds, start-up included.
    package static func exploreRing(runs: Int, storesh: String, options: [String] = []) throws -> (
        steps: Int, seconds: Double
    ) {
        let plugin = try ringPlugin()
        let arguments =
            [
                "explore", "--plugin", plugin, "--model", "planted.ring", "--invariant", "size == count(contents)",
                "--seed", "1", "--runs", String(runs),
            ] + options
        let start = DispatchTime.now().uptimeNanoseconds
        let run = try Spawn.run(storesh, arguments, keepOutput: true)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let text = String(decoding: run.output, as: UTF8.self)
        // "no failure in 4000 runs, 177823 steps, …"
        guard run.status == 0, let range = text.range(of: #"runs, [0-9]+ steps"#, options: .regularExpression),
            let steps = Int(text[range].dropFirst(6).dropLast(6))
        else {
            throw Failure(message: "storesh \(arguments.joined(separator: " ")) printed \(text.prefix(300))")
        }
        return (steps, seconds)
    }

    /// The ring buffer's plugin, compiled once per run of the benchmarks with the system's C
    /// compiler against storeplugin.h alone.
    private static func ringPlugin() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-bench-ring.so").path
        let build = try Spawn.run(
            "/usr/bin/env",
            [
                "cc", "-O2", "-shared", "-fPIC", "-DFIXED", "-I",
                root.appendingPathComponent("Sources/CStorePlugin/include").path, "-o", library,
                root.appendingPathComponent("Tests/Plugins/planted.c").path,
            ], keepOutput: true)
        guard build.status == 0 else {
            throw Failure(
                message: "cc could not build the ring buffer: \(String(decoding: build.output, as: UTF8.self))")
        }
        return library
    }

    /// Seconds from exec to exit for `storesh -c :quit` (start, load Counter, one command):
    /// an upper bound on the time to the first prompt, which needs a terminal to see.
    package static func startUp(storesh: String) throws -> Double {
        try time(storesh, ["-c", ":quit"], expect: "").seconds
    }

    /// Milliseconds from starting `command` under `script` (which gives it a pseudo-terminal)
    /// until "counter> " appears on its output.
    package static func promptLatency(_ command: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["STORESH_HISTORY"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("storesh-bench-history").path
        environment["TERM"] = "xterm"
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        var seen = Data()
        let handle = output.fileHandleForReading
        while !String(decoding: seen, as: UTF8.self).contains("counter> ") {
            let chunk = handle.availableData
            if chunk.isEmpty { throw Failure(message: "\(command) ended before its prompt") }
            seen.append(chunk)
        }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        input.fileHandleForWriting.write(Data([4]))
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
        return milliseconds
    }

    /// One timed run that must exit 0 and, when `expect` is given, print exactly it.
    private static func time(_ executable: String, _ arguments: [String], expect: String?) throws -> Spawn.Run {
        let run = try Spawn.run(executable, arguments, keepOutput: expect != nil)
        let text = String(decoding: run.output, as: UTF8.self)
        guard run.status == 0, expect == nil || text == expect else {
            throw Failure(
                message:
                    "\(executable) \(arguments.joined(separator: " ")) printed \(text.prefix(200)) (status \(run.status.map(String.init) ?? "a signal"))"
            )
        }
        return run
    }

    struct Failure: Error, CustomStringConvertible {
        init(message: String) { self.message = message }
        let message: String
        var description: String { message }
    }

    /// A todo list state as the Todos plugin reports it, with `count` todos.
    package static func todoState(count: Int, toggled: Int? = nil) -> Value {
        .record(
            type: "TodoList",
            fields: [
                .init(
                    "todos",
                    .array(
                        (0..<count).map { index in
                            .record(
                                type: nil,
                                fields: [
                                    .init("id", .string("t\(index + 1)")),
                                    .init("title", .string("todo number \(index + 1)")),
                                    .init("done", .bool(index == toggled)), .init("priority", .int(Int64(index % 5))),
                                    .init("created", .int(Int64(index + 1))),
                                ])
                        })),
                .init("added", .int(Int64(count))),
            ])
    }

    /// `state` with its todos in reverse order (a sort that moves every element).
    package static func reversed(_ state: Value) -> Value {
        guard case .record(let type, var fields) = state, case .array(let todos) = fields[0].value else { return state }
        fields[0].value = .array(todos.reversed())
        return .record(type: type, fields: fields)
    }

    /// Seconds for one diff and how many records it gave.
    package static func timedDiff(_ before: Value, _ after: Value) -> (seconds: Double, records: Int) {
        let start = DispatchTime.now().uptimeNanoseconds
        let changes = StateDiff.changes(from: before, to: after)
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, changes.count)
    }

    /// Seconds for one diff of `before` against `after`; checks it finds exactly one change.
    /// With `touched`, the diff looks only where a plugin's reported changes touched.
    package static func diff(_ before: Value, _ after: Value, touched: StateTouch? = nil) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let changes =
            touched.map { StateDiff.changes(from: before, to: after, touched: $0) }
            ?? StateDiff.changes(from: before, to: after)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        precondition(changes.count == 1, "expected one change, found \(changes.count)")
        return seconds
    }

    /// Seconds for one toggle in a session of the Todos plugin holding `count` todos, with
    /// the state re-read and diffed as the shell does after every action.
    @MainActor
    package static func observedToggle(
        count: Int, from directory: String, isolation: PluginHost.Isolation = .inProcess, rounds: Int = 1
    ) throws -> Double {
        let host = PluginHost(clock: VirtualClock(), searchPath: [directory])
        host.isolation = isolation
        try host.load("Todos")
        let session = try Session(model: host.model(named: "todos"), host: host)
        _ = try session.send(session.model.action(named: "seed")!, arguments: [.int(Int64(count))], observe: false)
        _ = session.state
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try session.send(text: #"todos["t\#(count / 2)"].toggle"#)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            precondition(result.changes.count == 1, "expected one change, found \(result.changes.count)")
        }
        return best
    }
}
