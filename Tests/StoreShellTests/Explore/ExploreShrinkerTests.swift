import StoreHost
import StoreShell
import StoreValue
import Testing

/// Properties of the shrinker, on runs a pure predicate judges (no model): what it
/// returns still fails the same way, and no single step can be removed from it.
@MainActor
@Suite struct ExploreShrinkerTests {
    /// Fails after the step that makes `count >= 3` while `armed` holds: "arm" sets armed,
    /// "disarm" clears it, "add N" adds N (only while armed), "noise" does nothing.
    static func judge(_ steps: [ExploreStep]) -> ExploreFailure? {
        var (count, armed) = (Int64(0), false)
        for (index, step) in steps.enumerated() {
            guard case .action(let name, let arguments) = step else { continue }
            switch name {
            case "arm": armed = true
            case "disarm": armed = false
            case "add": if armed, case .int(let amount)? = arguments.first { count += amount }
            default: break
            }
            if count >= 3 {
                let condition = try! StateCondition.parse("count < 3")
                return ExploreFailure(kind: .invariant(condition, explanation: "count is \(count)"), step: index)
            }
        }
        return nil
    }

    static func randomRun(_ random: inout ExploreRandom) -> [ExploreStep] {
        (0..<(20 + random.index(200))).map { _ in
            switch random.index(5) {
            case 0: .action(name: "arm", arguments: [])
            case 1: .action(name: "disarm", arguments: [])
            case 2: .advance(milliseconds: Int64(1 + random.index(1000)))
            case 3: .action(name: "noise", arguments: [.string("abc"), .bool(true)])
            default: .action(name: "add", arguments: [.int(Int64(random.index(7)) - 2)])
            }
        }
    }

    @Test func whatItReturnsFailsTheSameWayAndNoStepCanGo() async {
        var random = ExploreRandom(seed: 2026)
        var checked = 0
        for _ in 0..<300 where checked < 60 {
            let run = Self.randomRun(&random)
            guard let failure = Self.judge(run) else { continue }
            checked += 1
            var shrinker = ExploreShrinker { steps in Self.judge(steps).map { (steps, $0) } }
            let (shrunk, found) = await shrinker.shrink(run, failure: failure)
            #expect(Self.judge(shrunk)?.signature == failure.signature, "\(shrunk)")
            #expect(found.step == shrunk.count - 1, "the failing step ends the run")
            for index in shrunk.indices {
                var fewer = shrunk
                fewer.remove(at: index)
                #expect(Self.judge(fewer) == nil, "step \(index + 1) of \(shrunk) could go")
            }
        }
        #expect(checked >= 30, "the generator made too few failing runs to say anything")
    }

    @Test func argumentsGetSimpler() async {
        let run: [ExploreStep] = [
            .action(name: "noise", arguments: []), .action(name: "arm", arguments: []), .advance(milliseconds: 500),
            .action(name: "add", arguments: [.int(90)]),
        ]
        var shrinker = ExploreShrinker { steps in Self.judge(steps).map { (steps, $0) } }
        let (shrunk, _) = await shrinker.shrink(run, failure: Self.judge(run)!)
        #expect(shrunk == [.action(name: "arm", arguments: []), .action(name: "add", arguments: [.int(3)])])
    }

    /// A min-heap whose sift-down looks at the left child only, judged by "a pop takes the
    /// least value": it fails only when four pushes of values in a certain order precede two
    /// pops, so removing one step at a time and simplifying one number at a time stop above
    /// the minimum (8 steps where 6 suffice); pairs of steps removed together and numbers
    /// shrunk together keeping their order reach it, every time.
    static func heapJudge(_ steps: [ExploreStep]) -> ExploreFailure? {
        var items: [Int64] = []
        for (index, step) in steps.enumerated() {
            guard case .action(let name, let arguments) = step else { continue }
            if name == "push", case .int(let value)? = arguments.first {
                items.append(value)
                var child = items.count - 1
                while child > 0, items[(child - 1) / 2] > items[child] {
                    items.swapAt(child, (child - 1) / 2)
                    child = (child - 1) / 2
                }
            } else if name == "pop", let least = items.min() {
                let popped = items[0]
                let last = items.removeLast()
                if !items.isEmpty {
                    items[0] = last
                    var parent = 0
                    while 2 * parent + 1 < items.count, items[2 * parent + 1] < items[parent] {
                        items.swapAt(parent, 2 * parent + 1)
                        parent = 2 * parent + 1
                    }
                }
                if popped != least {
                    let condition = try! StateCondition.parse("popped == 0")
                    return ExploreFailure(kind: .invariant(condition, explanation: "popped \(popped)"), step: index)
                }
            }
        }
        return nil
    }

    @Test func aHeapsFailureShrinksToItsSixSteps() async {
        var random = ExploreRandom(seed: 47)
        var checked = 0
        for _ in 0..<2_000 where checked < 25 {
            let run: [ExploreStep] = (0..<(10 + random.index(40))).map { _ in
                random.chance(0.6)
                    ? .action(name: "push", arguments: [.int(Int64(random.index(1_000)) - 100)])
                    : .action(name: "pop", arguments: [])
            }
            guard let failure = Self.heapJudge(run) else { continue }
            checked += 1
            var shrinker = ExploreShrinker { steps in Self.heapJudge(steps).map { (steps, $0) } }
            shrinker.alternatives = [.action(name: "push", arguments: [.int(0)]), .action(name: "pop", arguments: [])]
            let (shrunk, _) = await shrinker.shrink(run, failure: failure)
            #expect(shrunk.count == 6, "\(run) shrank to \(shrunk)")
            // Numbers as small as their order allows, pushes before pops.
            #expect(
                shrunk.map(\.actionName) == ["push", "push", "push", "push", "pop", "pop"], "\(shrunk)")
            let values = shrunk.compactMap { step -> Int64? in
                if case .action(_, let arguments) = step, case .int(let value)? = arguments.first { return value }
                return nil
            }
            #expect(values.allSatisfy { (0...3).contains($0) }, "\(shrunk)")
        }
        #expect(checked >= 10, "too few failing runs to say anything")
    }

    /// A key written and read again shrinks as one: each alone would no longer fail.
    @Test func equalArgumentsShrinkTogether() async {
        let judge = { (steps: [ExploreStep]) -> ExploreFailure? in
            var written: [Value] = []
            for (index, step) in steps.enumerated() {
                guard case .action(let name, let arguments) = step else { continue }
                if name == "put" { written.append(arguments[0]) }
                if name == "get", written.contains(arguments[0]) {
                    let condition = try! StateCondition.parse("found == null")
                    return ExploreFailure(kind: .invariant(condition, explanation: "found"), step: index)
                }
            }
            return nil
        }
        let run: [ExploreStep] = [
            .action(name: "put", arguments: [.string("hello world")]), .action(name: "noise", arguments: []),
            .action(name: "get", arguments: [.string("hello world")]),
        ]
        var shrinker = ExploreShrinker { steps in judge(steps).map { (steps, $0) } }
        let (shrunk, _) = await shrinker.shrink(run, failure: judge(run)!)
        #expect(
            shrunk == [.action(name: "put", arguments: [.string("")]), .action(name: "get", arguments: [.string("")])])
    }
}
