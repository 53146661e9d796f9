import Arboreal
import Observation
import Testing

@testable import ArborealTesting

@Observable
@MainActor
final class Todo {
    var title: String
    var done = false
    init(_ title: String) { self.title = title }
}

@Observable
@MainActor
final class Profile {
    var name: String? = nil
}

/// A list model: a counter, a child model, an array of model objects, and a delayed
/// effect on an injected clock.
@Observable
@MainActor
final class ListModel: ArborealModel {
    var count = 0
    var loading = false
    var profile = Profile()
    var todos = [Todo("milk"), Todo("eggs")]
    var byTitle: [String: Todo] = [:]
    var tags: Set<String> = []

    enum Action: Equatable, Sendable {
        case increment
        case toggle(Int)
        case rename(String)
        case tag(String)
        case load
        case loaded(String)
        case loadTwice
        case never
    }

    struct Environment: Sendable {
        var clock: any Clock<Duration>
    }

    func update(action: Action, environment: Environment) -> Fx<Action> {
        switch action {
        case .increment:
            count += 1
        case .toggle(let index):
            todos[index].done.toggle()
        case .rename(let name):
            profile.name = name
        case .tag(let tag):
            tags.insert(tag)
        case .load:
            loading = true
            let clock = environment.clock
            return Fx {
                try? await clock.sleep(for: .milliseconds(500))
                return .loaded("bo")
            }
        case .loaded(let name):
            loading = false
            profile.name = name
        case .loadTwice:
            return Fx([{ .increment }, { .increment }])
        case .never:
            return Fx {
                try? await Task.sleep(for: .seconds(3600))
                return .increment
            }
        }
        return .none
    }
}

@Observable
@MainActor
final class Node {
    weak var parent: Node?
    var child: Node?
}

func message(_ issue: Issue) -> String {
    ([issue.error.map { "\($0)" }].compactMap(\.self) + issue.comments.map(\.rawValue)).joined(separator: "\n")
}

@MainActor
@Suite("Arboreal TestStore: exhaustive by default")
struct ArborealTestStoreTests {
    let clock = TestClock()

    func makeStore(_ exhaustivity: Exhaustivity = .on) -> TestStore<ListModel> {
        TestStore(
            state: ListModel(), environment: .init(clock: clock), exhaustivity: exhaustivity, timeout: .seconds(30))
    }

    @Test func sendChecksPropertiesOfTheModelAndItsChildren() async {
        let store = makeStore()
        await store.send(.increment) { $0.count = 1 }
        await store.send(.toggle(1)) { $0.todos[1].done = true }
        await store.send(.rename("al")) { $0.profile.name = "al" }
        await store.send(.tag("x")) { $0.tags.insert("x") }
        #expect(store.state.count == 1 && store.state.todos[1].done && store.state.profile.name == "al")
        await store.finish()
    }

    @Test func theClosureReadsWhatItWroteAndLeavesTheModelAlone() async {
        let store = makeStore()
        await store.send(.increment) {
            $0.count += 1
            #expect($0.count == 1)
        }
        await withKnownIssue {
            await store.send(.increment) {
                $0.count += 1
                $0.count += 1
            }
        } matching: { issue in
            let text = message(issue)
            return text.contains("is not what was expected") && text.contains("−   count: 3")
                && text.contains("+   count: 2")
        }
        #expect(store.state.count == 2, "the comparison put the model's own values back")
    }

    @Test func aWrongValueFailsWithADiffOfTheModel() async {
        let store = makeStore()
        await withKnownIssue {
            await store.send(.toggle(0)) { $0.todos[0].done = false }
        } matching: { issue in
            let text = message(issue)
            return text.contains("the state sending ListModel.Action.toggle(0) is not what was expected")
                && text.contains("title: \"milk\"") && text.contains("done: false") && text.contains("done: true")
        }
        #expect(store.state.todos[0].done, "the actual value is back after the comparison")
    }

    @Test func aChangeTheAssertionDoesNotStateFails() async {
        let store = makeStore()
        await withKnownIssue {
            await store.send(.increment)
        } matching: { issue in
            let text = message(issue)
            return text.contains("but no change was expected") && text.contains("count: 0") && text.contains("count: 1")
        }
        await withKnownIssue {
            await store.send(.load) { $0.count = 1 }
        } matching: { issue in
            let text = message(issue)
            return text.contains("in ways the assertion does not state") && text.contains("loading: false")
                && text.contains("loading: true")
        }
        await store.advance(clock, by: .milliseconds(500))
        await store.receive(.loaded("bo")) {
            $0.loading = false
            $0.profile.name = "bo"
        }
        await store.finish()
    }

    @Test func receivedActionsWaitForReceiveAndComeInOrder() async {
        let store = makeStore()
        await store.send(.load) { $0.loading = true }
        await store.advance(clock, by: .milliseconds(499))
        #expect(store.state.profile.name == nil)
        await store.advance(clock, by: .milliseconds(1))
        // The effect's action is held until receive applies it.
        #expect(store.state.loading)
        await store.receive(.loaded("bo")) {
            $0.loading = false
            $0.profile.name = "bo"
        }
        await store.send(.loadTwice)
        await store.receive(.increment) { $0.count = 1 }
        await store.receive(.increment) { $0.count = 2 }
        await store.finish()
    }

    @Test func sendingWhileActionsWaitFailsNamingThem() async {
        let store = makeStore()
        await store.send(.loadTwice)
        await withKnownIssue {
            await store.finish()
        } matching: {
            message($0).contains("2 received actions were not checked with receive")
        }
        await withKnownIssue {
            await store.send(.increment) { $0.count = 1 }
        } matching: {
            message($0).contains("must receive 2 actions before sending ListModel.Action.increment")
        }
        store.skipReceivedActions()
        #expect(store.state.count == 3)
        await store.finish()
    }

    @Test func aWrongActionFailsWithItsDiff() async {
        let store = makeStore()
        await store.send(.load) { $0.loading = true }
        await store.advance(clock, by: .milliseconds(500))
        await withKnownIssue {
            await store.receive(.loaded("al")) {
                $0.loading = false
                $0.profile.name = "bo"
            }
        } matching: { issue in
            let text = message(issue)
            return text.contains("received an action other than the one expected") && text.contains("\"al\"")
                && text.contains("\"bo\"")
        }
        await store.finish()
    }

    @Test func finishFailsWhileAnEffectRuns() async {
        let store = makeStore()
        store.timeout = .milliseconds(50)
        await store.send(.never)
        await withKnownIssue {
            await store.finish()
        } matching: {
            message($0).contains("1 effect is still running after")
        }
    }

    @Test func writesThroughADictionaryAreCaughtNotMadeSilently() async {
        let model = ListModel()
        model.byTitle = ["milk": model.todos[0]]
        let store = TestStore(state: model, environment: .init(clock: clock), timeout: .seconds(30))
        await withKnownIssue {
            await store.send(.toggle(0)) { $0.byTitle["milk"]?.done = true }
        } matching: {
            message($0).contains("changed the model itself")
        }
        await store.finish()
    }
}

@MainActor
@Suite("Arboreal TestStore: non-exhaustive")
struct NonExhaustiveArborealTestStoreTests {
    let clock = TestClock()

    @Test func onlyWhatTheTestStatesIsChecked() async {
        let store = TestStore(
            state: ListModel(), environment: .init(clock: clock), exhaustivity: .off, timeout: .seconds(30))
        await store.send(.load)
        await store.send(.increment) { $0.count = 1 }
        await store.advance(clock, by: .milliseconds(500))
        await store.send(.loadTwice)
        // `loaded` is applied unchecked on the way; the second `increment` waits.
        await store.receive(.increment) { $0.count = 2 }
        #expect(store.state.profile.name == "bo")
        await withKnownIssue {
            await store.send(.increment) { $0.count = 99 }
        } matching: {
            message($0).contains("−   count: 99") && message($0).contains("+   count: 4")
        }
        await store.finish()
    }
}

@MainActor
@Suite("ModelSnapshot")
struct ModelSnapshotTests {
    @Test func picturesShowDeclaredNamesAndFollowModelObjects() {
        let model = ListModel()
        model.tags = ["b", "a"]
        let text = ModelSnapshot(of: model).text
        #expect(!text.contains("_$observationRegistrar"))
        #expect(!text.contains("_count"))
        #expect(text.contains("count: 0"))
        #expect(text.contains("title: \"eggs\""))
        #expect(text.contains("name: nil"))
        let a = text.range(of: "\"a\"")?.lowerBound
        let b = text.range(of: "\"b\"")?.lowerBound
        #expect(a != nil && b != nil && a! < b!, "set elements are in order")
    }

    @Test func aModelThatHoldsItsParentIsWrittenOnce() {
        let parent = Node()
        parent.child = Node()
        parent.child?.parent = parent
        #expect(ModelSnapshot(of: parent).text.contains("parent: Node(↩︎ 2 levels up)"))
    }
}
