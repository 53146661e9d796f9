import Foundation

/// The session at a glance (`SessionService.summaryJSON`) as the main actor last published
/// it, readable from any thread. While a script holds the main actor, a reader that cannot
/// wait for it (the inspector's `GET /api/session`) gets the latest step from here, with
/// `busy` true, instead of an answer after the script ends, when `busy` is false again.
package final class SessionSnapshot: @unchecked Sendable {
    private let lock = NSLock()
    private var summary = "{}"
    private var busy = false

    /// The summary, and whether an operation or a script was running when it was made.
    package var latest: (json: String, busy: Bool) {
        lock.withLock { (summary, busy) }
    }

    func publish(_ json: String, busy: Bool) {
        lock.withLock { (summary, self.busy) = (json, busy) }
    }
}
