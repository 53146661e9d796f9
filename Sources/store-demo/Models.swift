import Arboreal
import ObservableStore
import Observation

/// A search box: each keystroke starts a lookup and cancels the one in flight, as a
/// debounced search does.
struct SearchModel: ModelProtocol {
    var query = ""
    var results: [String] = []

    enum Action: Sendable, CustomStringConvertible {
        case type(String)
        case found([String])
        case clear

        var description: String {
            switch self {
            case .type(let text): "type(\"\(text)\")"
            case .found(let items): "found(\(items))"
            case .clear: "clear"
            }
        }
    }

    struct Environment: Sendable {
        let catalogue = ["swift", "swiftui", "swift-log", "storesh", "sqlite"]

        /// Pretends to be a slow service: answers after a short wait.
        func lookup(_ prefix: String) async -> [String] {
            try? await Task.sleep(for: .milliseconds(30))
            return catalogue.filter { $0.hasPrefix(prefix) }
        }
    }

    static func update(state: SearchModel, action: Action, environment: Environment) -> Update<SearchModel> {
        var next = state
        switch action {
        case .type(let text):
            next.query = text
            let lookup = Future { SearchModel.Action.found(await environment.lookup(text)) }
            return Update(state: next, fx: lookup.eraseToAnyPublisher())
                .cancellable(id: "search", cancelInFlight: true)
        case .found(let items):
            next.results = items
            return Update(state: next)
        case .clear:
            return Update(state: SearchModel()).cancelFx(id: "search")
        }
    }
}

/// The Arboreal flavour: a reference model changed in place.
@Observable
@MainActor
final class ArborealCounter: ArborealModel {
    var count = 0

    enum Action: Sendable {
        case increment
        case incrementLater
    }

    func update(action: Action, environment: Void) -> Arboreal.Fx<Action> {
        switch action {
        case .increment:
            count += 1
            return .none
        case .incrementLater:
            return Arboreal.Fx {
                try? await Task.sleep(for: .milliseconds(20))
                return .increment
            }
        }
    }
}
