package import StoreHost
package import StoreValue

/// `:stub SERVICE RESULT[, RESULT…] | fail "MESSAGE"`: replaces an environment service.
struct StubCommand: ShellCommand {
    let name = "stub"
    let usage = ":stub SERVICE RESULT[, RESULT…] | fail \"MESSAGE\""
    let summary = "replace one of the model's environment services"
    let detail = [
        "Answers come in order, the last one repeating; fail \"…\" makes the service fail. The stub is a libffi closure of the service's C signature, so it works for plugins in any language. A result that does not fit the signature is refused."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        guard let session = core.current else { return core.fail(core.noCurrentModel, origin: origin) }
        var scanner = LiteralScanner(bytes: Array(arguments.text.utf8), index: 0)
        scanner.skipSpaces()
        guard let name = scanner.identifier() else {
            return core.fail("usage: :stub SERVICE RESULT[, RESULT…]", origin: origin)
        }
        guard let service = session.model.services.first(where: { $0.name == name }) else {
            let known = session.model.services.map(\.name)
            return core.fail(
                "\(session.model.qualifiedName) has no service '\(name)'"
                    + (known.isEmpty ? " (it declares none)" : "; its services: \(known.joined(separator: ", "))"),
                origin: origin)
        }
        let answers: [StubScript.Answer]
        do {
            answers = try StubAnswers.read(after: &scanner)
        } catch {
            return core.fail(error.message, origin: origin, in: arguments, at: error.offset)
        }
        do {
            try core.stubs.use(try StubScript(service: service, answers: answers), for: name, in: session)
        } catch let error as StubScript.Refused {
            return core.fail(error.message, origin: origin)
        } catch let error as SessionError {
            return core.fail(error.message, origin: origin)
        } catch {
            return core.fail("\(error)", origin: origin)
        }
        return true
    }
}

/// The answers of a `:stub` line, as the line reads and writes them: results in the action
/// grammar's literals, or `fail "message"`, separated by commas. What `written` gives
/// reads back as the same answers (explore's search sets stubs up from such lines).
package enum StubAnswers {
    /// The answers after the service's name: results in the action grammar's literals, or
    /// `fail "message"`, separated by commas; at least one.
    package static func read(after scanner: inout LiteralScanner) throws(TextError) -> [StubScript.Answer] {
        var answers: [StubScript.Answer] = []
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
        return answers
    }

    /// `answers` as a `:stub` line takes them after the service's name.
    package static func written(_ answers: [StubScript.Answer]) -> String {
        answers.map { answer in
            switch answer {
            case .value(let value): value.compact
            case .fail(let message): "fail " + Value.string(message).compact
            }
        }.joined(separator: ", ")
    }
}

/// `:stubs`: the current model's services and their stubs.
struct StubsCommand: ShellCommand {
    let name = "stubs"
    let readsOnly = true
    let usage = ":stubs"
    let summary = "the current model's services and their stubs"
    let detail: [String] = []

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        guard let session = core.current else { return core.fail(core.noCurrentModel, origin: origin) }
        core.output(core.stubs.report(of: session.model))
        return true
    }
}

/// `:unstub SERVICE`: gives a service back its own implementation.
struct UnstubCommand: ShellCommand {
    let name = "unstub"
    let usage = ":unstub SERVICE"
    let summary = "give a service back its own implementation"
    let detail: [String] = []

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        guard let session = core.current else { return core.fail(core.noCurrentModel, origin: origin) }
        guard let name = arguments.words.first, arguments.words.count == 1 else {
            return core.fail("usage: :unstub SERVICE", origin: origin)
        }
        guard core.stubs.scripts(of: session.model)[name] != nil else {
            return core.fail("'\(name)' is not stubbed; :stubs lists the stubs", origin: origin)
        }
        do {
            try core.stubs.use(nil, for: name, in: session)
        } catch {
            return core.fail(error.message, origin: origin)
        }
        return true
    }
}
