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
}
