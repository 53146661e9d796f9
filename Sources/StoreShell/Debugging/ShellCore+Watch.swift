import Dispatch
import Foundation
import StoreHost
import StoreValue

/// `:watch`, `:unwatch`, `:break`, `:unbreak`, `:timer`.
extension ShellCore {
    func watch(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        let words = arguments.typedWords
        guard !words.isEmpty else {
            let lines = debugging.watches.map {
                "\($0.model): \($0.path) = \($0.last?.brief(items: 20) ?? "(nothing)")"
            }
            output(
                .report(
                    kind: "watches", lines: lines.isEmpty ? ["no watches; :watch EXPR sets one"] : lines,
                    data: .record([
                        "watches": .array(
                            debugging.watches.map {
                                .record([
                                    "model": .string($0.model), "path": .string($0.path), "value": $0.last ?? .null,
                                ])
                            })
                    ])))
            return true
        }
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        // An expression of the property language: a path as before, or anything it computes.
        let path = arguments.text.trimmingCharacters(in: .whitespaces)
        let expression: PropertyNode
        do {
            expression = try PropertyParser.parse(path)
        } catch {
            return fail(
                error.message, origin: origin, in: arguments,
                at: arguments.text.utf8.count - arguments.text.drop { $0 == " " || $0 == "\t" }.utf8.count
                    + error.offset)
        }
        let key = session.model.qualifiedName
        guard !debugging.watches.contains(where: { $0.model == key && $0.path == path }) else {
            return fail("\(path) is watched already", origin: origin)
        }
        let now = try? PropertyEvaluator(state: session.state, identity: session.model.stateDiff).value(of: expression)
        debugging.watches.append(DebuggingState.Watch(model: key, path: path, expression: expression, last: now))
        output(
            .report(
                kind: "watch", lines: ["watching \(path) (now \(now?.brief(items: 20) ?? "nothing there"))"],
                data: .record([
                    "path": .string(path), "value": now ?? .null, "watching": .bool(true),
                ])))
        return true
    }

    func unwatch(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        let argument = arguments.text.trimmingCharacters(in: .whitespaces)
        let words = argument.isEmpty ? [] : [argument]
        guard !debugging.watches.isEmpty else { return fail("there are no watches", origin: origin) }
        if words == ["all"] || (words.isEmpty && debugging.watches.count == 1) {
            debugging.watches = []
            return true
        }
        guard words.count == 1 else {
            return fail(
                "usage: :unwatch EXPR | all (watched: \(debugging.watches.map(\.path).joined(separator: ", ")))",
                origin: origin)
        }
        let key = current?.model.qualifiedName
        guard
            let index = debugging.watches.firstIndex(where: { $0.path == words[0] && $0.model == key })
                ?? debugging.watches.firstIndex(where: { $0.path == words[0] })
        else {
            return fail(
                "\(words[0]) is not watched (watched: \(debugging.watches.map(\.path).joined(separator: ", ")))",
                origin: origin)
        }
        debugging.watches.remove(at: index)
        return true
    }

    func setBreakpoint(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        guard !arguments.text.isEmpty else {
            let lines = debugging.breakpoints.enumerated().map {
                "\($0.offset + 1): \($0.element.model): \($0.element.condition)\($0.element.held ? "  (holds now)" : "")"
            }
            output(
                .report(
                    kind: "breakpoints",
                    lines: lines.isEmpty ? ["no breakpoints; :break PATH OP VALUE sets one"] : lines,
                    data: .record([
                        "breakpoints": .array(
                            debugging.breakpoints.enumerated().map {
                                .record([
                                    "number": .int(Int64($0.offset + 1)), "model": .string($0.element.model),
                                    "condition": .string($0.element.condition.description),
                                    "holds": .bool($0.element.held),
                                ])
                            })
                    ])))
            return true
        }
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        guard let condition = parseCondition(arguments.text, in: arguments, origin: origin) else { return false }
        let holds = condition.holds(in: session.state, identity: session.model.stateDiff)
        debugging.breakpoints.append(
            DebuggingState.Breakpoint(model: session.model.qualifiedName, condition: condition, held: holds))
        let note = holds ? "; it holds now, so it fires when an action makes it true again" : ""
        output(
            .report(
                kind: "break", lines: ["breakpoint \(debugging.breakpoints.count): \(condition)\(note)"],
                data: .record([
                    "number": .int(Int64(debugging.breakpoints.count)), "condition": .string(condition.description),
                    "holds": .bool(holds),
                ])))
        return true
    }

    func removeBreakpoint(_ args: [String], origin: LineOrigin) -> Bool {
        let count = debugging.breakpoints.count
        guard count > 0 else { return fail("there are no breakpoints", origin: origin) }
        if args == ["all"] || (args.isEmpty && count == 1) {
            debugging.breakpoints = []
            return true
        }
        guard args.count == 1, let number = Int(args[0]), (1...count).contains(number) else {
            return fail("usage: :unbreak N | all, with N from 1 to \(count) (:break lists them)", origin: origin)
        }
        debugging.breakpoints.remove(at: number - 1)
        return true
    }

    /// `PATH OP VALUE` from a command's arguments, or nil with the error reported at its
    /// column.
    func parseCondition(
        _ text: String, in arguments: CommandArguments, origin: LineOrigin, offset: Int = 0
    ) -> StateCondition? {
        do throws(TextError) {
            return try StateCondition.parse(text)
        } catch {
            fail(error.message, origin: origin, in: arguments, at: offset + error.offset)
            return nil
        }
    }

    func timer(_ args: [String], origin: LineOrigin) -> Bool {
        guard args.count <= 1 else { return fail("usage: :timer [on|off]", origin: origin) }
        switch args.first {
        case nil: output(.info(kind: "timer", lines: ["timer is \(debugging.timer ? "on" : "off")"]))
        case "on": debugging.timer = true
        case "off": debugging.timer = false
        default: return fail("usage: :timer [on|off]", origin: origin)
        }
        return true
    }

    /// The timer's line after an action: the whole line's time, then each phase.
    static func timerReport(_ phases: SendPhases, total: UInt64) -> ShellOutput {
        var parts: [String] = []
        var record: [(String, Value)] = [("total_ns", .int(Int64(clamping: total)))]
        func add(_ name: String, _ key: String, _ nanoseconds: UInt64?) {
            guard let nanoseconds else { return }
            parts.append("\(name) \(Self.duration(nanoseconds))")
            record.append((key, .int(Int64(clamping: nanoseconds))))
        }
        add("update", "update_ns", phases.update)
        add("state read", "read_ns", phases.read)
        add("worker round trip", "round_trip_ns", phases.roundTrip)
        add("apply and diff", "diff_ns", phases.apply)
        let accounted = (phases.update ?? 0) + (phases.read ?? 0) + (phases.roundTrip ?? 0) + (phases.apply ?? 0)
        add("shell", "shell_ns", total > accounted ? total - accounted : 0)
        return .report(
            kind: "timer", lines: ["time: \(Self.duration(total)) (\(parts.joined(separator: ", ")))"],
            data: .record(type: nil, fields: record.map { Value.Field($0.0, $0.1) }))
    }

    /// A duration for people: ns, µs, ms or s, three significant digits.
    static func duration(_ nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds)
        switch value {
        case ..<1_000: return "\(nanoseconds) ns"
        case ..<1_000_000: return Self.threeDigits(value / 1_000) + " µs"
        case ..<1_000_000_000: return Self.threeDigits(value / 1_000_000) + " ms"
        default: return Self.threeDigits(value / 1_000_000_000) + " s"
        }
    }

    private static func threeDigits(_ value: Double) -> String {
        let decimals = value < 10 ? 2 : (value < 100 ? 1 : 0)
        var text = String(Int((value * pow10(decimals)).rounded()))
        guard decimals > 0 else { return text }
        while text.count <= decimals { text = "0" + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
        return text
    }

    private static func pow10(_ exponent: Int) -> Double {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }
}
