import StoreHost

/// A unified diff of two texts by lines (longest common subsequence), with `@@` hunk
/// headers carrying line numbers, as `diff -u` prints them.
package enum UnifiedDiff {
    enum Op {
        case same(String), delete(String), insert(String)
    }

    package static func lines(from old: [String], to new: [String], oldName: String, newName: String, context: Int = 3)
        -> [String]
    {
        let ops = operations(old, new)
        // Where each operation sits in the old and new texts.
        var positions: [(old: Int, new: Int)] = []
        var oldLine = 0
        var newLine = 0
        for op in ops {
            positions.append((oldLine, newLine))
            switch op {
            case .same:
                oldLine += 1
                newLine += 1
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
            var oldCount = 0
            var newCount = 0
            var body: [String] = []
            for op in ops[start...end] {
                switch op {
                case .same(let line):
                    body.append(" " + line)
                    oldCount += 1
                    newCount += 1
                case .delete(let line):
                    body.append("-" + line)
                    oldCount += 1
                case .insert(let line):
                    body.append("+" + line)
                    newCount += 1
                }
            }
            output.append("@@ -\(positions[start].old + 1),\(oldCount) +\(positions[start].new + 1),\(newCount) @@")
            output += body
            index = last + 1
        }
        return output
    }

    /// The edit script from `old` to `new`: Myers' O((N+M)·D) algorithm in its
    /// linear-space form (find the middle snake, solve both halves), so memory stays
    /// linear and recursion depth logarithmic in the number of differences.
    private static func operations(_ old: [String], _ new: [String]) -> [Op] {
        var ops: [Op] = []
        ops.reserveCapacity(max(old.count, new.count))
        var myers = Myers(old: old, new: new)
        myers.solve(0, old.count, 0, new.count, into: &ops)
        return ops
    }
}

/// Myers' difference algorithm, linear-space variant (Myers 1986, section 4b).
private struct Myers {
    let old: [String]
    let new: [String]
    /// Furthest x on each diagonal, forward and backward; indexed by k + offset.
    private var forward: [Int]
    private var backward: [Int]
    private let offset: Int

    init(old: [String], new: [String]) {
        self.old = old
        self.new = new
        offset = old.count + new.count + 2
        forward = Array(repeating: 0, count: 2 * offset + 2)
        backward = Array(repeating: 0, count: 2 * offset + 2)
    }

    mutating func solve(_ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int, into ops: inout [UnifiedDiff.Op]) {
        var aLow = aLow
        var bLow = bLow
        var aHigh = aHigh
        var bHigh = bHigh
        var prefix: [UnifiedDiff.Op] = []
        var suffix: [UnifiedDiff.Op] = []
        while aLow < aHigh, bLow < bHigh, old[aLow] == new[bLow] {
            prefix.append(.same(old[aLow]))
            aLow += 1
            bLow += 1
        }
        while aLow < aHigh, bLow < bHigh, old[aHigh - 1] == new[bHigh - 1] {
            suffix.append(.same(old[aHigh - 1]))
            aHigh -= 1
            bHigh -= 1
        }
        ops += prefix
        if aLow == aHigh {
            ops += new[bLow..<bHigh].map { .insert($0) }
        } else if bLow == bHigh {
            ops += old[aLow..<aHigh].map { .delete($0) }
        } else {
            let snake = middleSnake(aLow, aHigh, bLow, bHigh)
            solve(aLow, snake.x1, bLow, snake.y1, into: &ops)
            ops += old[snake.x1..<snake.x2].map { .same($0) }
            solve(snake.x2, aHigh, snake.y2, bHigh, into: &ops)
        }
        ops += suffix.reversed()
    }

    /// The middle snake of the shortest edit path between the two ranges, in absolute
    /// coordinates: the path goes through (x1, y1) and (x2, y2), equal lines between.
    private mutating func middleSnake(_ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int) -> (
        x1: Int, y1: Int, x2: Int, y2: Int
    ) {
        let n = aHigh - aLow
        let m = bHigh - bLow
        let delta = n - m
        let odd = delta & 1 != 0
        let limit = (n + m + 1) / 2
        forward[offset + 1] = 0
        backward[offset + 1] = 0
        for d in 0...limit {
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    (k == -d || (k != d && forward[offset + k - 1] < forward[offset + k + 1]))
                    ? forward[offset + k + 1] : forward[offset + k - 1] + 1
                var y = x - k
                let startX = x
                let startY = y
                while x < n, y < m, old[aLow + x] == new[bLow + y] {
                    x += 1
                    y += 1
                }
                forward[offset + k] = x
                let reverse = delta - k
                if odd, reverse >= -(d - 1), reverse <= d - 1, x + backward[offset + reverse] >= n {
                    return (aLow + startX, bLow + startY, aLow + x, bLow + y)
                }
            }
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    (k == -d || (k != d && backward[offset + k - 1] < backward[offset + k + 1]))
                    ? backward[offset + k + 1] : backward[offset + k - 1] + 1
                var y = x - k
                let startX = x
                let startY = y
                while x < n, y < m, old[aHigh - 1 - x] == new[bHigh - 1 - y] {
                    x += 1
                    y += 1
                }
                backward[offset + k] = x
                let ahead = delta - k
                if !odd, ahead >= -d, ahead <= d, x + forward[offset + ahead] >= n {
                    return (aHigh - x, bHigh - y, aHigh - startX, bHigh - startY)
                }
            }
        }
        return (aLow, bLow, aLow, bLow)  // not reached: a path always exists
    }
}
