#if canImport(Glibc)
    import Glibc
#endif

/// Why a worker process is gone: it crashed (a signal or an exit), did not answer in time,
/// was interrupted, or broke the protocol. `lastWords` is the end of what it wrote to
/// stderr (a Swift runtime failure, a fatal error, a backtrace).
package struct WorkerLoss: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Cause: Sendable, Equatable {
        case signal(Int32)
        case exit(Int32)
        case hung(seconds: Double)
        case interrupted
        case protocolError(String)
        case couldNotStart(String)
    }

    package let cause: Cause
    package let lastWords: String

    package init(cause: Cause, lastWords: String) {
        self.cause = cause
        self.lastWords = lastWords
    }

    /// "SIGILL: arithmetic overflow, Counter.swift:18", "exit status 3", "no answer in 5s".
    package var description: String {
        let crash = CrashReport(lastWords)
        var parts: [String] = []
        switch cause {
        case .signal(let number): parts.append(Self.signalName(number))
        case .exit(let status): parts.append("exit status \(status)")
        case .hung(let seconds): parts.append("no answer in \(Self.seconds(seconds))")
        case .interrupted: parts.append("interrupted")
        case .protocolError(let what): parts.append("protocol error: \(what)")
        case .couldNotStart(let why): parts.append(why)
        }
        if let message = crash.message { parts[0] += ": \(message)" }
        if let place = crash.place { parts.append(place) }
        return parts.joined(separator: ", ")
    }

    /// The crash report says the crashed thread ran a Swift task (an effect), not the
    /// request the worker was handling.
    package var crashedInATask: Bool { CrashReport(lastWords).inTask }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))s" : "\(value)s"
    }

    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGILL: "SIGILL"
        case SIGABRT: "SIGABRT"
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        case SIGTERM: "SIGTERM"
        case SIGTRAP: "SIGTRAP"
        default: "signal \(number)"
        }
    }
}

extension SessionError {
    /// A worker that died, hung or was interrupted while `model` was `doing` something.
    package init(lost loss: WorkerLoss, model: String, doing what: String, effects: [String] = []) {
        let message: String
        let during = what.hasPrefix("between") ? what : "while \(what)"
        switch loss.cause {
        case _ where loss.crashedInATask && !effects.isEmpty:
            // An effect's thread crashed while the worker was busy with something else:
            // the blame is the effect's, not the action's being handled.
            message =
                "\(model) crashed in effect\(effects.count == 1 ? "" : "s") \(effects.joined(separator: ", ")) \(during) (\(loss))"
        case .hung(let seconds):
            message =
                "\(model) did not finish \(what) within \(WorkerLoss.seconds(seconds)) (hung); its worker was stopped (--action-timeout sets the limit)"
        case .interrupted:
            message = "interrupted \(what) in \(model); its worker was stopped"
        default:
            message = "\(model) crashed \(during) (\(loss))"
        }
        self.init(message: message, workerLoss: loss)
    }
}
