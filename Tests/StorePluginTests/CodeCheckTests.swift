import ObservableStore
import Testing

@testable import StorePlugin

/// A tab, as the smallest model a check can be written against.
private struct Tab: ModelProtocol, Codable {
    var count = 0
    enum Action: Sendable { case add }
    static func update(state: Tab, action: Action, environment: Void) -> Update<Tab> {
        Update(state: Tab(count: state.count + 1))
    }
}

/// `PluginModel.invariant` and `.postcondition`: closures over the model's own types,
/// refused at registration (naming the check and both types) when they take others.
@MainActor
@Suite("Checks in Swift: declared against the model's types")
struct CodeCheckTests {
    let tab = PluginModel.observable(
        "tab", doc: "", initial: { Tab() }, actions: [ActionSchema<Tab.Action>("add", "", [], make: { _ in .add })],
        environment: { _ in })

    @Test func closuresOverTheModelsTypesHoldOrBreak() {
        let model = tab.invariant("small") { (tab: Tab) in tab.count < 2 }
            .postcondition("adds one") { (old: Tab, _: Tab.Action, new: Tab) in new.count == old.count + 1 }
        #expect(model.checksProblem == nil)
        #expect(model.checks.map(\.name) == ["small", "adds one"])
        #expect(model.checks[0].holds(Tab(count: 1), nil))
        #expect(!model.checks[0].holds(Tab(count: 2), nil))
        let step = CodeCheck.Step(old: Tab(count: 1), action: Tab.Action.add)
        #expect(model.checks[1].holds(Tab(count: 2), step))
        #expect(!model.checks[1].holds(Tab(count: 3), step))
        #expect(model.checks[1].holds(Tab(count: 3), nil), "no last action: a postcondition holds")
    }

    @Test func aClosureOverAnotherTypeIsRefusedNamingBoth() {
        let wrongState = tab.invariant("small") { (count: Int) in count < 2 }
        #expect(wrongState.checksProblem == #"model 'tab': invariant "small" takes Int, but the model's state is Tab"#)
        let wrongAction = tab.postcondition("adds one") { (_: Tab, _: String, _: Tab) in true }
        #expect(
            wrongAction.checksProblem
                == #"model 'tab': postcondition "adds one" takes (Tab, String, Tab), but the model's state is Tab and its action Action"#
        )
    }

    @Test func namesAreGivenAndUnique() {
        let twice = tab.invariant("small") { (_: Tab) in true }.invariant("small") { (_: Tab) in true }
        #expect(twice.checksProblem == #"model 'tab': two checks are named "small""#)
        let unnamed = tab.invariant("") { (_: Tab) in true }
        #expect(unnamed.checksProblem == "model 'tab': a check has an empty name")
    }
}
