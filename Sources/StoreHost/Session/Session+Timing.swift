import Dispatch
package import StoreValue

/// Where the time of one sent action went, in nanoseconds (`:timer on`).
package struct SendPhases: Sendable {
    /// In this process: the model's update, and reading the state back. Nil for a model
    /// in a worker, where both happen inside the round trip.
    package var update: UInt64?
    package var read: UInt64?
    /// For a model in a worker: the request and its answer.
    package var roundTrip: UInt64?
    /// Applying the state's changes to the session's copy, with the diff (nil when the
    /// state was not read back).
    package var apply: UInt64?

    package init(update: UInt64? = nil, read: UInt64? = nil, roundTrip: UInt64? = nil, apply: UInt64? = nil) {
        self.update = update
        self.read = read
        self.roundTrip = roundTrip
        self.apply = apply
    }
}

extension Session {
    /// `send` with the state read back, timed phase by phase: in this process the update
    /// and the read are separate calls (as `sendReadingState` makes them); in a worker
    /// they are one round trip. The result is `send`'s.
    package func sendTimingPhases(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError) -> (
        SendResult, SendPhases
    ) {
        if isStale { _ = try? read() }
        sendInFlight = true
        sendBase = nil
        defer { (sendInFlight, sendBase) = (false, nil) }
        var phases = SendPhases()
        let start = DispatchTime.now().uptimeNanoseconds
        var outcome: SendOutcome
        if connection.callsAreRoundTrips {
            outcome = try connection.sendReadingState(action, arguments: arguments)
            phases.roundTrip = DispatchTime.now().uptimeNanoseconds - start
        } else {
            outcome = SendOutcome(try connection.send(action, arguments: arguments))
            let updated = DispatchTime.now().uptimeNanoseconds
            do {
                outcome.state = try connection.read(whole: false)
            } catch {
                outcome.stateError = error.message
            }
            phases.update = updated - start
            phases.read = DispatchTime.now().uptimeNanoseconds - updated
        }
        sendInFlight = false
        let applying = DispatchTime.now().uptimeNanoseconds
        let result = result(of: action.name, outcome, observe: true)
        phases.apply = DispatchTime.now().uptimeNanoseconds - applying
        return (result, phases)
    }
}
