import StoreHost
import StoreValue

// The plugin and its stores: loading, making a store, stubbing its services, and passing
// what happens in it (effect events, effects' actions) on to the shell.
extension WorkerServer {
    func load(_ path: String, into reply: inout WireWriter) -> String? {
        guard plugin == nil else { return "this worker has a plugin loaded already" }
        let host = PluginHost(clock: clock.isVirtual ? clock : RealClock(), searchPath: [])
        host.checksChanges = checksChanges
        host.log = { [weak self] level, message in
            var body = WireWriter()
            body.i64(Int64(level.rawValue))
            body.string(message)
            self?.send(.log, body)
        }
        self.host = host
        do {
            let loaded = try host.load(path)
            plugin = loaded
            reply.registration(of: loaded)
            return nil
        } catch {
            return error.description
        }
    }

    /// Makes a store of a model; answers its initial state, whole.
    func create(_ reader: inout WireReader, into reply: inout WireWriter) throws(WireError) -> String? {
        let id = try reader.u32()
        let index = Int(try reader.u32())
        guard let plugin, plugin.models.indices.contains(index), let host else {
            return "no model \(index) in this worker"
        }
        let store = InProcessConnection(model: plugin.models[index], host: host)
        store.onEvent = { [weak self] event in self?.forward(event, from: id) }
        do {
            reply.state(try store.create())
        } catch {
            return error.message
        }
        stores[id] = store
        return nil
    }

    /// `check`: u32 store, u32 index; answers bool holds, optional string message.
    func check(_ reader: inout WireReader, into reply: inout WireWriter) throws(WireError) -> String? {
        let store = try store(try reader.u32())
        let index = Int(try reader.u32())
        do {
            let verdict = try store.check(index)
            reply.bool(verdict.holds)
            reply.optionalString(verdict.message)
        } catch {
            return error.message
        }
        return nil
    }

    func stub(_ reader: inout WireReader) throws(WireError) -> String? {
        let id = try reader.u32()
        let store = try store(id)
        let index = Int(try reader.u32())
        guard store.model.services.indices.contains(index) else { return "no service \(index)" }
        let service = store.model.services[index]
        var script: StubScript?
        if try reader.bool() {
            var answers: [StubScript.Answer] = []
            for _ in 0..<(try reader.u32()) {
                answers.append(try reader.u8() == 0 ? .value(try reader.value()) : .fail(try reader.string()))
            }
            do {
                script = try StubScript(service: service, answers: answers)
            } catch {
                return error.message
            }
        }
        do {
            try store.stub(service: index, script)
        } catch {
            return error.message
        }
        store.stub(named: service.name)?.onCall = { [weak self] in
            var body = WireWriter()
            body.u32(id)
            body.u32(UInt32(index))
            self?.send(.stubCalled, body)
        }
        return nil
    }

    /// Passes an event of a store on to the shell.
    func forward(_ event: ConnectionEvent, from store: UInt32) {
        var body = WireWriter()
        switch event {
        case .effect(let kind, let effect, let label, let action, let message):
            body.effectEvent(store: store, kind: kind, effect: effect, label: label, action: action, message: message)
            send(.effect, body)
        case .applied(let action, let state, let changed):
            body.appliedAction(store: store, action: action, changed: changed, state: state)
            send(.applied, body)
        }
    }
}
