package import StoreHost
package import StoreValue

/// How `storesh explore --against` and `:compare` compare a model's state with a reference
/// model's: at each `--compare` path (read with the property language's paths; a path that
/// names nothing in both states agrees), or the whole state when there are none.
package struct StateComparison: Sendable {
    /// The paths as written; empty: the whole state.
    package let paths: [String]
    private let nodes: [PropertyNode]

    /// Reads `paths`; a mistake names the path and its byte.
    package init(paths: [String]) throws(StateComparisonError) {
        var nodes: [PropertyNode] = []
        for path in paths {
            do throws(TextError) {
                nodes.append(try PropertyParser.parse(path))
            } catch {
                throw StateComparisonError(path: path, error: error)
            }
        }
        self.paths = paths
        self.nodes = nodes
    }

    /// What differs between `state` and the reference's `expected`, as "alive[1] is 2 here,
    /// 1 in the reference"; nil when they agree.
    package func difference(_ state: Value, _ expected: Value, identity: StateDiff) -> String? {
        guard !nodes.isEmpty else {
            guard !PropertyOperand.same(state, expected) else { return nil }
            guard let change = identity.changes(from: expected, to: state).first else { return "the states differ" }
            return Self.explain(change.path, here: change.new, there: change.old)
        }
        for (path, node) in zip(paths, nodes) {
            let here = try? PropertyEvaluator(state: state, identity: identity).value(of: node)
            let there = try? PropertyEvaluator(state: expected, identity: identity).value(of: node)
            switch (here, there) {
            case (nil, nil): continue
            case (let here?, let there?) where PropertyOperand.same(here, there): continue
            default: return Self.explain(path, here: here, there: there)
            }
        }
        return nil
    }

    private static func explain(_ path: String, here: Value?, there: Value?) -> String {
        "\(path) is \(here?.compact ?? "nothing") here, \(there?.compact ?? "nothing") in the reference"
    }
}

/// A `--compare` or `:compare` path that does not read.
package struct StateComparisonError: Error, Sendable {
    package let path: String
    package let error: TextError

    package var message: String {
        let column = String(decoding: Array(path.utf8).prefix(error.offset), as: UTF8.self).count + 1
        return "'\(path)': column \(column): \(error.message)"
    }
}
