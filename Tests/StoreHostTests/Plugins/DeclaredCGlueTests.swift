import Foundation
import HostTestSupport
import StoreHost
import StoreValue
import Testing

/// storeplugin_model.h: a C model's glue declared as tables (plugins/CKitchen), through
/// the host — snapshot, restore, change detection and the argument checks made from them.
@MainActor
@Suite("A C model with declared glue")
struct DeclaredCGlueTests {
    func kitchen() throws -> Session {
        let host = makeHost()
        try host.load("CKitchen")
        return try Session(model: host.model(named: "ckitchen"), host: host)
    }

    @Test func itsTablesAreItsSchemaAndItsState() throws {
        let session = try kitchen()
        #expect(
            session.model.actions.map(\.name) == ["rename", "setCovers", "place", "orders[].serve", "orders[].cancel"])
        let place = try #require(session.model.action(named: "place"))
        #expect(place.params.map(\.label) == ["dish", "size"])
        #expect(place.params[1].defaultValue == .string("m"))
        // SPM_RANGE(0, 500): a range a C model declares in one macro.
        #expect(session.model.action(named: "setCovers")?.params.first?.declaredShape == .int(range: 0...500))
        #expect(session.state["name"] == .string("kitchen"), "init ran")
        #expect(session.state["orders"] == .array([]))
    }

    @Test func actionsChangeTheStateAndSayWhetherTheyDid() throws {
        let session = try kitchen()
        #expect(try session.send(text: #"place dish: "soup""#).stateChanged)
        guard case .array(let orders) = session.state["orders"] else {
            Issue.record("no orders")
            return
        }
        #expect(orders.first?["size"] == .string("m"), "the default")
        #expect(try session.send(text: #"orders["o1"].serve"#).stateChanged)
        #expect(try !session.send(text: #"rename name: "kitchen""#).stateChanged, "the same bytes: no change")
        #expect(try !session.send(text: "setCovers 0").stateChanged)
    }

    /// A refused action leaves the state as it was, even after it wrote to it.
    @Test func aRefusedActionLeavesTheStateAsItWas() throws {
        let session = try kitchen()
        for number in 1...16 { _ = try session.send(text: #"place dish: "dish \#(number)""#) }
        let full = try session.readState()
        #expect(throws: (any Error).self) { try session.send(text: #"place dish: "one more""#) }
        #expect(throws: (any Error).self) { try session.send(text: #"orders["o99"].serve"#) }
        #expect(try session.readState() == full)
    }

    @Test func aStateItMadeIsRestoredAndOneThatDoesNotFitIsRefusedWhole() throws {
        let session = try kitchen()
        _ = try session.send(text: #"place dish: "soup", size: "l""#)
        let earlier = try session.readState()
        _ = try session.send(text: #"orders["o1"].cancel"#)
        #expect(try session.restore(earlier))
        #expect(try session.readState() == earlier)
        let now = try session.readState()
        let cases: [(Value, String)] = [
            (.int(1), "state: not a record"),
            (.record(["name": .string("x")]), "state: no field 'covers'"),
            (replacing("covers", with: .string("4"), in: earlier), "state.covers: not an int"),
            (
                replacing("name", with: .string(String(repeating: "x", count: 40)), in: earlier),
                "state.name: not text of under 32 bytes"
            ),
            (
                replacing("orders", with: .array(Array(repeating: .int(0), count: 17)), in: earlier),
                "state.orders: not a list of at most 16"
            ),
            (
                replacing("orders", with: .array([.record(["id": .string("o1")])]), in: earlier),
                "state.orders[0]: no field 'dish'"
            ),
        ]
        for (state, message) in cases {
            #expect(throws: SessionError(message: "ckitchen.ckitchen: cannot restore a snapshot: \(message)")) {
                try session.restore(state)
            }
            #expect(try session.readState() == now, "refused whole: \(message)")
        }
    }

    /// The promise the header makes: a model with an int, a string, an enum with a default
    /// and keyed children in at most 30 lines of glue.
    @Test func theExamplesGlueIsShort() throws {
        let source = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("plugins/CKitchen/ckitchen.c"), encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "/* glue */"))
        let end = try #require(lines.firstIndex(of: "/* end of glue */"))
        #expect(end - start - 1 <= 30)
    }

    private func replacing(_ field: String, with value: Value, in state: Value) -> Value {
        guard case .record(let type, var fields) = state, let index = fields.firstIndex(where: { $0.label == field })
        else { return state }
        fields[index].value = value
        return .record(type: type, fields: fields)
    }
}
