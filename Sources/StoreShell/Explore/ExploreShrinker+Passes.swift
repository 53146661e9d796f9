import StoreValue

/// The passes that change several things at once, or a step's action: what removing one
/// step and simplifying one argument cannot reach (a heap's four pushes whose values only
/// fail in their order, a key written and read again, two steps that only go together).
extension ExploreShrinker {
    /// Two steps removed at once, for every pair (the one pass that is quadratic; it runs
    /// on a run single removals have already made small).
    mutating func removePairs(_ best: inout [ExploreStep], _ found: inout ExploreFailure) async {
        var first = 0
        while first + 1 < best.count {
            var removed = false
            for second in (first + 1)..<best.count {
                var candidate = best
                candidate.remove(at: second)
                candidate.remove(at: first)
                if let shorter = await sameFailure(candidate, as: found), shorter.steps.count < best.count {
                    (best, found) = shorter
                    removed = true
                    break
                }
            }
            if !removed { first += 1 }
        }
    }

    /// A step removed while the arguments equal to one number become a smaller number
    /// together: a count that the removed step fed (a pid that is the number of processes
    /// spawned, read by two later steps) follows the removal.
    mutating func removeAdjustingNumbers(_ best: inout [ExploreStep], _ found: inout ExploreFailure) async {
        var index = 0
        while index < best.count, tries < budget {
            var removed = false
            var fewer = best
            fewer.remove(at: index)
            for (value, places) in Self.argumentPlaces(in: fewer) {
                guard case .int(let number) = value, number != 0, number != .min else { continue }
                var smaller = [Value.int(number > 0 ? number - 1 : number + 1)]
                for simpler in Self.simpler(value) where !smaller.contains(simpler) { smaller.append(simpler) }
                for replacement in smaller {
                    let candidate = Self.replacing(places, in: fewer) { _ in replacement }
                    if let shorter = await sameFailure(candidate, as: found), shorter.steps.count < best.count {
                        (best, found) = shorter
                        removed = true
                        break
                    }
                }
                if removed { break }
            }
            if !removed { index += 1 }
        }
    }

    /// Each step replaced by the simplest form of an action earlier in `alternatives`.
    mutating func replaceBySimplerActions(_ best: inout [ExploreStep], _ found: inout ExploreFailure) async {
        guard !alternatives.isEmpty else { return }
        for index in best.indices where index < best.count && best[index].actionName != nil {
            let rank = self.rank(of: best[index])
            for alternative in alternatives.prefix(rank) where alternative != best[index] {
                var candidate = best
                candidate[index] = alternative
                if let simpler = await sameFailure(candidate, as: found), simpler.steps.count <= best.count {
                    (best, found) = simpler
                    break
                }
            }
        }
    }

    /// Arguments holding the same number or text, made simpler together: a key written by
    /// one step and read by another shrinks only as one.
    mutating func simplifyEqualArguments(_ best: inout [ExploreStep], _ found: inout ExploreFailure) async {
        var improved = true
        while improved, tries < budget {
            improved = false
            for (value, places) in Self.argumentPlaces(in: best) where places.count > 1 {
                for simpler in Self.simpler(value) {
                    let candidate = Self.replacing(places, in: best, with: { _ in simpler })
                    if let better = await sameFailure(candidate, as: found), better.steps.count <= best.count {
                        (best, found) = better
                        improved = true
                        break
                    }
                }
                if improved { break }
            }
        }
    }

    /// The whole numbers among the arguments made smaller together, keeping their order:
    /// first replaced by their ranks (the least 0, the next 1, …), then each pair moved
    /// toward 0 by the same amount. A heap fails on its values' order, not their size.
    mutating func simplifyNumbersTogether(_ best: inout [ExploreStep], _ found: inout ExploreFailure) async {
        let places = Self.argumentPlaces(in: best).filter { if case .int = $0.value { true } else { false } }
        let numbers = places.compactMap { if case .int(let number) = $0.value { number } else { nil } }.sorted()
        guard numbers.count > 1 else { return }
        let ranks = Dictionary(uniqueKeysWithValues: numbers.enumerated().map { ($1, Int64($0)) })
        if ranks.contains(where: { $0.key != $0.value }),
            ranks.reduce(0.0, { $0 + Double($1.value.magnitude) }) < numbers.reduce(0.0, { $0 + Double($1.magnitude) })
        {
            let candidate = Self.replacing(places.flatMap { $0.places }, in: best) { value in
                if case .int(let number) = value, let rank = ranks[number] { return .int(rank) }
                return value
            }
            if let better = await sameFailure(candidate, as: found), better.steps.count <= best.count {
                (best, found) = better
            }
        }
        // Pairs of different numbers of one sign, both moved toward 0 by the smaller's size.
        let current = Self.argumentPlaces(in: best).compactMap { entry -> (Int64, [ArgumentPlace])? in
            if case .int(let number) = entry.value, number != 0, number != .min { return (number, entry.places) }
            return nil
        }
        for (first, second) in Self.pairs(current.count) {
            let (a, b) = (current[first].0, current[second].0)
            guard (a > 0) == (b > 0) else { continue }
            let step = a > 0 ? min(a, b) : max(a, b)
            let moved = Self.replacing(current[first].1 + current[second].1, in: best) { value in
                if case .int(let number) = value { return .int(number - step) }
                return value
            }
            if let better = await sameFailure(moved, as: found), better.steps.count <= best.count {
                (best, found) = better
                return  // the places moved: the next round looks again
            }
        }
    }

    /// Neighbouring actions put simpler first (an earlier action, or simpler arguments),
    /// while the run still fails: a canonical order, as a bubble sort that keeps only
    /// the swaps the failure allows. Clock steps stay where they are.
    mutating func sortSteps(_ best: inout [ExploreStep], _ found: inout ExploreFailure) async {
        var swapped = true
        while swapped, tries < budget {
            swapped = false
            for index in best.indices.dropLast() where index + 1 < best.count {
                guard best[index].actionName != nil, best[index + 1].actionName != nil,
                    isSimpler(best[index + 1], than: best[index])
                else { continue }
                var candidate = best
                candidate.swapAt(index, index + 1)
                if let better = await sameFailure(candidate, as: found), better.steps.count <= best.count {
                    (best, found) = better
                    swapped = true
                }
            }
        }
    }

    /// Where a step's action stands in `alternatives` (past the end when it is not there).
    func rank(of step: ExploreStep) -> Int {
        guard let name = step.actionName else { return alternatives.count }
        return alternatives.firstIndex { $0.actionName == name } ?? alternatives.count
    }

    /// Whether `step` comes before `other` in the order shrinking moves toward.
    func isSimpler(_ step: ExploreStep, than other: ExploreStep) -> Bool {
        let (first, second) = (rank(of: step), rank(of: other))
        if first != second { return first < second }
        guard case .action(_, let arguments) = step, case .action(_, let others) = other else { return false }
        for (argument, against) in zip(arguments, others) where argument != against {
            return Self.complexity(argument).lexicographicallyPrecedes(Self.complexity(against))
        }
        return false
    }

    /// A measure of a value's size: numbers by magnitude (a negative after its positive),
    /// text by length then characters, lists by count.
    static func complexity(_ value: Value) -> [Double] {
        switch value {
        case .int(let number): [Double(number.magnitude) * 2 + (number < 0 ? 1 : 0)]
        case .double(let number): [number.magnitude]
        case .string(let text): [Double(text.count)] + text.unicodeScalars.prefix(16).map { Double($0.value) }
        case .bool(let flag): [flag ? 1 : 0]
        case .array(let items): [Double(items.count)]
        case .null: [0]
        default: [Double(value.compact.count)]
        }
    }

    /// An argument's place: the step and the argument's position in it.
    struct ArgumentPlace: Hashable {
        let step: Int
        let argument: Int
    }

    /// The runs' top-level number and text arguments, grouped by value, in the order they
    /// first appear.
    static func argumentPlaces(in steps: [ExploreStep]) -> [(value: Value, places: [ArgumentPlace])] {
        var groups: [(value: Value, places: [ArgumentPlace])] = []
        for (index, step) in steps.enumerated() {
            guard case .action(_, let arguments) = step else { continue }
            for (position, argument) in arguments.enumerated() {
                switch argument {
                case .int, .string: break
                default: continue
                }
                let place = ArgumentPlace(step: index, argument: position)
                if let group = groups.firstIndex(where: { $0.value == argument }) {
                    groups[group].places.append(place)
                } else {
                    groups.append((argument, [place]))
                }
            }
        }
        return groups
    }

    /// `steps` with the arguments at `places` changed by `change`.
    static func replacing(_ places: [ArgumentPlace], in steps: [ExploreStep], with change: (Value) -> Value)
        -> [ExploreStep]
    {
        var changed = steps
        for place in places {
            guard case .action(let name, var arguments) = changed[place.step] else { continue }
            arguments[place.argument] = change(arguments[place.argument])
            changed[place.step] = .action(name: name, arguments: arguments)
        }
        return changed
    }

    /// Every pair of indexes below `count`, in order.
    static func pairs(_ count: Int) -> [(Int, Int)] {
        (0..<count).flatMap { first in ((first + 1)..<max(first + 1, count)).map { (first, $0) } }
    }
}
