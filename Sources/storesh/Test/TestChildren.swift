import Dispatch
import Foundation
import StoreHost
import StoreShell

/// `storesh test --jobs N`: each transcript in a child storesh (`--child-result`), up to
/// N at a time, so transcripts run in parallel and one that crashes storesh itself (a
/// plugin run `--in-process`) fails its own file, with the signal, and nothing else.
@MainActor
struct TestChildren {
    let options: TestOptions
    /// Stops the children when the run is stopped by a signal.
    let interruption: TestInterruption

    /// The arguments a child gets: the settings that change how a transcript runs.
    private var childArguments: [String] {
        var arguments = [
            "test", "--child-result", "--timeout", String(options.timeout), "--action-timeout",
            String(options.isolation.actionTimeout),
        ]
        for directory in options.pluginPath { arguments += ["--plugin-path", directory] }
        for substitute in options.substitutes { arguments += ["--substitute", substitute] }
        if options.isolation.inProcess { arguments.append("--in-process") }
        if options.isolation.checkChanges { arguments.append("--check-changes") }
        return arguments
    }

    /// Runs `files`; `report` gets each outcome in file order, as soon as it and all the
    /// files before it are done.
    func run(_ files: [String], report: (TestOutcome) -> Void) async {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let arguments = childArguments
        // A child is stopped when it outlives its own --timeout by far (it checks between
        // inputs only, and an in-process plugin can hang inside one).
        let limit = options.timeout > 0 ? options.timeout * 1.5 + 10 : nil
        var results = [TestOutcome?](repeating: nil, count: files.count)
        var reported = 0
        await withTaskGroup(of: (Int, TestOutcome).self) { group in
            var next = 0
            func startNext() {
                guard next < files.count, interruption.signal == nil else { return }
                let index = next
                next += 1
                let interruption = interruption
                group.addTask {
                    (
                        index,
                        await Self.runChild(
                            executable, arguments + [files[index]], file: files[index], limit: limit,
                            interruption: interruption)
                    )
                }
            }
            for _ in 0..<min(options.jobs, files.count) { startNext() }
            for await (index, outcome) in group {
                results[index] = outcome
                while reported < files.count, let done = results[reported] {
                    report(done)
                    reported += 1
                }
                startNext()
            }
        }
    }

    /// One child: its JSON result line, or a failure that says how it ended.
    private nonisolated static func runChild(
        _ executable: String, _ arguments: [String], file: String, limit: Double?, interruption: TestInterruption
    ) async -> TestOutcome {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let began = DispatchTime.now().uptimeNanoseconds
                let result = childResult(executable, arguments, file: file, limit: limit, interruption: interruption)
                continuation.resume(
                    returning: TestOutcome(
                        result: result, seconds: Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9))
            }
        }
    }

    private nonisolated static func childResult(
        _ executable: String, _ arguments: [String], file: String, limit: Double?, interruption: TestInterruption
    ) -> TranscriptRunner.Result {
        let failure = { (problem: String) in
            TranscriptRunner.Result(file: file, diff: [], updated: "", problems: ["\(file): \(problem)"])
        }
        let child: ChildProcess
        do {
            child = try ChildProcess.start(executable, arguments)
        } catch {
            return failure("cannot start storesh for it: \(error)")
        }
        _ = interruption.started(child.pid)
        defer { interruption.ended(child.pid) }
        var killer: DispatchWorkItem?
        if let limit {
            let pid = child.pid
            let item = DispatchWorkItem { kill(pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: item)
            killer = item
        }
        // Read on threads of their own until the pipes close; once the child has exited,
        // they get two seconds more (a process it left running may hold them open).
        let stdoutText = ReadBytes()
        let stderrText = ReadBytes()
        ChildProcess.drain(child.output, into: stdoutText)
        ChildProcess.drain(child.errors, into: stderrText)
        let ending = child.wait()
        killer?.cancel()
        let grace = DispatchTime.now().uptimeNanoseconds + 2_000_000_000
        while !(stdoutText.isFinished && stderrText.isFinished), DispatchTime.now().uptimeNanoseconds < grace {
            usleep(1000)
        }
        let data = stdoutText.value
        let status: Int32
        if let signal = interruption.signal {
            return failure("interrupted by \(TestInterruption.name(signal)) before it finished")
        }
        switch ending {
        case .signalled(let signal):
            let lastWords = String(decoding: stderrText.value, as: UTF8.self)
            let loss = WorkerLoss(cause: .signal(signal), lastWords: lastWords)
            return failure("storesh crashed running it (\(loss)); the other transcripts are not affected")
        case .exited(let code):
            status = code
        }
        guard let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last,
            let decoded = ChildResult(json: String(line))
        else {
            return failure(
                "its storesh ended with status \(status) without a result: \(String(decoding: stderrText.value, as: UTF8.self).suffix(500))"
            )
        }
        return decoded.result
    }
}

/// A transcript's result as a child prints it: one line of JSON.
struct ChildResult: Codable {
    var file: String
    var diff: [String]
    var updated: String
    var problems: [String]

    init(_ result: TranscriptRunner.Result) {
        file = result.file
        diff = result.diff
        updated = result.updated
        problems = result.problems
    }

    init?(json: String) {
        guard let decoded = try? JSONDecoder().decode(ChildResult.self, from: Data(json.utf8)) else { return nil }
        self = decoded
    }

    var json: String {
        String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
    }

    var result: TranscriptRunner.Result {
        TranscriptRunner.Result(file: file, diff: diff, updated: updated, problems: problems)
    }
}
