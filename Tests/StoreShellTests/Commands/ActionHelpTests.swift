import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import Testing

/// `:help ACTION` explains one of the current model's actions (issue 51: it said "no help
/// for 'ship'"): its doc, its parameters, the cases of its enums, and an example line
/// that the shell takes as written.
@MainActor
@Suite("help for a model's actions")
struct ActionHelpTests {
    @Test func helpForAnActionShowsItsDocParametersCasesAndAnExample() async throws {
        let shell = try ShellHarness(plugins: ["Parcels"])
        #expect(
            await shell.run(":help ship") == [
                #"ship(sku: string, via: Shipping = "ground")"#,
                "  Ships a product.",
                "  sku: string               the product",
                #"  via: Shipping = "ground"  how it travels"#,
                #"  Shipping: "ground" | "express" | "air""#,
                #"  e.g. ship sku: "sku", via: "ground""#,
            ])
        #expect(
            await shell.run(":help handOver") == [
                "handOver(Handover)",
                "  Chooses who hands the parcel over.",
                "  argument 1: Handover",
                #"  Handover: "pickup" | {courier: {days: int}} | {locker: {code: string, floor: int?}}"#,
                #"  e.g. handOver "pickup""#,
            ])
    }

    /// Every example line is one the shell takes: for each action of two models (keyed
    /// children's actions among them), running the example changes nothing it refuses.
    @Test(arguments: ["Parcels", "Todos"])
    func everyExampleLineIsAccepted(plugin: String) async throws {
        let shell = try ShellHarness(plugins: [plugin])
        if plugin == "Todos" { _ = await shell.run(#"add title: "a", priority: 1"#) }
        let actions = try #require(shell.core.current?.model.actions)
        #expect(actions.count >= 7)
        for action in actions {
            let help = await shell.run(":help \(action.name)")
            let example = try #require(help.last?.split(separator: "e.g. ", maxSplits: 1).last.map(String.init))
            let output = await shell.run(example)
            #expect(!output.contains { $0.contains("error:") }, "\(action.name): \(example) → \(output)")
        }
    }

    @Test func aKeyedChildActionsExampleUsesAKeyFromTheState() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        _ = await shell.run(#"add title: "milk", priority: 1"#)
        let key = try #require(shell.core.current?.state["todos"]).compact
        let help = await shell.run(#":help todos[].rename"#)
        #expect(help.first == "todos[].rename(key: string, string)")
        #expect(help.contains("  key: string"))
        #expect(help.last?.hasPrefix("  e.g. todos[") == true)
        #expect(help.last?.contains("\"]") == true, "\(key)")
        #expect(await shell.run(#":help todos["x"].rename"#) == help, "a key as typed names the same action")
    }

    @Test func anUnknownTopicSuggestsTheNearestAction() async throws {
        let shell = try ShellHarness(plugins: ["Parcels"])
        #expect(
            await shell.run(":help shipp") == [
                "t.storesh:1: error: no help for 'shipp'; :help lists the commands, :actions the actions of parcels.parcels; did you mean 'ship'?"
            ])
    }

    /// The list pads names to the longest name, not every summary to the longest usage
    /// (`:explore`'s, which put every summary past column 95).
    @Test func theCommandListPadsToTheLongestName() async throws {
        let shell = try ShellHarness(plugins: ["Parcels"])
        let lines = await shell.run(":help")
        let rows = lines.prefix { !$0.isEmpty }
        let column = try #require(rows.first.map { $0.count - $0.drop { $0 != " " }.drop { $0 == " " }.count })
        #expect(column <= 16, "\(rows.first ?? "")")
        #expect(rows.allSatisfy { $0.count > column && $0[$0.index($0.startIndex, offsetBy: column - 1)] == " " })
        #expect(lines.contains { $0.hasPrefix(":explore ") })
    }

    /// Todos has an action `seed` and the shell a command `:seed`: both are explained.
    @Test func anActionNamedAsACommandIsExplainedAfterIt() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        let help = await shell.run(":help seed")
        #expect(help.first == ":seed [N]", "\(help)")
        #expect(help.contains("The action seed of todos.todos:"))
        #expect(help.contains("seed(count: int)"))
        #expect(await shell.run(":help :seed").contains("seed(count: int)") == false, "':seed' is the command only")
    }

    @Test func helpCompletesTheModelsActions() async throws {
        let shell = try ShellHarness(plugins: ["Parcels"])
        #expect(shell.core.completions(line: ":help sh", cursor: 8).candidates == ["ship"])
    }
}
