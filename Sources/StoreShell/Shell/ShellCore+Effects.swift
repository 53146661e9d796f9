import StoreHost

/// The effects of the core's sessions: their events, reported as they happen (or held back
/// while an action is being sent), and what the `EffectLedger` says is in flight.
extension ShellCore {
    /// Effects started and not yet finished, failed or cancelled, in the current model.
    package var effectsInFlight: Int {
        guard let current else { return 0 }
        return effects.count(in: current.model.qualifiedName)
    }

    /// Reports each effect `old` has in flight as cancelled, when `old` is its model's session.
    func reportEffectsCancelled(in old: Session) {
        let key = old.model.qualifiedName
        guard sessions[key] === old else { return }
        for effect in inFlight(in: key) {
            observe(
                .effect(
                    EffectEventRecord(
                        kind: .cancelled, effect: effect.id, label: nil, action: nil, message: nil,
                        elapsedMilliseconds: old.elapsed)), in: key)
        }
    }

    /// What a session of `model` reports between and during actions: effect events, and the
    /// actions effects send (recorded in the history).
    func observe(_ event: SessionEvent, in model: String) {
        switch event {
        case .effect(let record):
            let noted = effects.note(record, in: model, at: host.clock.now)
            report(
                .effect(
                    EffectReport(
                        model: model, event: record, label: noted.label, elapsedMilliseconds: noted.elapsedMilliseconds)
                ))
        case .applied(let action, let changes, let changed):
            if let session = sessions[model] {
                recordEffectAction(action, changed: changed, changes: changes, in: session)
            }
            report(.applied(action: action, changes: changes, showDiff: showDiff))
            if held == nil { flushDebuggingOutput() }
        }
    }

    /// Shows `item` now, or after the action being sent (`holdingEffectOutput`).
    func report(_ item: ShellOutput) {
        if held != nil { held?.append(item) } else { output(item) }
    }

    /// Effects in flight in the current model: id, label, milliseconds running.
    func inFlight() -> [EffectLedger.Running] {
        current.map { inFlight(in: $0.model.qualifiedName) } ?? []
    }

    /// Effects in flight in `model`, by id.
    func inFlight(in model: String) -> [EffectLedger.Running] {
        effects.inFlight(in: model, at: host.clock.now)
    }

    /// Why the end of a run or transcript is not clean: effects still in flight in any
    /// model (named), unless `:fx leave-running` said that is expected. Nil when clean.
    package func unfinishedEffects() -> String? {
        effects.unfinished(at: host.clock.now)
    }

    /// The sessions of the models with effects in flight.
    var sessionsWithEffects: [Session] {
        effects.busyModels.compactMap { sessions[$0] }
    }
}
