import Dispatch
import StoreHost
import StoreValue

/// How far an exhaustive search (`--exhaustive`) went, and why it stopped.
package struct ExhaustiveSummary: Sendable, Equatable {
    package enum End: Sendable, Equatable {
        /// Every sequence up to the depth asked for was run.
        case depth
        /// No new state was left to go on from before the depth: every reachable state
        /// was searched.
        case everyState
        /// The state limit was reached in the middle of a depth.
        case stateLimit
        /// The time limit was reached in the middle of a depth.
        case timeLimit
        /// A step failed.
        case failure
    }

    /// The depth asked for (`--depth`).
    package let depth: Int
    /// The deepest level every sequence of which was run.
    package let completedDepth: Int
    package let end: End
    /// Some action had more argument tuples than the search takes from one state.
    package let argumentsCut: Bool
    /// What the distinct states kept take, as compact text: the search's memory.
    package let keptBytes: Int

    /// The line that says what was searched, when nothing failed.
    package func verdict(states: Int) -> String {
        let size = keptBytes < 10_240 ? "\(keptBytes) bytes" : "\(keptBytes / 1024) KB"
        let kept = "\(states) state\(states == 1 ? "" : "s") kept, \(size)"
        let cut = argumentsCut ? "; some actions' arguments were cut to 64 per state" : ""
        switch end {
        case .everyState:
            return
                "no failure: searched every reachable state (\(kept)); no sequence of any length fails, within the argument domains"
                + cut
        case .depth, .failure:
            return "no failure: searched every sequence up to depth \(completedDepth) (\(kept))" + cut
        case .stateLimit:
            return
                "stopped at the state limit (\(kept)): no failure in every sequence up to depth \(completedDepth); raise --state-limit to go deeper"
                + cut
        case .timeLimit:
            return "stopped by the time limit: no failure in every sequence up to depth \(completedDepth) (\(kept))"
                + cut
        }
    }
}

extension Explorer {
    /// `--exhaustive`: every sequence of actions up to `depth`, breadth first, each from a
    /// fresh store and checked after every step as a random run is; arguments from
    /// `ExhaustiveDomain`. States are kept by value (with the count of effects in flight,
    /// so a state with work pending is not taken for one without), and a sequence reaching
    /// a state already kept goes no further. The first failure is the shortest there is
    /// within the domains, so it is not shrunk.
    func exhaustive(depth: Int, progress: (String) -> Void) async throws(ShellError) -> ExploreReport {
        guard let model = core.current?.model else { throw ShellError(core.noCurrentModel, origin: .prompt) }
        let started = DispatchTime.now().uptimeNanoseconds
        let deadline = options.timeLimit.map(DispatchTime.uptimeNanoseconds(afterSeconds:))
        let domain = ExhaustiveDomain(model: model)
        driver.advancesAtEnd = false
        // One world for every sequence, so the same steps reach the same state.
        driver.worldSeed = Self.worldSeed(options.seed, run: 0)
        var search = Search(model: model)
        let initial = try await driver.run(length: 0, keepStates: true) { _ in nil }
        if initial.failure != nil || initial.states.isEmpty {
            return search.report(for: initial, explorer: self, depth: depth, started: started)
        }
        search.keep(initial.states[0], inFlight: core.allEffectsInFlight, parent: -1, step: nil)
        var frontier = [0]
        for level in 1...max(1, depth) {
            var next: [Int] = []
            for node in frontier {
                let path = search.path(to: node)
                var steps = domain.steps(from: search.nodes[node].state, actions: candidates)
                if driver.sawEffectsEver, core.host.clock is VirtualClock {
                    steps.append(.advance(milliseconds: 1_000))
                }
                for step in steps {
                    if let deadline, DispatchTime.now().uptimeNanoseconds > deadline {
                        search.end = .timeLimit
                        return search.report(for: nil, explorer: self, depth: depth, started: started, domain: domain)
                    }
                    var run = try await driver.run(
                        length: path.count + 1, keepStates: true, next: Self.replaying(path + [step]))
                    try await compareWithReference(&run)
                    search.count(run)
                    if run.failure != nil {
                        search.end = .failure
                        return search.report(for: run, explorer: self, depth: depth, started: started, domain: domain)
                    }
                    guard run.steps.count == path.count + 1, let state = run.states.last,
                        search.isNew(state, inFlight: core.allEffectsInFlight)
                    else { continue }
                    guard search.nodes.count < options.stateLimit else {
                        search.end = .stateLimit
                        return search.report(for: nil, explorer: self, depth: depth, started: started, domain: domain)
                    }
                    next.append(search.keep(state, inFlight: core.allEffectsInFlight, parent: node, step: step))
                }
            }
            search.completedDepth = level
            frontier = next
            progress("depth \(level): \(search.nodes.count) states, \(next.count) new, \(search.runs) sequences run")
            if frontier.isEmpty {
                search.end = .everyState
                break
            }
        }
        return search.report(for: nil, explorer: self, depth: depth, started: started, domain: domain)
    }

    /// The states an exhaustive search keeps and what it counted.
    fileprivate struct Search {
        struct Node {
            let parent: Int
            let step: ExploreStep?
            let state: Value
        }

        let model: ModelDescriptor
        var nodes: [Node] = []
        var index: [Value: Int] = [:]
        var coverage: [ExploreCoverage]
        var runs = 0
        var steps = 0
        var keptBytes = 0
        var completedDepth = 0
        var end = ExhaustiveSummary.End.depth

        init(model: ModelDescriptor) {
            self.model = model
            coverage = model.actions.map { ExploreCoverage(action: $0.name) }
        }

        private static func key(_ state: Value, inFlight: Int) -> Value {
            inFlight == 0 ? state : .array([state, .int(Int64(inFlight))])
        }

        func isNew(_ state: Value, inFlight: Int) -> Bool { index[Self.key(state, inFlight: inFlight)] == nil }

        @discardableResult
        mutating func keep(_ state: Value, inFlight: Int, parent: Int, step: ExploreStep?) -> Int {
            index[Self.key(state, inFlight: inFlight)] = nodes.count
            nodes.append(Node(parent: parent, step: step, state: state))
            keptBytes += state.compact.utf8.count
            return nodes.count - 1
        }

        func path(to node: Int) -> [ExploreStep] {
            var steps: [ExploreStep] = []
            var at = node
            while at > 0, let step = nodes[at].step {
                steps.append(step)
                at = nodes[at].parent
            }
            return steps.reversed()
        }

        /// Counts a run's last step (the one this search chose) in the coverage.
        mutating func count(_ run: ExploreDriver.Run) {
            runs += 1
            steps += run.steps.count
            guard let name = run.steps.last?.actionName,
                let position = model.actions.firstIndex(where: { $0.name == name })
            else { return }
            coverage[position].tried += 1
            if run.accepted.last == true { coverage[position].accepted += 1 } else { coverage[position].refused += 1 }
        }

        @MainActor
        func report(
            for failing: ExploreDriver.Run?, explorer: Explorer, depth: Int, started: UInt64,
            domain: ExhaustiveDomain? = nil
        ) -> ExploreReport {
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            let failure = failing?.failure
            var report = ExploreReport(
                model: model.qualifiedName, seed: explorer.options.seed, runs: runs, steps: steps,
                distinctStates: nodes.count, coverage: coverage, stoppedByTimeLimit: end == .timeLimit,
                failure: failure, foundInRun: failure == nil ? nil : runs,
                originalLength: failure.map { $0.step + 1 }, shrunk: failure == nil ? [] : failing?.steps ?? [],
                shrunkStates: failure == nil ? [] : failing?.states ?? [], shrinkRuns: 0, searchSeconds: seconds,
                shrinkSeconds: 0)
            report.prefix = explorer.prefix
            report.worldSeed = explorer.core.host.worldIsOn ? explorer.driver.worldSeed : nil
            report.exhaustive = ExhaustiveSummary(
                depth: depth, completedDepth: completedDepth, end: failure == nil ? end : .failure,
                argumentsCut: domain?.truncated ?? false, keptBytes: keptBytes)
            return report
        }
    }
}
