package import StoreHost
import StoreValue

/// Makes a failing run as small as it can while it still fails the same way (the same
/// `ExploreFailure.signature`), in passes in the manner of Hypothesis: steps after the
/// failure go; runs of steps are removed, halving their length down to single steps (delta
/// debugging), then pairs of steps, then a step together with a number it counted (a pid
/// that is the number of spawns, read by two later steps); neighbouring clock steps merge;
/// a step is replaced by a simpler action (one earlier in the schema, with the simplest
/// arguments); each argument is made simpler (numbers toward 0, shorter strings, fewer
/// elements), equal arguments together (a key put and read again), and numbers together
/// keeping their order; steps are sorted, simpler first. The passes repeat until a round
/// changes nothing: what it returns fails as the original did and is a local minimum,
/// where no pass applies (within `budget` runs, so a slow model cannot make it run away).
@MainActor
package struct ExploreShrinker {
    /// Runs `steps` from a fresh store: the steps it ran (a run may end with a step of its
    /// own, the clock moved for effects still waiting) and the failure it ended with, if any.
    package let attempt: ([ExploreStep]) async -> (steps: [ExploreStep], failure: ExploreFailure)?
    /// The simplest step of each action the search used, simplest first (schema order):
    /// what a step may be replaced by. Empty: no step is replaced.
    package var alternatives: [ExploreStep] = []
    /// How many runs shrinking took.
    package private(set) var tries = 0
    /// Runs after which shrinking stops where it is.
    package var budget = 20_000
    /// Whether a step's arguments fit their parameters as the prompt checks them. A
    /// candidate with one that does not (a simpler `digit: 0` for a digit `in 1...4`) is
    /// never run: its transcript would be refused where the run was not.
    package var fits: (ExploreStep) -> Bool = { _ in true }

    package init(attempt: @escaping ([ExploreStep]) async -> (steps: [ExploreStep], failure: ExploreFailure)?) {
        self.attempt = attempt
    }

    /// The smallest run found, and its failure.
    package mutating func shrink(_ steps: [ExploreStep], failure: ExploreFailure) async -> (
        [ExploreStep], ExploreFailure
    ) {
        var best = Array(steps.prefix(failure.step + 1))
        var found = failure
        // Every pass, again while a round changes anything (a simpler argument can make a
        // step removable, a removal can make two arguments equal).
        while tries < budget {
            let before = best
            await remove(&best, &found)
            await removePairs(&best, &found)
            await removeAdjustingNumbers(&best, &found)
            await mergeClockSteps(&best, &found)
            await replaceBySimplerActions(&best, &found)
            await simplify(&best, &found)
            await simplifyEqualArguments(&best, &found)
            await simplifyNumbersTogether(&best, &found)
            await sortSteps(&best, &found)
            if best == before { break }
        }
        return (best, found)
    }

    /// Runs of steps removed: halves of the run, then quarters, … then single steps, until
    /// a pass of single steps removes nothing (delta debugging).
    private mutating func remove(_ best: inout [ExploreStep], _ found: inout ExploreFailure) async {
        var size = max(1, best.count / 2)
        while !best.isEmpty {
            var removedAny = false
            var start = 0
            while start < best.count {
                var candidate = best
                candidate.removeSubrange(start..<min(best.count, start + size))
                // Shorter, not only the same again (a run may add its own last step).
                if let shorter = await sameFailure(candidate, as: found), shorter.steps.count < best.count {
                    (best, found) = shorter
                    removedAny = true
                } else {
                    start += size
                }
            }
            if size == 1 && !removedAny { break }
            size = max(1, size / 2)
        }
    }

    /// Neighbouring clock steps made one.
    private mutating func mergeClockSteps(_ best: inout [ExploreStep], _ found: inout ExploreFailure) async {
        var index = 0
        while index + 1 < best.count {
            if case .advance(let first) = best[index], case .advance(let second) = best[index + 1] {
                var candidate = best
                candidate.replaceSubrange(index...(index + 1), with: [.advance(milliseconds: first + second)])
                if let shorter = await sameFailure(candidate, as: found), shorter.steps.count < best.count {
                    (best, found) = shorter
                    continue
                }
            }
            index += 1
        }
    }

    /// Each step made simpler in place, as far as it goes.
    private mutating func simplify(_ best: inout [ExploreStep], _ found: inout ExploreFailure) async {
        var index = 0
        while index < best.count {
            var improved = true
            var rounds = 0
            while improved, rounds < 24, index < best.count {
                improved = false
                rounds += 1
                for simpler in simplifications(of: best[index]) {
                    var candidate = best
                    candidate[index] = simpler
                    if let simpler = await sameFailure(candidate, as: found), simpler.steps.count <= best.count,
                        simpler.steps != best
                    {
                        (best, found) = simpler
                        improved = true
                        break
                    }
                }
            }
            index += 1
        }
    }

    /// Whether every argument of `step` fits its parameter's shape, as the prompt checks it.
    package static func fitsItsParameters(_ step: ExploreStep, in model: ModelDescriptor) -> Bool {
        guard case .action(let name, let arguments) = step, let action = model.action(named: name) else { return true }
        for (param, argument) in zip(action.params, arguments) {
            guard let shape = param.declaredShape else { continue }
            do throws(ShapeMismatch) { _ = try shape.conform(argument) } catch { return false }
        }
        return true
    }

    /// Candidates already run that did not fail the same way: removing any one of a run
    /// of equal steps gives the same candidate, and it is run once.
    private var passed: Set<[ExploreStep]> = []

    mutating func sameFailure(_ steps: [ExploreStep], as failure: ExploreFailure) async -> (
        steps: [ExploreStep], failure: ExploreFailure
    )? {
        guard !passed.contains(steps), tries < budget, steps.allSatisfy(fits) else { return nil }
        tries += 1
        defer { if passed.count > 100_000 { passed.removeAll() } }
        guard let found = await attempt(steps), found.failure.signature == failure.signature else {
            passed.insert(steps)
            return nil
        }
        return (Array(found.steps.prefix(found.failure.step + 1)), found.failure)
    }

    /// Simpler versions of a step, simplest first.
    func simplifications(of step: ExploreStep) -> [ExploreStep] {
        switch step {
        case .advance(let milliseconds):
            return [1, milliseconds / 2].filter { $0 >= 1 && $0 < milliseconds }.map { .advance(milliseconds: $0) }
        case .action(let name, let arguments):
            var steps: [ExploreStep] = []
            for (index, argument) in arguments.enumerated() {
                for simpler in Self.simpler(argument) {
                    var changed = arguments
                    changed[index] = simpler
                    steps.append(.action(name: name, arguments: changed))
                }
            }
            return steps
        }
    }

    /// Values simpler than `value`, simplest first.
    static func simpler(_ value: Value) -> [Value] {
        switch value {
        case .int(let number):
            guard number != 0 else { return [] }
            var smaller: [Int64] = [0]
            if number < 0, number != .min { smaller.append(-number) }
            var half = number / 2
            while half != 0, smaller.count < 8 {
                smaller.append(number - half)
                half /= 2
            }
            return smaller.filter { $0 != number && abs($0) <= abs(number == .min ? .max : number) }.map(Value.int)
        case .double(let number):
            guard number != 0 else { return [] }
            return [0, number.rounded(.towardZero)].filter { $0 != number }.map(Value.double)
        case .string(let text):
            guard !text.isEmpty else { return [] }
            // Shorter: empty, its first character, its first half, then one character less
            // anywhere (so `x"y` comes down to the `"` that matters).
            var shorter = ["", String(text.prefix(1)), String(text.prefix(text.count / 2))]
            let characters = Array(text)
            for index in characters.indices.prefix(32) {
                var fewer = characters
                fewer.remove(at: index)
                shorter.append(String(fewer))
            }
            var seen: Set<String> = [text]
            return shorter.filter { seen.insert($0).inserted }.map(Value.string)
        case .bool(let flag): return flag ? [.bool(false)] : []
        case .array(let items):
            guard !items.isEmpty else { return [] }
            return [.array([]), .array(Array(items.prefix(items.count / 2)))]
                + items.indices.map { index in
                    var fewer = items
                    fewer.remove(at: index)
                    return .array(fewer)
                }
        default: return []
        }
    }
}
