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

    /// What a search worker writes after its report: a worker that ended without it
    /// ended in its model (a crash, an `exit`, a hang stopped by the watchdog).
    static let endOfReport = "\u{1E}storesh search worker: report ends\n"

    /// The status a search worker ends with when its model gave no sign of life for the
    /// action timeout (as timeout(1) ends).
    static let hungStatus: Int32 = 124

    /// Makes this process a search worker: its report goes to the pipe on its standard
    /// output, what else writes there goes to standard error, and a model that gives no
    /// sign of life (`Heartbeat`) for `actionTimeout` seconds ends the process.
    @MainActor static func become(actionTimeout: Double?) {
        let report = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        if report >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 { reportDescriptor = report }
        if let actionTimeout { watch(timeout: actionTimeout) }
    }

    /// Ends a search worker's report (`endOfReport`).
    @MainActor static func endReport() {
        StandardStreams.write(endOfReport, to: reportDescriptor)
    }

    /// Ends this process, on a thread of its own, when `Heartbeat` stands still for
    /// `timeout` seconds: a model stuck in one call (in a worker process, the same call
    /// would be stopped by the per-request timeout).
    private static func watch(timeout: Double) {
        let limit = UInt64(timeout * 1e9)
        let pause = useconds_t(min(max(timeout / 10, 0.005), 0.25) * 1e6)
        Thread.detachNewThread {
            var (last, since) = (Heartbeat.count, DispatchTime.now().uptimeNanoseconds)
            while true {
                usleep(pause)
                let (count, now) = (Heartbeat.count, DispatchTime.now().uptimeNanoseconds)
                if count != last {
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
        let arguments = Array(CommandLine.arguments.dropFirst()) + ["--in-process", "--search-worker"]
        guard let (ending, report) = run(executable, arguments, realWorld: realWorld) else { return nil }
        if let report {
            StandardStreams.write(report, to: STDOUT_FILENO)
            if case .exited(let status) = ending { return status }
            return 2
        }
        StandardStreams.error(
            "storesh explore: the model \(describe(ending, actionTimeout: actionTimeout)) in the search's process; searching again with the model in a worker process, to say at which step and why\n"
        )
        return nil
    }

    /// Starts a search worker, reads its report and waits for its end: how it ended, and
    /// its report without `endOfReport` (nil when that was missing). Nil when it could not
    /// be started at all.
    @MainActor static func run(_ executable: String, _ arguments: [String], realWorld: Bool) -> (Spawn.Ending, String?)?
    {
        guard let pipe = try? Spawn.pipe() else { return nil }
        let errors = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        defer { close(pipe.read) }
        // A crash is reported again by the search made with the model in a worker: the
        // search worker's own backtrace (of storesh) would only mislead.
        var environment = WorkerPlugin.environment(deterministicWorld: !realWorld)
        if ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil {
            environment["SWIFT_BACKTRACE"] = "enable=no"
        }
        let pid: pid_t
        do {
            defer {
                close(pipe.write)
                if errors >= 0 { close(errors) }
            }
            pid = try Spawn.start(
                executable, arguments: arguments,
                environment: environment,
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
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (Spawn.Ending(waitStatus: status), report(in: Data(bytes)).map { String(decoding: $0, as: UTF8.self) })
    }

    /// A search worker's report: what it wrote, without `endOfReport`; nil when that
    /// was missing.
    static func report(in output: Data) -> Data? {
        let end = Data(endOfReport.utf8)
        guard output.count >= end.count, output.suffix(end.count) == end else { return nil }
        return output.dropLast(end.count)
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
