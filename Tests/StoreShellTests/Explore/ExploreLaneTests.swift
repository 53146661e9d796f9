import Testing

@testable import StoreShell

/// A lane's corpus (`ExploreLane`): what a run must reach to be kept, which part of it is
/// kept, and what a full corpus gives up.
@Suite struct ExploreLaneTests {
    static func steps(_ names: String...) -> [ExploreStep] {
        names.map { .action(name: $0, arguments: []) }
    }

    @Test func aRunIsKeptUpToItsLastNewStep() {
        var lane = ExploreLane()
        // States 0 → 1 → 2 → 2 → 2: the third and fourth steps reach nothing new after the
        // second takes `b` from state 1 … but `b` from 2 is a new transition.
        let first = lane.learn(steps: Self.steps("a", "b", "b", "b"), stateHashes: [0, 1, 2, 2, 2])
        #expect(first)
        #expect(lane.corpus == [Self.steps("a", "b", "b")])
        // Nothing new: not kept.
        let again = lane.learn(steps: Self.steps("a", "b", "b"), stateHashes: [0, 1, 2, 2])
        #expect(!again)
        // New code at a step makes the run kept up to that step.
        let code = lane.learn(steps: Self.steps("a", "b", "b", "b"), stateHashes: [0, 1, 2, 2, 2], newCodeAt: 3)
        #expect(code)
        #expect(lane.corpus.last == Self.steps("a", "b", "b", "b"))
    }

    @Test func aFullLaneStillKeepsWhatReachesNewStates() {
        var lane = ExploreLane()
        // Every kept run reached a new state: none can go for being kept for a transition alone.
        for state in 1...ExploreLane.corpusLimit {
            let kept = lane.learn(steps: Self.steps("s\(state)"), stateHashes: [0, state])
            #expect(kept)
        }
        #expect(lane.corpus.count == ExploreLane.corpusLimit)
        let newest = Self.steps("deeper")
        let kept = lane.learn(steps: newest, stateHashes: [0, -1])
        #expect(kept, "a new state is kept in a full lane")
        #expect(lane.corpus.count == ExploreLane.corpusLimit)
        #expect(lane.corpus.last == newest)
        #expect(lane.corpus[8] == Self.steps("s10"), "the oldest after the first eight went")
        // And the newest run that reached a state is the one most plans start from.
        var random = ExploreRandom(seed: 1)
        var fromNewest = 0
        for _ in 0..<400 {
            if let plan = lane.plan(&random, fresh: 1), let first = plan.first, first == newest[0] { fromNewest += 1 }
        }
        // Half the plans copy it, and most copies keep its first step: about 110 of 400.
        #expect(fromNewest > 60, "\(fromNewest) of 400 plans start from the newest")
    }

    @Test func codeTakenFirstAtAStepIsThatStepsNews() {
        var lane = ExploreLane()
        #expect(lane.takesNewCode([5, 6]))
        // Edge 5 first at step 0, 6 at step 2 (and again at step 3, no longer new).
        let last = lane.lastStepTakingNewCode([[5], [], [6], [5, 6]])
        #expect(last == 2)
        #expect(!lane.takesNewCode([6, 5]))
        #expect(lane.takesNewCode([7]))
    }
}
