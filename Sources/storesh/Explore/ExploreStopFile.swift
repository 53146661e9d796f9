import Foundation
import Glibc
import StoreShell
import Synchronization

/// How the jobs of one `storesh explore --jobs` search tell each other where one found a
/// failure: a file beside the transcript, to which a job appends the run (a line of its
/// own, in one `write`) before it shrinks, and which every job reads on a thread of its
/// own. A job makes no run past the lowest run written there: those runs cannot change
/// the verdict, which is the failure of the lowest failing run.
final class ExploreStopFile: Sendable {
    let path: String
    /// The lowest run written to the file so far, `Int.max` before any.
    private let lowest = Atomic<Int>(Int.max)

    /// Reads `path` now, then every few milliseconds for as long as this process lives.
    init(path: String) {
        self.path = path
        readFile()
        Thread.detachNewThread { [self] in
            while true {
                usleep(5_000)
                readFile()
            }
        }
    }

    /// What the search of this job is told (`ExploreOptions.partners`).
    var partners: ExplorePartners {
        ExplorePartners(
            stopAfterRun: { [self] in lowest.load(ordering: .relaxed) },
            announceFailure: { [self] run in announce(run) })
    }

    private func announce(_ run: Int) {
        lower(to: run)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var line = Array("\(run)\n".utf8)
        _ = write(descriptor, &line, line.count)
    }

    private func readFile() {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        // Only whole lines: a line being written is read on the next turn.
        let text = String(decoding: data, as: UTF8.self)
        guard
            let runs = text.split(separator: "\n").dropLast(text.hasSuffix("\n") ? 0 : 1).compactMap({ Int($0) }).min()
        else { return }
        lower(to: runs)
    }

    private func lower(to run: Int) {
        var current = lowest.load(ordering: .relaxed)
        while run < current {
            let (exchanged, original) = lowest.compareExchange(
                expected: current, desired: run, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
