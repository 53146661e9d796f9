import Foundation
import Glibc
import StoreHost

/// `storesh explore`'s search, run where its model runs (docs/decisions/0011).
///
/// By default a model runs in a worker process, so that its crash or hang costs storesh
/// nothing; a search that sent that worker every step spent most of its time in round
/// trips. Instead storesh starts one child storesh, a *search worker*, that makes the
/// whole search with the model in its own process (as `--in-process` does) and hands
/// the report on. storesh itself never loads the model, so a model that crashes or hangs
/// ends only the search worker; storesh then makes the search again the slow way, every
/// step sent to a model in a worker process, which says at which step and why. Each run
/// is the same in both (one seed makes the same runs in a worker and in process), so the
/// verdict is too.
enum SearchWorker {
    /// Where this process writes its report: standard output, or in a search worker the
    /// pipe storesh reads (the worker's own standard output then goes to standard error,
    /// as a model's printing does from a worker process).
    @MainActor static var reportDescriptor = STDOUT_FILENO

    /// What a search worker writes after its report, with its exit status: a worker that
    /// ended without it ended in its model (a crash, an `exit`, a hang stopped by the
    /// watchdog). The status is the one written, however the process ends after it.
    static let endOfReport = "\u{1E}storesh search worker: report ends, status "

    /// The status a search worker ends with when its model gave no sign of life for the
    /// action timeout (as timeout(1) ends).
    static let hungStatus: Int32 = 124

    /// The flag storesh adds, with `--in-process`, to the search workers it starts: their
    /// model is watched (`watch`). A search the user asked to run `--in-process` is not.
    static let watchFlag = "--watch-model"

    /// Makes this process a search worker: its report goes to the pipe on its standard
    /// output, and what else writes there goes to standard error. It ends when storesh
    /// does (a worker's parent watch).
    @MainActor static func become() {
        let report = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        if report >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 { reportDescriptor = report }
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { sleep(1) }
            _exit(0)
        }
    }

    /// Ends a search worker: its report's last line, with `status`, then the process at
    /// once (what a model left running, its destructors, cannot change what was reported).
    @MainActor static func endReport(status: Int32) -> Never {
        StandardStreams.write(endOfReport + "\(status)\n", to: reportDescriptor)
        fflush(nil)
        _exit(status)
    }

    /// Ends this process, on a thread of its own, when `Heartbeat` stands still for
    /// `timeout` seconds: a model stuck in one call (in a worker process, the same call
    /// would be stopped by the per-request timeout). Time the process spent stopped
    /// (Ctrl-Z) does not count.
    static func watch(timeout: Double) {
        let limit = UInt64(timeout * 1e9)
        let pause = useconds_t(min(max(timeout / 10, 0.005), 0.25) * 1e6)
        Thread.detachNewThread {
            var (last, since, polled) = (Heartbeat.count, DispatchTime.now().uptimeNanoseconds, UInt64(0))
            polled = since
            while true {
                usleep(pause)
                let (count, now) = (Heartbeat.count, DispatchTime.now().uptimeNanoseconds)
                // A poll far later than asked: the process was stopped, not the model.
                let stopped = now - polled > UInt64(pause) * 4_000 + 100_000_000
                polled = now
                if count != last || stopped {
                    (last, since) = (count, now)
                } else if now - since > limit {
                    _exit(hungStatus)
                }
            }
        }
    }

    /// Runs this command in a search worker and hands on its report and exit status; nil,
    /// after saying why, when the worker ended without its report: the caller then makes
    /// the search with the model in a worker process.
    @MainActor static func delegate(actionTimeout: Double?, realWorld: Bool) -> Int32? {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let arguments = withFlags(
            Array(CommandLine.arguments.dropFirst()), ["--in-process", watchFlag, "--search-worker"])
        guard let (ending, report) = run(executable, arguments, realWorld: realWorld) else { return nil }
        if let (text, status) = report {
            StandardStreams.write(text, to: STDOUT_FILENO)
            return status
        }
        if case .signalled(let signal) = ending, [SIGINT, SIGTERM, SIGHUP].contains(signal) {
            StandardStreams.error("storesh explore: interrupted (\(String(cString: strsignal(signal))))\n")
            return 128 + signal
        }
        fellBack = describe(ending, actionTimeout: actionTimeout)
        StandardStreams.error(
            "storesh explore: the model \(fellBack ?? "") in the search's process; searching again with the model in a worker process, to say at which step and why\n"
        )
        return nil
    }

    /// Why the search was made again with the model in a worker process, when it was.
    @MainActor static var fellBack: String?

    /// `arguments` (a command line after the program's name) with `flags` put right after
    /// the subcommand, where a `--` the user gave cannot make them operands.
    static func withFlags(_ arguments: [String], _ flags: [String]) -> [String] {
        guard let at = arguments.firstIndex(of: "explore") else { return arguments + flags }
        return Array(arguments[...at]) + flags + arguments[(at + 1)...]
    }

    /// A search worker's environment: a worker's (deterministic hashing in a deterministic
    /// world), and no backtrace of its own unless the user chose one: a crash is reported
    /// again by the search made with the model in a worker, and storesh's frames mislead.
    @MainActor static func environment(realWorld: Bool) -> [String: String] {
        var environment = WorkerPlugin.environment(deterministicWorld: !realWorld)
        if ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil {
            environment["SWIFT_BACKTRACE"] = "enable=no"
        }
        return environment
    }

    /// Starts a search worker, reads its report and waits for its end: how it ended, and
    /// its report and status (nil when its last line was missing). Nil when it could not
    /// be started at all.
    @MainActor static func run(_ executable: String, _ arguments: [String], realWorld: Bool) -> (
        Spawn.Ending, (text: String, status: Int32)?
    )? {
        guard let pipe = try? Spawn.pipe() else { return nil }
        let errors = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        defer { close(pipe.read) }
        let pid: pid_t
        do {
            defer {
                close(pipe.write)
                if errors >= 0 { close(errors) }
            }
            pid = try Spawn.start(
                executable, arguments: arguments, environment: environment(realWorld: realWorld),
                descriptors: [.nullInput, .copy(of: pipe.write), errors >= 0 ? .copy(of: errors) : .nullInput])
        } catch {
            return nil
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        var status: Int32 = 0
        var ending = Spawn.Ending.exited(-1)
        while true {
            if waitpid(pid, &status, 0) >= 0 {
                ending = Spawn.Ending(waitStatus: status)
                break
            }
            guard errno == EINTR else { break }
        }
        return (ending, report(in: Data(bytes)).map { (String(decoding: $0.report, as: UTF8.self), $0.status) })
    }

    /// A search worker's report and the status its last line gives; nil when that line
    /// is missing (or is not one).
    static func report(in output: Data) -> (report: Data, status: Int32)? {
        let end = Data(endOfReport.utf8)
        guard output.last == UInt8(ascii: "\n"), let range = output.range(of: end, options: .backwards),
            let status = Int32(String(decoding: output[range.upperBound..<(output.endIndex - 1)], as: UTF8.self))
        else { return nil }
        return (output[..<range.lowerBound], status)
    }

    /// What ended a search worker that left no report, as a phrase after "the model".
    static func describe(_ ending: Spawn.Ending, actionTimeout: Double?) -> String {
        switch ending {
        case .exited(hungStatus): "gave no answer in \(actionTimeout.map { String(format: "%gs", $0) } ?? "time")"
        case .exited(let status): "ended the process (exit status \(status))"
        case .signalled(let signal): "crashed (\(String(cString: strsignal(signal))))"
        }
    }
}
