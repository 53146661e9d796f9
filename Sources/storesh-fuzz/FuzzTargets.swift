// The parsers storesh reads user input with, as libFuzzer targets. Each target checks
// that no input crashes it and, where the format can be written back, that writing and
// reading again gives the same thing (the oracle that catches silent corruption).
import Foundation
import StoreHost
import StoreShell
import StoreValue

/// The fuzz targets, by name (`scripts/fuzz` runs each with `STORESH_FUZZ_TARGET=name`).
enum FuzzTarget: String, CaseIterable {
    case action, literal, transcript, journal, `import`, worker, ctree, condition, relay, shape, http, values, mcp,
        schedule, merge, expect, stub

    func run(_ data: Data) {
        switch self {
        case .action: Self.actionText(data)
        case .literal: Self.literalAndPath(data)
        case .transcript: Self.transcript(data)
        case .journal: Self.journal(data)
        case .import: Self.exportedLog(data)
        case .worker: Self.workerStream(data)
        case .ctree: Self.valueTree(data)
        case .condition: Self.condition(data)
        case .relay: Self.relayStream(data)
        case .shape: Self.shapeText(data)
        case .http: Self.httpRequests(data)
        case .values: Self.typedValues(data)
        case .mcp: Self.mcpLine(data)
        case .schedule: Self.scheduleWords(data)
        case .merge: Self.shardReports(data)
        case .expect: Self.typedExpectation(data)
        case .stub: Self.stubAnswers(data)
        }
    }

    /// An argument shape's text form (`sp_param.shape`), then a literal checked against
    /// it: a shape that reads is written back as text that reads as the same shape, and a
    /// value the shape takes is taken again unchanged (the check's form is its own fixed
    /// point); nothing traps.
    static func shapeText(_ data: Data) {
        guard let text = String(validating: data.prefix(4096), as: UTF8.self) else { return }
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let shape = try? TypeShape.parse(String(parts[0])) else { return }
        guard let again = try? TypeShape.parse(shape.text), again == shape else {
            violated("'\(parts[0])' written back as '\(shape.text)' does not read back as itself")
        }
        _ = shape.summary
        _ = shape.body
        _ = shape.namedParts
        _ = try? shape.conform(shape.example)
        guard parts.count == 2, let value = try? Literal.parse(Array(parts[1].utf8)) else { return }
        guard let taken = try? shape.conform(value) else { return }
        guard let retaken = try? shape.conform(taken), retaken == taken else {
            violated("\(shape.text) took \(value.compact) as \(taken.compact), but not that again")
        }
    }

    /// The property language (`:expect`, `:check`, `:watch`, explore's invariants and
    /// postconditions), in both contexts: an expression written back reads back as itself
    /// and gives the same outcome, and checking it against a state (after a step) never
    /// traps, whatever it computes (overflow, division by zero, deep nesting).
    static func condition(_ data: Data) {
        guard let text = String(validating: data.prefix(4096), as: UTF8.self) else { return }
        let state: Value = .record(
            type: nil,
            fields: [
                .init("count", .int(3)), .init("name", .string("a<b")), .init("big", .int(.max)),
                .init("small", .int(.min)), .init("rate", .double(0.5)), .init("flag", .bool(true)),
                .init(
                    "items",
                    .array([
                        .record(type: nil, fields: [.init("id", .string("x")), .init("v", .double(.nan))]),
                        .record(type: nil, fields: [.init("id", .string("y")), .init("v", .int(-2))]),
                    ])),
                .init("live", .record(type: nil, fields: [.init("1", .string("one")), .init("k", .array([]))])),
            ])
        let step = PropertyStep(
            action: "put", labels: ["key", nil], arguments: [.int(1), .string("z")], old: state, accepted: true)
        for context in [PropertyParser.Context.state, .action] {
            guard let condition = try? StateCondition.parse(text, context: context) else { continue }
            guard let again = try? StateCondition.parse(condition.description, context: context), again == condition
            else {
                violated("'\(text)' written back as '\(condition.description)' does not read back as itself")
            }
            let identity = StateDiff(identityFields: ["id"])
            let taken = context == .action ? step : nil
            let outcome = condition.check(state, identity: identity, step: taken)
            guard again.check(state, identity: identity, step: taken) == outcome else {
                violated("'\(text)' and '\(condition.description)' check differently")
            }
            _ = condition.explain(outcome)
            _ = condition.subjectValue(in: state, identity: identity)
        }
    }

    /// Fails the run with what went wrong (libFuzzer saves the input that did it).
    static func violated(_ what: String) -> Never {
        fatalError("oracle violated: \(what)")
    }

    /// Bytes as a worker's messages to storesh: frames, registrations, values; every value
    /// read must write back to the same bytes.
    static func workerStream(_ data: Data) {
        if case .failure(let problem) = WorkerWireCheck.check(Array(data)) { violated(problem.description) }
    }

    /// Action text parsed and bound to a model with every kind of parameter; a bound
    /// action rendered back as text must parse and bind to the same action and values.
    static func actionText(_ data: Data) {
        guard let text = String(validating: data.prefix(4096), as: UTF8.self) else { return }
        guard let call = try? ActionCall.parse(text) else { return }
        let bound: (ActionDescriptor, [Value])
        do throws(TextError) {
            bound = try ActionBinding.bind(call, to: FuzzModel.model)
        } catch {
            // An argument that does not fit points inside the text (at the wrong value).
            guard (0...text.utf8.count).contains(error.offset) else {
                violated("'\(text)': the error '\(error.message)' points at byte \(error.offset), outside the text")
            }
            return
        }
        let rendered = bound.0.text(with: bound.1)
        guard let again = try? ActionBinding.bind(ActionCall.parse(rendered), to: FuzzModel.model) else {
            violated("'\(text)' rendered as '\(rendered)', which does not parse and bind")
        }
        guard again.0.index == bound.0.index, again.1 == bound.1 else {
            violated("'\(text)' rendered as '\(rendered)' reads back as \(again.1), not \(bound.1)")
        }
    }

    /// A literal written back compactly reads back the same; a state path written back
    /// reads back the same segments; looking a path up never traps.
    static func literalAndPath(_ data: Data) {
        let bytes = Array(data.prefix(4096))
        if let value = try? Literal.parse(bytes) {
            guard let reread = try? Literal.parse(value.compact.utf8), reread == value else {
                violated("literal \(value.compact) does not read back as itself")
            }
            partsAreFoundWhereTheyAre(value, in: bytes)
        }
        guard let text = String(validating: bytes, as: UTF8.self), let segments = try? PathSyntax.parse(text) else {
            return
        }
        let path = PathSyntax.text(of: segments)
        guard (try? PathSyntax.parse(path)) == segments else {
            violated("path '\(text)' written back as '\(path)' reads back differently")
        }
        _ = try? PathSyntax.lookup(text, in: FuzzModel.sampleState)
    }

    /// The place of a part of a literal, found from the steps to it (what points an error
    /// at the wrong value), holds that part: the last element or field, level by level.
    private static func partsAreFoundWhereTheyAre(_ value: Value, in bytes: [UInt8]) {
        var steps: [ShapePath.Step] = []
        var part = value
        while steps.count < 8 {
            switch part {
            case .array(let items) where !items.isEmpty:
                steps.append(.index(items.count - 1))
                part = items[items.count - 1]
            case .record(_, let fields) where !fields.isEmpty:
                steps.append(.field(fields[fields.count - 1].label ?? ""))
                part = fields[fields.count - 1].value
            default:
                return
            }
            guard let offset = LiteralScanner.offset(of: steps, inLiteralAt: 0, of: bytes) else {
                violated("\(value.compact): no place found for \(steps)")
            }
            var scanner = LiteralScanner(bytes: bytes, index: offset)
            guard (try? scanner.literal()) == part else {
                violated("\(value.compact): the place of \(steps), byte \(offset), does not hold \(part.compact)")
            }
        }
    }

    /// The words of `:latency` and `:ties`: a queue that reads is written back (each
    /// latency's word; each pick counted from 1) as text that reads as the same queue; a
    /// mistake is inside the text; nothing traps.
    static func scheduleWords(_ data: Data) {
        guard let text = String(validating: data.prefix(4096), as: UTF8.self) else { return }
        let words = CommandWords.asTyped(text)
        do throws(TextError) {
            let latencies = try ScheduleWords.latencies(words)
            let written = latencies.map(\.word).joined(separator: ", ")
            guard (try? ScheduleWords.latencies(CommandWords.asTyped(written))) == latencies else {
                violated("latencies '\(text)' written back as '\(written)' do not read back as themselves")
            }
        } catch {
            guard error.offset >= 0, error.offset <= text.utf8.count else { violated("a mistake outside the text") }
        }
        do throws(TextError) {
            let picks = try ScheduleWords.ties(words)
            let written = picks.map { String($0 + 1) }.joined(separator: ", ")
            guard (try? ScheduleWords.ties(CommandWords.asTyped(written))) == picks else {
                violated("ties '\(text)' written back as '\(written)' do not read back as themselves")
            }
        } catch {
            guard error.offset >= 0, error.offset <= text.utf8.count else { violated("a mistake outside the text") }
        }
    }

    /// A transcript written back is stable: reading and writing it again changes nothing.
    static func transcript(_ data: Data) {
        guard let text = String(validating: data.prefix(16_384), as: UTF8.self) else { return }
        let written = Transcript.parse(text).text
        let parsed = Transcript.parse(written)
        guard parsed.text == written else { violated("transcript text is not stable when read and written again") }
        _ = parsed.blocks
    }

    /// The journal reader never traps; every record it returns writes back as itself; and
    /// a journal it accepts can be resumed: one more record appended reads back whole.
    static func journal(_ data: Data) {
        let path = FuzzModel.scratchFile
        guard FileManager.default.createFile(atPath: path, contents: data.prefix(16_384)) else {
            violated("cannot write \(path)")
        }
        guard let contents = try? Journal.read(path) else { return }
        for (record, _) in contents.records where JournalRecord(line: Substring(record.line)) != record {
            violated("journal record '\(record.line)' does not read back as itself")
        }
        guard contents.validLength <= data.count else { violated("validLength \(contents.validLength) past the end") }
        do {
            let journal = try Journal(path: path, mode: .resume(validLength: contents.validLength))
            try journal.append(.reset)
        } catch {
            violated("a journal that reads cannot be resumed: \(error)")
        }
        guard let resumed = try? Journal.read(path), resumed.warning == nil,
            resumed.records.count == contents.records.count + 1
        else {
            violated("after resuming and appending, the journal does not read back whole")
        }
    }

    /// The `:import` reader never traps, and binding its entries never traps.
    static func exportedLog(_ data: Data) {
        guard let log = try? ExportedLog.parse(data.prefix(16_384), name: "fuzz") else { return }
        for entry in log.entries.prefix(64) {
            _ = try? ActionBinding.bind(ActionCall.parse(entry.text), to: FuzzModel.model)
        }
    }
}

/// A model with every kind of parameter, built without a plugin (its entry points are
/// never called: the targets only parse and bind).
enum FuzzModel {
    static let model: ModelDescriptor = {
        func action(_ name: String, _ params: [(String?, ParamType)]) -> (name: String, params: [ParamDescriptor]) {
            (name, params.map { ParamDescriptor(label: $0.0, type: $0.1, doc: nil) })
        }
        return ModelDescriptor.schemaOnly(
            plugin: "fuzz", name: "fuzz",
            actions: [
                action("increment", []),
                action("setCount", [(nil, .int)]),
                action("setUser", [("name", .string), ("age", .int)]),
                action("todos[].toggle", [(nil, .string)]),
                action("todos[].rename", [(nil, .string), (nil, .string)]),
                action("setTags", [(nil, .value)]),
                action("child.setRatio", [("ratio", .double)]),
                action("flag", [(nil, .bool)]),
                (name: "ship", params: shapedParams),
            ])
    }()

    /// Parameters with shapes and defaults: an enum of raw values, a struct with a nested
    /// struct and optional fields, an enum with payloads, a dictionary, a range.
    static let shapedParams: [ParamDescriptor] = {
        let via = TypeShape.choice(
            name: "Via", cases: [.init("ground", rawValue: .string("ground")), .init("air", rawValue: .string("air"))])
        let address = TypeShape.record(
            name: "Address",
            fields: [
                .init("street", .string), .init("zip", .optional(.string)),
                .init("spot", .record(name: "Spot", fields: [.init("lat", .double), .init("lon", .double)])),
            ])
        let handover = TypeShape.choice(
            name: "Handover",
            cases: [
                .init("pickup"), .init("courier", payload: [.init("days", .anyInt), .init(nil, .optional(.string))]),
            ])
        return [
            ParamDescriptor(label: "via", type: .string, doc: nil, shape: via, defaultValue: .string("ground")),
            ParamDescriptor(label: "to", type: .value, doc: nil, shape: .optional(address), defaultValue: .null),
            ParamDescriptor(label: "by", type: .value, doc: nil, shape: handover),
            ParamDescriptor(
                label: "tags", type: .value, doc: nil, shape: .dictionary(key: .string, value: .list(.double))),
            ParamDescriptor(label: "floor", type: .int, doc: nil, shape: .int(range: -3...40), defaultValue: .int(0)),
            ParamDescriptor(label: "id", type: .value, doc: nil, shape: .optional(.uuid), defaultValue: .null),
        ]
    }()

    static let sampleState = Value.record([
        "count": .int(3),
        "todos": .array([.record(["id": .string("t1"), "title": .string("milk")])]),
        "weird key": .string("x"),
    ])

    static let scratchFile = FileManager.default.temporaryDirectory.appendingPathComponent(
        "storesh-fuzz-\(getpid()).journal"
    ).path
}
