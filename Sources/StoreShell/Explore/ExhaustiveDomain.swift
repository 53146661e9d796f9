import StoreHost
import StoreValue

/// The finite set of arguments an exhaustive search (`--exhaustive`) tries for each action
/// from a state: a declared range or set whole when it is small (16 values or fewer), else
/// its edges; every case of an enum; both booleans; for numbers and text without a domain,
/// the edge values (0, 1, -1, the limits; "", "a") and those the state holds (pids, names,
/// ids: what a model's next action usually names); keys of a keyed action from the state
/// (and one that is not there). Records take the product of their fields' values. Each
/// action's list is cut at `limit` tuples, the same ones every time, and says so.
final class ExhaustiveDomain {
    let model: ModelDescriptor
    /// The most argument tuples one action gets from one state.
    var limit = 64
    /// Set when some product of values was longer than `limit`.
    private(set) var truncated = false

    init(model: ModelDescriptor) { self.model = model }

    /// Every step the search tries from `state`: each candidate action with each tuple of
    /// its arguments, in schema order.
    func steps(from state: Value, actions: [Int]) -> [ExploreStep] {
        let seen = Seen(state)
        var steps: [ExploreStep] = []
        for index in actions {
            let action = model.actions[index]
            var lists: [[Value]] = keys(for: action, in: state)
            for param in action.params.dropFirst(lists.count) {
                if let shape = param.declaredShape {
                    lists.append(values(of: shape, seen: seen, depth: 0).map { (try? shape.conform($0)) ?? $0 })
                } else {
                    lists.append(values(of: param.shape, seen: seen, depth: 0))
                }
            }
            for arguments in product(lists) { steps.append(.action(name: action.name, arguments: arguments)) }
        }
        return steps
    }

    /// The numbers and strings a state holds, a few of each, in the order met.
    private struct Seen {
        var ints: [Int64] = []
        var strings: [String] = []

        init(_ state: Value) { collect(state, budget: 400) }

        private mutating func collect(_ value: Value, budget: Int) {
            var pending = [value]
            var left = budget
            while let next = pending.popLast(), left > 0 {
                left -= 1
                switch next {
                case .int(let number) where ints.count < 8 && !ints.contains(number): ints.append(number)
                case .string(let text) where strings.count < 8 && !strings.contains(text) && text.count <= 64:
                    strings.append(text)
                case .array(let items): pending += items.reversed()
                case .record(_, let fields), .enumCase(_, let fields): pending += fields.map(\.value).reversed()
                default: break
                }
            }
        }
    }

    private func values(of shape: TypeShape, seen: Seen, depth: Int) -> [Value] {
        switch shape {
        case .int(let range?):
            let (width, overflow) = range.upperBound.subtractingReportingOverflow(range.lowerBound)
            if !overflow, width < 16 {
                return (range.lowerBound...range.upperBound).map(Value.int)
            }
            let edges = [range.lowerBound, range.lowerBound &+ 1, 0, range.upperBound &- 1, range.upperBound]
            return unique(edges.filter(range.contains) + seen.ints.filter(range.contains)).map(Value.int)
        case .int(nil):
            return unique([0, 1, -1, Int64.max, Int64.min] + seen.ints).map(Value.int)
        case .double: return [0, 1, -1, 0.5].map(Value.double) + seen.ints.map { .double(Double($0)) }
        case .bool: return [.bool(false), .bool(true)]
        case .string: return unique(["", "a"] + seen.strings).map(Value.string)
        case .uuid:
            return unique(seen.strings.filter(TypeShape.isUUID) + ["00000000-0000-0000-0000-000000000001"])
                .map(Value.string)
        case .any: return [.null]
        case .optional(let wrapped):
            return [.null] + (depth < 3 ? values(of: wrapped, seen: seen, depth: depth + 1) : [])
        case .list(let element):
            let some = depth < 3 ? values(of: element, seen: seen, depth: depth + 1).prefix(2) : []
            return [.array([])] + some.map { .array([$0]) }
        case .dictionary: return [.record(type: nil, fields: [])]
        case .record(_, let fields):
            let lists = fields.map { values(of: $0.shape, seen: seen, depth: depth + 1) }
            return product(lists).map { made in
                .record(type: nil, fields: zip(fields.indices, made).map { .init(fields[$0].label ?? "_\($0)", $1) })
            }
        case .choice(_, let cases):
            return cases.flatMap { chosen -> [Value] in
                if let raw = chosen.rawValue { return [raw] }
                let lists = chosen.payload.map { values(of: $0.shape, seen: seen, depth: depth + 1) }
                return product(lists).map { made in
                    let payload = zip(chosen.payload.indices, made).map {
                        Value.Field(chosen.payload[$0].label ?? "_\($0)", $1)
                    }
                    return .record(type: nil, fields: [.init(chosen.name, .record(type: nil, fields: payload))])
                }
            }
        }
    }

    /// The keys a keyed action (`todos[].toggle`) takes from `state`: each element's id
    /// (or each label of a record) there, and one that is not.
    private func keys(for action: ActionDescriptor, in state: Value) -> [[Value]] {
        var lists: [[Value]] = []
        var path = ""
        for part in action.name.split(separator: ".").dropLast() {
            let hasKey = part.hasSuffix("[]")
            let field = hasKey ? String(part.dropLast(2)) : String(part)
            path = path.isEmpty ? field : path + "." + field
            guard hasKey else { continue }
            let isInt = lists.count < action.params.count && action.params[lists.count].type == .int
            var found: [String] = []
            switch try? PathSyntax.lookup(path, in: state, identity: model.stateDiff) {
            case .array(let items)?: found = items.compactMap { model.stateDiff.identity($0) }
            case .record(_, let fields)?: found = fields.compactMap(\.label)
            default: break
            }
            let keys = unique(found + [isInt ? "-1" : "missing"])
            lists.append(keys.map { isInt ? Int64($0).map(Value.int) ?? .int(0) : .string($0) })
            // Deeper keys are looked up under the first: one level is what explore needs.
            path += "[" + (lists.last?.first?.compact ?? "0") + "]"
        }
        return lists
    }

    /// Every tuple with one value from each list, in order, at most `limit`.
    private func product(_ lists: [[Value]]) -> [[Value]] {
        var tuples: [[Value]] = [[]]
        for list in lists {
            var next: [[Value]] = []
            for tuple in tuples {
                for value in list {
                    guard next.count < limit else {
                        truncated = true
                        break
                    }
                    next.append(tuple + [value])
                }
            }
            tuples = next
        }
        return tuples
    }

    private func unique<T: Hashable>(_ items: [T]) -> [T] {
        var seen = Set<T>()
        return items.filter { seen.insert($0).inserted }
    }
}
