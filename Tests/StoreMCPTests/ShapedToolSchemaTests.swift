import Foundation
import HostTestSupport
import MCP
import StoreHost
import StoreMCP
import StoreService
import StoreShell
import Testing

/// An action's arguments of enum, optional, struct, list and dictionary types reach an
/// MCP client as JSON Schema, and a call that leaves out a defaulted argument takes it.
@MainActor
@Suite(.serialized) struct ShapedToolSchemaTests {
    @Test func argumentShapesAreJSONSchema() async throws {
        let connection = try await MCPSessionServerTests.connect("Parcels")
        let tools = try await connection.client.listTools().tools
        func properties(_ tool: String) throws -> [String: MCP.Value] {
            let found = try #require(tools.first { $0.name == tool })
            return try #require(found.inputSchema.objectValue?["properties"]?.objectValue)
        }
        let ship = try #require(tools.first { $0.name == "action_ship" })
        #expect(ship.inputSchema.objectValue?["required"] == ["sku"], "via has a default")
        #expect(try properties("action_ship")["via"]?.objectValue?["enum"] == ["ground", "express", "air"])
        #expect(try properties("action_ship")["via"]?.objectValue?["title"] == "Shipping")
        #expect(try properties("action_note")["arg1"]?.objectValue?["type"] == ["string", "null"])
        let address = try #require(try properties("action_setAddress")["arg1"]?.objectValue)
        #expect(address["required"] == ["street", "spot"])
        #expect(address["properties"]?.objectValue?["floor"]?.objectValue?["maximum"] == 127)
        #expect(
            address["properties"]?.objectValue?["spot"]?.objectValue?["properties"]?.objectValue?["lat"]
                == ["type": "number"])
        let items = try #require(try properties("action_pack")["items"]?.objectValue)
        #expect(items["type"] == "array")
        #expect(items["items"]?.objectValue?["properties"]?.objectValue?["count"]?.objectValue?["minimum"] == 0)
        #expect(try properties("action_label")["tags"]?.objectValue?["additionalProperties"] == ["type": "integer"])
        let handover = try #require(try properties("action_handOver")["arg1"]?.objectValue?["oneOf"]?.arrayValue)
        #expect(handover.first == ["type": "string", "enum": ["pickup"]])
        #expect(handover.count == 4)
        let sent = try await MCPSessionServerTests.call(connection.client, "action_ship", ["sku": "box"])
        #expect(sent.isError != true, "\(MCPSessionServerTests.text(sent))")
        #expect(MCPSessionServerTests.text(sent).contains(#"ship sku: "box", via: "ground""#))
        await connection.server.stop()
    }
}
