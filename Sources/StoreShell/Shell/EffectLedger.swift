import StoreHost

/// The effects each model has in flight (since when, with what label) and the ones that
/// failed since its store was made: what `:fx`, `:wait` and the end of a run read. The
/// shell core feeds it every effect event its sessions report.
struct EffectLedger {
    /// An effect in flight: its id, its label, how long it has been running.
    typealias Running = (id: UInt64, label: String?, milliseconds: Int64)

    /// By model, then effect id: the label an effect started with and when (host clock, ns).
    private var started: [String: [UInt64: (label: String?, at: Int64)]] = [:]
    /// By model, the effects that failed since its store was made (`:fx none-failed`).
    private(set) var failed: [String: [String]] = [:]
    /// Set by `:fx leave-running`: effects still in flight at the end are not a failure.
    var mayOutlive = false

    /// A new store for `model`: nothing in flight, nothing failed.
    mutating func startOver(_ model: String) {
        started[model] = [:]
        failed[model] = nil
    }

    /// Takes in `event` of `model` at `now`, and answers the label the effect started
    /// with (or the event's own) and the milliseconds since it started (0 when unknown).
    mutating func note(_ event: EffectEventRecord, in model: String, at now: Int64) -> (
        label: String?, elapsedMilliseconds: Int64
    ) {
        var table = started[model] ?? [:]
        if event.kind == .started { table[event.effect] = (event.label, now) }
        let known = table[event.effect]
        if [.finished, .failed, .cancelled].contains(event.kind) { table[event.effect] = nil }
        if event.kind == .failed {
            failed[model, default: []].append(
                "#\(event.effect) \(known?.label ?? event.label ?? "effect"): \(event.message ?? "failed")")
        }
        started[model] = table
        return (known?.label ?? event.label, known.map { (now - $0.at) / 1_000_000 } ?? 0)
    }

    /// How many effects `model` has in flight.
    func count(in model: String) -> Int { started[model]?.count ?? 0 }

    /// How many effects all models have in flight.
    var total: Int { started.values.reduce(0) { $0 + $1.count } }  // asked after every explored step: no array made

    /// The models with effects in flight.
    var busyModels: [String] { started.compactMap { model, running in running.isEmpty ? nil : model } }

    /// The effects in flight in `model` at `now`, by id.
    func inFlight(in model: String, at now: Int64) -> [Running] {
        guard let table = started[model] else { return [] }
        return table.sorted { $0.key < $1.key }.map { ($0.key, $0.value.label, (now - $0.value.at) / 1_000_000) }
    }

    /// Why the end of a run is not clean: effects still in flight in any model (named),
    /// unless `mayOutlive`. Nil when clean.
    func unfinished(at now: Int64) -> String? {
        guard !mayOutlive else { return nil }
        let running = started.keys.sorted().flatMap { model in
            inFlight(in: model, at: now).map {
                "\(model) fx #\($0.id) \($0.label ?? "effect") (running for \($0.milliseconds)ms)"
            }
        }
        guard !running.isEmpty else { return nil }
        return "effects still running at the end: " + running.joined(separator: ", ")
            + "; wait for them with :wait, or accept them with :fx leave-running"
    }
}
