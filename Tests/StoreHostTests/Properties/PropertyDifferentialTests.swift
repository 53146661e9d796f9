import StoreHost
import StoreValue
import Testing

/// The property language against an independent evaluator (issue 47): random expressions
/// over random states, written as text, parsed and worked out by storesh, and worked out
/// again here straight from the generated tree, by the meaning `../shared/explore-
/// properties.md` gives: checked integer arithmetic, comparisons, `&& || !`, paths, `[*]`
/// mapping element-wise, and the list functions. Both must give the same value, or both
/// an error.
@Suite("the property language, against an independent evaluator")
struct PropertyDifferentialTests {
    /// A generated expression: what it means, and its text.
    indirect enum Expr {
        case int(Int64)
        case bool(Bool)
        case path(String)  // a: Int, b: Int, flag: Bool
        case arith(Expr, String, Expr)
        case compare(Expr, String, Expr)
        case logic(Expr, String, Expr)
        case not(Expr)
        case negate(Expr)
        case count, sum, min, max  // of xs
        case contains(Expr)  // contains(xs, e)
        case all(String, Expr), any(String, Expr)  // all(xs[*] OP e)

        var text: String {
            switch self {
            case .int(let n): n < 0 ? "(\(n))" : "\(n)"
            case .bool(let b): "\(b)"
            case .path(let name): name
            case .arith(let l, let op, let r), .compare(let l, let op, let r), .logic(let l, let op, let r):
                "(\(l.text) \(op) \(r.text))"
            case .not(let e): "(!(\(e.text)))"
            case .negate(let e): "-(\(e.text))"
            case .count: "count(xs)"
            case .sum: "sum(xs)"
            case .min: "min(xs)"
            case .max: "max(xs)"
            case .contains(let e): "contains(xs, \(e.text))"
            case .all(let op, let e): "all(xs[*] \(op) \(e.text))"
            case .any(let op, let e): "any(xs[*] \(op) \(e.text))"
            }
        }
    }

    /// What the independent evaluator makes of an expression: a number, a Bool, or an error.
    enum Outcome: Equatable {
        case int(Int64), bool(Bool), error
    }

    struct Generator {
        var seed: UInt64
        mutating func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        mutating func number() -> Int64 {
            [0, 1, -1, 2, 3, 7, -5, 100, Int64.max, Int64.min, 4_611_686_018_427_387_904][next(11)]
        }
        /// A number written as a literal: Int64.min has no literal (its magnitude does not
        /// fit), so it comes from the state.
        mutating func literal() -> Expr {
            let n = number()
            return .int(n == .min ? .max : n)
        }
        mutating func int(_ depth: Int) -> Expr {
            if depth == 0 { return [literal(), .path("a"), .path("b"), .count, .sum][next(5)] }
            switch next(7) {
            case 0: return literal()
            case 1: return .path(next(2) == 0 ? "a" : "b")
            case 2: return .negate(int(depth - 1))
            case 3: return [.count, .sum, .min, .max][next(4)]
            default: return .arith(int(depth - 1), ["+", "-", "*", "/", "%"][next(5)], int(depth - 1))
            }
        }
        mutating func bool(_ depth: Int) -> Expr {
            if depth == 0 { return [.bool(true), .bool(false), .path("flag")][next(3)] }
            let op = ["==", "!=", "<", "<=", ">", ">="][next(6)]
            switch next(6) {
            case 0: return .compare(int(depth - 1), op, int(depth - 1))
            case 1: return .logic(bool(depth - 1), next(2) == 0 ? "&&" : "||", bool(depth - 1))
            case 2: return .not(bool(depth - 1))
            case 3: return .contains(int(depth - 1))
            case 4: return next(2) == 0 ? .all(op, int(depth - 1)) : .any(op, int(depth - 1))
            default: return .compare(bool(depth - 1), op == "==" ? "==" : "!=", bool(depth - 1))
            }
        }
    }

    struct State {
        let a: Int64, b: Int64, flag: Bool, xs: [Int64]
        var value: Value {
            .record([
                "a": .int(a), "b": .int(b), "flag": .bool(flag), "xs": .array(xs.map(Value.int)),
            ])
        }
    }

    /// The meaning, worked out here.
    func evaluate(_ expression: Expr, in state: State) -> Outcome {
        func int(_ e: Expr) -> Int64? {
            if case .int(let n) = evaluate(e, in: state) { return n }
            return nil
        }
        func bool(_ e: Expr) -> Bool? {
            if case .bool(let b) = evaluate(e, in: state) { return b }
            return nil
        }
        func compare(_ l: Int64, _ op: String, _ r: Int64) -> Bool {
            switch op {
            case "==": l == r
            case "!=": l != r
            case "<": l < r
            case "<=": l <= r
            case ">": l > r
            default: l >= r
            }
        }
        switch expression {
        case .int(let n): return .int(n)
        case .bool(let b): return .bool(b)
        case .path(let name): return name == "flag" ? .bool(state.flag) : .int(name == "a" ? state.a : state.b)
        case .negate(let e):
            guard let n = int(e), n != .min else { return .error }
            return .int(-n)
        case .arith(let l, let op, let r):
            guard let x = int(l), let y = int(r) else { return .error }
            let result: (Int64, Bool)
            switch op {
            case "+": result = x.addingReportingOverflow(y)
            case "-": result = x.subtractingReportingOverflow(y)
            case "*": result = x.multipliedReportingOverflow(by: y)
            case "/":
                guard y != 0 else { return .error }
                result = x.dividedReportingOverflow(by: y)
            default:
                guard y != 0 else { return .error }
                result = x.remainderReportingOverflow(dividingBy: y)
            }
            return result.1 ? .error : .int(result.0)
        case .compare(let l, let op, let r):
            if let x = int(l), let y = int(r) { return .bool(compare(x, op, y)) }
            if let x = bool(l), let y = bool(r) { return .bool(op == "==" ? x == y : x != y) }
            return .error
        case .logic(let l, let op, let r):
            // Left to right, and the right side only when the left does not decide (a
            // check such as `count(xs) > 0 && min(xs) > 0` must not fail on an empty list).
            guard let x = bool(l) else { return .error }
            if x == (op == "||") { return .bool(x) }
            guard let y = bool(r) else { return .error }
            return .bool(y)
        case .not(let e):
            guard let x = bool(e) else { return .error }
            return .bool(!x)
        case .count: return .int(Int64(state.xs.count))
        case .sum:
            var total: Int64 = 0
            for x in state.xs {
                let (next, overflow) = total.addingReportingOverflow(x)
                if overflow { return .error }
                total = next
            }
            return .int(total)
        case .min: return state.xs.min().map(Outcome.int) ?? .error
        case .max: return state.xs.max().map(Outcome.int) ?? .error
        case .contains(let e):
            guard let x = int(e) else { return .error }
            return .bool(state.xs.contains(x))
        case .all(let op, let e), .any(let op, let e):
            guard let y = int(e) else { return .error }
            let each = state.xs.map { compare($0, op, y) }
            if case .all = expression { return .bool(each.allSatisfy { $0 }) }
            return .bool(each.contains(true))
        }
    }

    /// What storesh makes of it.
    func storesh(_ expression: Expr, in state: State) throws -> Outcome {
        let node = try PropertyParser.parse(expression.text)
        do throws(PropertyProblem) {
            switch try PropertyEvaluator(state: state.value).value(of: node) {
            case .int(let n): return .int(n)
            case .bool(let b): return .bool(b)
            default: return .error
            }
        } catch {
            return .error
        }
    }

    @Test(arguments: 0..<8)
    func randomExpressionsMeanWhatTheLanguageSays(round: Int) throws {
        var generator = Generator(seed: UInt64(round) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var compared = 0
        var errors = 0
        for _ in 0..<500 {
            let state = State(
                a: generator.number(), b: generator.number(), flag: generator.next(2) == 0,
                xs: (0..<generator.next(4)).map { _ in generator.number() })
            let expression = generator.next(2) == 0 ? generator.int(3) : generator.bool(3)
            let mine = evaluate(expression, in: state)
            let theirs = try storesh(expression, in: state)
            #expect(theirs == mine, "\(expression.text) in \(state.value.compact)")
            compared += 1
            if mine == .error { errors += 1 }
        }
        // Both kinds of outcome were compared, not only errors.
        #expect(compared == 500 && errors < 450, "\(errors) of \(compared) were errors")
    }
}
