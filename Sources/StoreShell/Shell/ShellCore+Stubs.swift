package import StoreHost
import StoreValue

extension ShellCore {
    /// `:stub SERVICE RESULT, …` and `:stub SERVICE fail "message"`.
    func stub(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        var scanner = LiteralScanner(bytes: Array(arguments.text.utf8), index: 0)
        scanner.skipSpaces()
        guard let name = scanner.identifier() else {
            return fail("usage: :stub SERVICE RESULT[, RESULT…]", origin: origin)
        }
        guard let service = session.model.services.first(where: { $0.name == name }) else {
            let known = session.model.services.map(\.name)
            return fail(
                "\(session.model.qualifiedName) has no service '\(name)'"
                    + (known.isEmpty ? " (it declares none)" : "; its services: \(known.joined(separator: ", "))"),
                origin: origin)
        }
        var answers: [StubScript.Answer] = []
        do {
            while true {
                scanner.skipSpaces()
                if scanner.atEnd { break }
                let mark = scanner.index
                if scanner.identifier() == "fail" {
                    scanner.skipSpaces()
                    guard scanner.current == UInt8(ascii: "\"") else {
                        throw TextError("fail needs a message in quotes", at: scanner.index)
                    }
                    answers.append(.fail(try scanner.string()))
                } else {
                    scanner.index = mark
                    answers.append(.value(try scanner.literal()))
                }
                scanner.skipSpaces()
                if scanner.current == UInt8(ascii: ",") {
                    let comma = scanner.index
                    scanner.index += 1
                    scanner.skipSpaces()
                    if scanner.atEnd { throw TextError("a result must follow ','", at: comma) }
                } else if !scanner.atEnd {
                    throw TextError("separate results with ','", at: scanner.index)
                }
            }
            if answers.isEmpty {
                throw TextError("usage: :stub SERVICE RESULT[, RESULT…] (at least one result)", at: scanner.index)
            }
        } catch let error as TextError {
            return fail(error.message, origin: origin, in: arguments, at: error.offset)
        } catch {
            return fail("\(error)", origin: origin)
        }
        let script: StubScript
        do {
            script = try StubScript(service: service, answers: answers)
        } catch {
            return fail(error.message, origin: origin)
        }
        do {
            try session.useStub(script, for: name)
        } catch {
            return fail(error.message, origin: origin)
        }
        stubs[session.model.qualifiedName, default: [:]][name] = script
        return true
    }

    func listStubs(origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        let mine = stubs[session.model.qualifiedName] ?? [:]
        let lines = session.model.services.map { service in
            mine[service.name]?.summary ?? "\(service.name) (\(service.signature)): its own implementation"
        }
        let records: [Value] = session.model.services.map { service in
            var fields: [Value.Field] = [
                .init("name", .string(service.name)), .init("signature", .string(service.signature)),
                .init("stubbed", .bool(mine[service.name] != nil)),
            ]
            if let stub = mine[service.name] {
                fields.append(
                    .init(
                        "answers",
                        .array(
                            stub.answers.map { answer in
                                switch answer {
                                case .value(let value): value
                                case .fail(let message): .record(["fail": .string(message)])
                                }
                            })))
                fields.append(.init("calls", .int(Int64(stub.calls))))
            }
            return .record(type: nil, fields: fields)
        }
        output(
            .report(
                kind: "stubs", lines: lines.isEmpty ? ["\(session.model.qualifiedName) declares no services"] : lines,
                data: .record([
                    "model": .string(session.model.qualifiedName), "services": .array(records),
                ])))
        return true
    }

    func unstub(_ args: [String], origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        guard let name = args.first, args.count == 1 else { return fail("usage: :unstub SERVICE", origin: origin) }
        guard stubs[session.model.qualifiedName]?[name] != nil else {
            return fail("'\(name)' is not stubbed; :stubs lists the stubs", origin: origin)
        }
        do {
            try session.useStub(nil, for: name)
        } catch {
            return fail(error.message, origin: origin)
        }
        stubs[session.model.qualifiedName]?[name] = nil
        return true
    }

    /// `:expect PATH OP VALUE`, OP one of `==`, `!=`, `<`, `<=`, `>`, `>=` (`StateCondition`).
    func expect(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        guard current != nil else { return fail(noCurrentModel, origin: origin) }
        let condition: StateCondition
        do {
            condition = try StateCondition.parse(arguments.text)
        } catch {
            return fail(error.message, origin: origin, in: arguments, at: error.offset)
        }
        return expect(condition, origin: origin)
    }

    /// `:expect` with its condition already read (an MCP client's path, operator and
    /// value): fails, saying what the state holds, unless the condition holds in the
    /// current model's state.
    package func expect(_ condition: StateCondition, origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        let state: Value
        do {
            state = try session.currentState()
        } catch {
            return fail(error.message, origin: origin)
        }
        if let problem = condition.explain(condition.check(state, identity: session.model.stateDiff)) {
            return fail("expectation failed: \(problem)", origin: origin)
        }
        return true
    }
}
