import StoreValue

/// Guidance: runs that reached something no run reached before are kept in a corpus, and
/// later runs start from a changed copy of one of them — extended, with a step replaced
/// or taken out, or spliced with another — as coverage-guided fuzzers do. "New" is a
/// state not seen before (by hash) or a transition not taken before (an action from a
/// state). A bug that needs a long exact sequence (a combination, a protocol's steps) is
/// found step by step: each step's run is kept, and the next one starts from it.
///
/// A search's runs are dealt to `laneCount` lanes by number (run `i` to lane `i % laneCount`),
/// each with a corpus of its own that only its own runs feed, in order. A run is then the
/// same whichever process makes it, so `--jobs` and `--shard` give the verdict one process
/// gives (each process takes whole lanes: `ExploreShard.takes`).
struct ExploreLane {
    /// Lanes a search is dealt to: as many processes as can share a search's work.
    static let laneCount = 8
    /// The most runs a lane keeps; past it, the oldest kept for a transition alone go, then
    /// (none left) the oldest of all, the first eight always kept.
    static let corpusLimit = 2_000

    /// The kept runs' steps, each up to the last step that reached something new.
    private(set) var corpus: [[ExploreStep]] = []
    /// The kept runs that reached a new state (not only a new transition), by their
    /// place in `corpus`: the ones a search most often starts from.
    private var reachedStates: [Int] = []
    private(set) var seenStates: Set<Int> = []
    private(set) var seenTransitions: Set<Int> = []
    /// The edges of plugin code this lane's runs took (plugins built with trace-pc-guard).
    private(set) var seenEdges: Set<UInt32> = []

    /// What a run does before its own random steps: steps to make as they are, or `nil`
    /// where a fresh step is made from the state reached.
    typealias Plan = [ExploreStep?]

    /// The start of the next run: a changed copy of a kept run (four runs in five once
    /// there is one), or nil for a run of fresh steps only. `fresh`: how many fresh steps
    /// an extension adds at most.
    mutating func plan(_ random: inout ExploreRandom, fresh: Int) -> Plan? {
        guard !corpus.isEmpty, random.chance(0.8) else { return nil }
        // Half the time the newest run that reached a new state (it reached furthest
        // lately), a quarter another such run, else any kept run.
        let chosen: [ExploreStep]
        let draw = random.index(4)
        if draw < 2, let newest = reachedStates.last {
            chosen = corpus[newest]
        } else if draw == 2, !reachedStates.isEmpty {
            chosen = corpus[random.pick(reachedStates)]
        } else {
            chosen = random.pick(corpus)
        }
        let base: Plan = chosen.map { $0 }
        let tail = Plan(repeating: nil, count: 1 + random.index(max(1, fresh)))
        switch random.index(10) {
        case 0..<5:  // extend it
            return base + tail
        case 5, 6:  // one step made afresh, then extend
            guard !base.isEmpty else { return tail }
            var changed = base
            changed[random.index(changed.count)] = nil
            return changed + tail
        case 7:  // one step left out
            guard base.count > 1 else { return base + tail }
            var changed = base
            changed.remove(at: random.index(changed.count))
            return changed
        case 8:  // spliced: this one's start, another's end
            let other: Plan = random.pick(corpus).map { $0 }
            let cut = random.index(base.count + 1)
            return Array(base.prefix(cut)) + Array(other.dropFirst(random.index(other.count + 1)))
        default:  // cut short, then extend
            return Array(base.prefix(random.index(base.count + 1))) + tail
        }
    }

    /// Whether `edges` (a run's) hold one this lane's runs never took.
    func takesNewCode(_ edges: [UInt32]) -> Bool { edges.contains { !seenEdges.contains($0) } }

    /// The last step of a run that took code this lane never took, from the edges each
    /// step took (`ExploreDriver.Run.edgesByStep`); the edges are then seen.
    mutating func lastStepTakingNewCode(_ edgesByStep: [[UInt32]]) -> Int? {
        var last: Int?
        for (index, edges) in edgesByStep.enumerated() {
            for edge in edges where seenEdges.insert(edge).inserted { last = index }
        }
        return last
    }

    /// Takes in what a run reached: when a state or a transition in it is new, or its step
    /// `newCodeAt` took new code, its steps up to the last new one are kept. Returns whether
    /// it was.
    @discardableResult
    mutating func learn(steps: [ExploreStep], stateHashes: [Int], newCodeAt: Int? = nil) -> Bool {
        var lastNew = newCodeAt
        var newState = newCodeAt != nil
        if let initial = stateHashes.first { seenStates.insert(initial) }
        for (index, step) in steps.enumerated() where index + 1 < stateHashes.count {
            let transition = Self.transition(step.actionName ?? "advance", from: stateHashes[index])
            let transitionIsNew = seenTransitions.insert(transition).inserted
            let stateIsNew = seenStates.insert(stateHashes[index + 1]).inserted
            if stateIsNew || transitionIsNew { lastNew = max(lastNew ?? index, index) }
            newState = newState || stateIsNew
        }
        guard let lastNew else { return false }
        if corpus.count >= Self.corpusLimit {
            let reached = Set(reachedStates)
            let oldest = corpus.indices.dropFirst(8).first { !reached.contains($0) } ?? 8
            corpus.remove(at: oldest)
            reachedStates = reachedStates.compactMap { $0 == oldest ? nil : $0 > oldest ? $0 - 1 : $0 }
        }
        if newState { reachedStates.append(corpus.count) }
        corpus.append(Array(steps.prefix(lastNew + 1)))
        return true
    }

    /// A transition's key: the same in every process (`Value.stableHash`), so the shards
    /// of one search count the transitions they took together as one process counts them.
    static func transition(_ action: String, from state: Int) -> Int {
        Value.string(action).stableHash ^ (state &* -7_046_029_254_386_353_131)
    }

    /// A `next` that makes `plan`'s steps (a fresh one where it has none) and then nothing:
    /// a guided run ends where its plan does.
    static func following(_ plan: Plan, fresh: @escaping (Value) -> ExploreStep) -> (Value) -> ExploreStep? {
        var index = 0
        return { state in
            defer { index += 1 }
            guard index < plan.count else { return nil }
            return plan[index] ?? fresh(state)
        }
    }
}

/// What guidance found in a search, for its report.
package struct ExploreGuidanceSummary: Sendable, Equatable {
    /// Runs kept because they reached something new.
    package var kept = 0
    /// Distinct transitions (an action from a state) taken, over all lanes.
    package var transitions = 0
    /// Runs that started from a kept one.
    package var guidedRuns = 0
    /// Distinct edges of plugin code taken (0 for a plugin not built with trace-pc-guard).
    package var edges = 0
    /// The transitions and edges themselves, for a shard's report: `--merge` counts their
    /// union, as one process would have.
    package var transitionKeys: [Int] = []
    package var edgeIDs: [UInt32] = []

    package init(kept: Int = 0, transitions: Int = 0, guidedRuns: Int = 0, edges: Int = 0) {
        (self.kept, self.transitions, self.guidedRuns, self.edges) = (kept, transitions, guidedRuns, edges)
    }
}
