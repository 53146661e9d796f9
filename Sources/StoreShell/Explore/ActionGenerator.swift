import StoreHost
import StoreValue

/// Makes the steps of explored runs from a model's schema: every action, with arguments
/// by kind biased to the edges (0, ±1, the limits, the empty string) and to values the
/// state already holds; keyed actions take their keys from the current state (now and
/// then one it does not have); clock steps between actions when time matters.
///
/// Swarm testing: each run leaves out a random part of the actions (`startRun`), so long
/// runs of a few actions happen, which reach deep states far more often than runs where
/// every action is equally likely.
struct ActionGenerator {
    let model: ModelDescriptor
    /// The actions the explorer may use (indexes into `model.actions`).
    let candidates: [Int]
    /// Whether to interleave clock steps (the clock is virtual).
    let clockSteps: Bool
    /// How often a step moves the clock: more often once the model has started effects
    /// (`sawEffects`), since then time decides what happens.
    var sawEffects = false
    /// This run's actions (a swarm subset of `candidates`).
    private(set) var enabled: [Int] = []
    /// Values seen in states, for arguments.
    private var seenInts: [Int64] = []
    private var seenStrings: [String] = []

    init(model: ModelDescriptor, candidates: [Int], clockSteps: Bool) {
        self.model = model
        self.candidates = candidates
        self.clockSteps = clockSteps
    }

    /// Starts run `run` afresh — nothing remembered from other runs, so each run is the
    /// same whichever runs came before it — and chooses its actions: each candidate with
    /// even odds, at least one. Every fourth run uses them all (a swarm that never tries
    /// all together misses bugs that need two rare actions).
    mutating func startRun(_ random: inout ExploreRandom, run: Int) {
        seenInts = []
        seenStrings = []
        sawEffects = false
        guard run % 4 != 0, candidates.count > 1 else {
            enabled = candidates
            return
        }
        enabled = candidates.filter { _ in random.chance(0.5) }
        if enabled.isEmpty { enabled = [random.pick(candidates)] }
    }

    /// Lets this run use every candidate action (a guided run: `ExploreLane`).
    mutating func enableAll() { enabled = candidates }

    /// The next step from `state`.
    mutating func step(_ random: inout ExploreRandom, state: Value) -> ExploreStep {
        if clockSteps, random.chance(sawEffects ? 0.1 : 0.02) {
            return .advance(milliseconds: random.pick([1, 10, 100, 250, 1_000, 5_000, 60_000]))
        }
        let action = model.actions[random.pick(enabled)]
        return .action(name: action.name, arguments: arguments(for: action, random: &random, state: state))
    }

    /// Remembers values the state holds (a bounded sample), for later arguments.
    mutating func learn(from state: Value) {
        var budget = 64
        collect(state, budget: &budget)
    }

    private mutating func collect(_ value: Value, budget: inout Int) {
        guard budget > 0 else { return }
        budget -= 1
        switch value {
        case .int(let number): remember(number, in: &seenInts)
        case .string(let text): remember(text, in: &seenStrings)
        case .array(let items): for item in items.prefix(8) { collect(item, budget: &budget) }
        case .record(_, let fields), .enumCase(_, let fields):
            for field in fields.prefix(16) {
                if let label = field.label { remember(label, in: &seenStrings) }
                collect(field.value, budget: &budget)
            }
        default: break
        }
    }

    private func remember<T: Equatable>(_ item: T, in list: inout [T]) {
        guard !list.contains(item) else { return }
        if list.count >= 32 { list.removeFirst() }
        list.append(item)
    }

    private func arguments(for action: ActionDescriptor, random: inout ExploreRandom, state: Value) -> [Value] {
        let keys = keys(for: action, random: &random, state: state)
        return action.params.enumerated().map { index, param in
            guard index >= keys.count else { return keys[index] }
            if let shape = param.declaredShape {
                // In the form the plugin decodes (a case typed by name becomes its record):
                // explore sends arguments as values, not through the text's binding.
                let made = value(of: shape, random: &random, depth: 0)
                return (try? shape.conform(made)) ?? made
            }
            return value(of: param.type, random: &random, depth: 0)
        }
    }

    /// Keys for `todos[].toggle`: an id of an element of `todos` (or a label of a
    /// record there), sometimes one that is not there.
    private func keys(for action: ActionDescriptor, random: inout ExploreRandom, state: Value) -> [Value] {
        guard action.name.utf8.contains(UInt8(ascii: ".")) else { return [] }  // most actions: no split made
        let parts = action.name.split(separator: ".").dropLast()
        var keys: [Value] = []
        var path = ""
        for part in parts {
            let hasKey = part.hasSuffix("[]")
            let field = hasKey ? String(part.dropLast(2)) : String(part)
            path = path.isEmpty ? field : path + "." + field
            guard hasKey else { continue }
            let type = keys.count < action.params.count ? action.params[keys.count].type : .string
            let found = (try? PathSyntax.lookup(path, in: state, identity: model.stateDiff)).map(containedKeys) ?? []
            let key: String
            if found.isEmpty || random.chance(0.05) {
                key = type == .int ? String(random.pick([0, 1, -1, 99])) : random.pick(["missing", "", "x"])
            } else {
                key = random.pick(found)
            }
            let value: Value = type == .int ? Int64(key).map(Value.int) ?? .int(0) : .string(key)
            keys.append(value)
            path += "[" + value.compact + "]"
        }
        return keys
    }

    private func containedKeys(_ container: Value) -> [String] {
        switch container {
        case .array(let items): return items.compactMap { model.stateDiff.identity($0) }
        case .record(_, let fields): return fields.compactMap(\.label)
        default: return []
        }
    }

    private func value(of type: ParamType, random: inout ExploreRandom, depth: Int) -> Value {
        switch type {
        case .int: return .int(int(&random))
        case .double:
            if random.chance(0.3), !seenInts.isEmpty { return .double(Double(random.pick(seenInts))) }
            return .double(random.pick([0, 1, -1, 0.5, -0.5, 1e9, -1e9, 3.25, Double(random.index(1000))]))
        case .bool: return .bool(random.chance(0.5))
        case .string: return .string(string(&random))
        case .value: return tree(&random, depth: depth)
        }
    }

    /// A value of `shape`, built the way the plugin decodes it: a range's edges and
    /// insides, every case of an enum, records with every field (optional ones sometimes
    /// null or left out), short lists. Past a few levels lists are empty and optionals null,
    /// so a deep shape stays small.
    private func value(of shape: TypeShape, random: inout ExploreRandom, depth: Int) -> Value {
        let deep = depth >= 4
        switch shape {
        case .int(let range?): return .int(int(in: range, &random))
        case .int(nil): return value(of: ParamType.int, random: &random, depth: depth)
        case .double: return value(of: ParamType.double, random: &random, depth: depth)
        case .bool: return .bool(random.chance(0.5))
        case .string: return .string(string(&random))
        case .uuid: return .string(uuid(&random))
        case .any: return tree(&random, depth: depth)
        case .optional(let wrapped):
            return deep || random.chance(0.25) ? .null : value(of: wrapped, random: &random, depth: depth + 1)
        case .list(let element):
            let count = deep ? 0 : random.pick([0, 1, 1, 2, 3])
            return .array((0..<count).map { _ in value(of: element, random: &random, depth: depth + 1) })
        case .dictionary(.string, let element):
            let keys = deep ? [] : Array(Set((0..<random.index(3)).map { _ in string(&random) }))
            return .record(
                type: nil,
                fields: keys.sorted().map { .init($0, value(of: element, random: &random, depth: depth + 1)) })
        case .dictionary: return .array([])
        case .record(_, let fields):
            var made: [Value.Field] = []
            for (index, field) in fields.enumerated() {
                if case .optional = field.shape, random.chance(0.2) { continue }
                made.append(
                    .init(field.label ?? "_\(index)", value(of: field.shape, random: &random, depth: depth + 1)))
            }
            return .record(type: nil, fields: made)
        case .choice(_, let cases):
            guard !cases.isEmpty else { return .null }
            let chosen = random.pick(cases)
            if let raw = chosen.rawValue { return raw }
            if chosen.payload.isEmpty, random.chance(0.5) { return .string(chosen.name) }
            let payload = chosen.payload.enumerated().map { index, field in
                Value.Field(field.label ?? "_\(index)", value(of: field.shape, random: &random, depth: depth + 1))
            }
            return .record(type: nil, fields: [.init(chosen.name, .record(type: nil, fields: payload))])
        }
    }

    /// A UUID: most often one the state holds (an id to act on), else a new one.
    private func uuid(_ random: inout ExploreRandom) -> String {
        let seen = seenStrings.filter(TypeShape.isUUID)
        if !seen.isEmpty, random.chance(0.8) { return random.pick(seen) }
        let digits = Array("0123456789ABCDEF")
        var text = ""
        for index in 0..<32 {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.append(digits[random.index(16)])
        }
        return text
    }

    /// A number in `range`, most often at or next to its edges, or 0.
    private func int(in range: ClosedRange<Int64>, _ random: inout ExploreRandom) -> Int64 {
        let low = range.lowerBound
        let high = range.upperBound
        let span = UInt64(bitPattern: high &- low)
        let inside = low &+ Int64(bitPattern: UInt64(random.index(Int(min(span, 1_000)) + 1)))
        let seen = seenInts.filter(range.contains)
        if random.chance(0.2), !seen.isEmpty { return random.pick(seen) }
        return random.pick([
            low, high, min(low &+ 1, high), max(high &- 1, low), range.contains(0) ? 0 : low, inside, inside,
        ])
    }

    private func int(_ random: inout ExploreRandom) -> Int64 {
        if random.chance(0.25), !seenInts.isEmpty {
            let seen = random.pick(seenInts)
            return random.pick([seen, seen &+ 1, seen &- 1])
        }
        if random.chance(0.05) { return random.pick([Int64.max, Int64.min, Int64(Int32.max), Int64(Int32.min)]) }
        return random.pick([0, 1, -1, 2, 3, 5, 10, -10, 100, 1000])
            + (random.chance(0.3) ? Int64(random.index(50)) - 25 : 0)
    }

    /// A string: one the state holds (or a small change of one), one that troubles text
    /// handling, or one made of random pieces from across Unicode (`ExploreStrings`).
    func string(_ random: inout ExploreRandom) -> String {
        if random.chance(0.3), !seenStrings.isEmpty {
            let seen = random.pick(seenStrings)
            return random.chance(0.75) ? seen : ExploreStrings.varied(seen, &random)
        }
        return random.chance(0.5) ? random.pick(ExploreStrings.classics) : ExploreStrings.made(&random)
    }

    private func tree(_ random: inout ExploreRandom, depth: Int) -> Value {
        switch depth < 2 ? random.index(6) : random.index(4) {
        case 0: return .int(int(&random))
        case 1: return .string(string(&random))
        case 2: return .bool(random.chance(0.5))
        case 3: return .null
        case 4: return .array((0..<random.index(3)).map { _ in tree(&random, depth: depth + 1) })
        default:
            return .record(
                type: nil,
                fields: (0..<random.index(3)).map { .init(["a", "b", "c"][$0], tree(&random, depth: depth + 1)) })
        }
    }
}
