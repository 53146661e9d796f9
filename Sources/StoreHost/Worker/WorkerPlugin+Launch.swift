import Foundation

extension WorkerPlugin {
    /// Where the worker program is: `$STORESH_WORKER`, or `storesh-worker` beside the
    /// running program (storesh, or a test runner in the same build folder).
    static func executable() throws(WorkerLoss) -> String {
        var folders: [String] = []
        if let path = CompanionProgram.path(named: "storesh-worker", overriddenBy: "STORESH_WORKER", searched: &folders)
        {
            return path
        }
        throw WorkerLoss(
            cause: .couldNotStart(
                "storesh-worker is not beside storesh (looked in \(folders.joined(separator: ", "))); set STORESH_WORKER, or use --in-process"
            ), lastWords: "")
    }

    /// The worker's environment: storesh's, with Swift's crash backtraces made short and
    /// plain (the crashed thread, no colours) unless the user chose their own settings, and
    /// with hashing made deterministic for a deterministic world.
    package static func environment(deterministicWorld: Bool) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        // Set and Dictionary order: Swift reads this once, as the worker starts.
        if deterministicWorld { environment["SWIFT_DETERMINISTIC_HASHING"] = "1" }
        if environment["SWIFT_BACKTRACE"] == nil {
            environment["SWIFT_BACKTRACE"] =
                "enable=yes,interactive=no,threads=crashed,registers=none,images=none,limit=24,top=24,color=no,output-to=stderr,sanitize=no"
        }
        return environment
    }
}
