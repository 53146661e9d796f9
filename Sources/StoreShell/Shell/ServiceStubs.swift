import StoreHost
import StoreValue

/// The services `:stub` replaced, by model, then service name: one job and its own state.
/// A model's stubs hold on every store made for it — a session rebuilt after a lost
/// worker, an imported log's, a bisect probe's — and explore's search sets them up again
/// from the lines `setupLines` writes.
@MainActor
struct ServiceStubs {
    private var byModel: [String: [String: StubScript]] = [:]

    /// The stubs of `model`, by service name.
    func scripts(of model: ModelDescriptor) -> [String: StubScript] {
        byModel[model.qualifiedName] ?? [:]
    }

    /// Stubs `service` of `session`'s model with `script`, or gives the service back its
    /// own implementation (nil). Kept only once the session took it.
    mutating func use(_ script: StubScript?, for service: String, in session: Session) throws(SessionError) {
        try session.useStub(script, for: service)
        byModel[session.model.qualifiedName, default: [:]][service] = script
    }

    /// Sets every stub of `session`'s model on `session`, a new store for it.
    func apply(to session: Session) throws(SessionError) {
        for (service, script) in scripts(of: session.model) { try session.useStub(script, for: service) }
    }

    /// The `:stub` lines that set `model`'s stubs up again, in the order of their services'
    /// names (a script counts its calls, so each store needs a script of its own).
    func setupLines(of model: ModelDescriptor) -> [String] {
        scripts(of: model).sorted { $0.key < $1.key }.map { service, script in
            ":stub \(service) " + StubAnswers.written(script.answers)
        }
    }

    /// `:stubs`: each service of `model`, stubbed or its own implementation, as lines and
    /// as a record.
    func report(of model: ModelDescriptor) -> ShellOutput {
        let mine = scripts(of: model)
        let lines = model.services.map { service in
            mine[service.name]?.summary ?? "\(service.name) (\(service.signature)): its own implementation"
        }
        let records: [Value] = model.services.map { service in
            var fields: [Value.Field] = [
                .init("name", .string(service.name)), .init("signature", .string(service.signature)),
                .init("stubbed", .bool(mine[service.name] != nil)),
            ]
            if let stub = mine[service.name] {
                let answers: [Value] = stub.answers.map { answer in
                    switch answer {
                    case .value(let value): value
                    case .fail(let message): .record(["fail": .string(message)])
                    }
                }
                fields.append(.init("answers", .array(answers)))
                fields.append(.init("calls", .int(Int64(stub.calls))))
            }
            return .record(type: nil, fields: fields)
        }
        return .report(
            kind: "stubs", lines: lines.isEmpty ? ["\(model.qualifiedName) declares no services"] : lines,
            data: .record(["model": .string(model.qualifiedName), "services": .array(records)]))
    }
}
