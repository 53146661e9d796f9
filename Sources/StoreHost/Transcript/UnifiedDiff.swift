/// A unified diff of two texts by lines (longest common subsequence), with `@@` hunk
/// headers carrying line numbers, as `diff -u` prints them.
public enum UnifiedDiff {
    private enum Op {
        case same(String), delete(String), insert(String)
    }

    public static func lines(from old: [String], to new: [String], oldName: String, newName: String, context: Int = 3) -> [String] {
        let ops = operations(old, new)
        // Where each operation sits in the old and new texts.
        var positions: [(old: Int, new: Int)] = []
        var oldLine = 0, newLine = 0
        for op in ops {
            positions.append((oldLine, newLine))
            switch op {
            case .same: oldLine += 1; newLine += 1
            case .delete: oldLine += 1
            case .insert: newLine += 1
            }
        }
        let changed = ops.indices.filter { if case .same = ops[$0] { false } else { true } }
        guard !changed.isEmpty else { return [] }
        var output = ["--- \(oldName)", "+++ \(newName)"]
        var index = 0
        while index < changed.count {
            var last = index
            while last + 1 < changed.count, changed[last + 1] - changed[last] <= 2 * context { last += 1 }
            let start = max(0, changed[index] - context)
            let end = min(ops.count - 1, changed[last] + context)
            var oldCount = 0, newCount = 0
            var body: [String] = []
            for op in ops[start...end] {
                switch op {
                case .same(let line): body.append(" " + line); oldCount += 1; newCount += 1
                case .delete(let line): body.append("-" + line); oldCount += 1
                case .insert(let line): body.append("+" + line); newCount += 1
                }
            }
            output.append("@@ -\(positions[start].old + 1),\(oldCount) +\(positions[start].new + 1),\(newCount) @@")
            output += body
            index = last + 1
        }
        return output
    }

    private static func operations(_ old: [String], _ new: [String]) -> [Op] {
        let n = old.count, m = new.count
        // lcs[i][j]: length of the longest common subsequence of old[i...] and new[j...].
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lcs[i][j] = old[i] == new[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var ops: [Op] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] {
                ops.append(.same(old[i])); i += 1; j += 1
            } else if i < n, j == m || lcs[i + 1][j] >= lcs[i][j + 1] {
                ops.append(.delete(old[i])); i += 1
            } else {
                ops.append(.insert(new[j])); j += 1
            }
        }
        return ops
    }
}
