// An app's search model file: queries debounced by a delay on the main queue, suggestions from two
// sources merged, a client that is a plain (non-Sendable) class captured by a Future.
import Combine
import Foundation
import ObservableStore
import SwiftUI
import os

/// A client as apps write one: a class with mutable state, not Sendable.
final class SuggestionClient {
    var recent: [String] = ["swift", "swiftui"]
    var calls = 0

    func titles(matching query: String) async -> [String] {
        calls += 1
        return ["\(query) notes", "\(query) ideas"]
    }
}

struct SearchEnvironment {
    var client = SuggestionClient()
    var logger = Logger()
    var debounce: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(20)
}

enum SearchAction: Equatable {
    case setQuery(String)
    case search(String)
    case suggested([String])
    case cancel
}

struct SearchModel: ModelProtocol {
    var query = ""
    var suggestions: [String] = []
    var isSearching = false

    static func update(
        state: SearchModel,
        action: SearchAction,
        environment: SearchEnvironment
    ) -> Update<SearchModel> {
        switch action {
        case .setQuery(let text):
            var model = state
            model.query = text
            let debounced = Just(SearchAction.search(text))
                .delay(for: environment.debounce, scheduler: DispatchQueue.main)
                .eraseToAnyPublisher()
            return Update(state: model, fx: debounced)
        case .search(let text):
            // A query typed over before its delay ran out is not searched.
            guard !text.isEmpty, text == state.query else { return Update(state: state) }
            var model = state
            model.isSearching = true
            environment.logger.notice("searching \(text, privacy: .auto) (\(text.count, align: .right(columns: 3)))")
            let client = environment.client
            let titles = Future.detached { await client.titles(matching: text) }
            let recent = Just(client.recent.filter { $0.hasPrefix(text) })
            let fx = titles.merge(with: recent.delay(for: .milliseconds(1), scheduler: DispatchQueue.main))
                .collect(2)
                .map { SearchAction.suggested($0.flatMap { $0 }.sorted()) }
                .eraseToAnyPublisher()
            return Update(state: model, fx: fx)
        case .suggested(let titles):
            var model = state
            model.suggestions = titles
            model.isSearching = false
            return Update(state: model)
        case .cancel:
            return Update(state: SearchModel(), fx: Empty().eraseToAnyPublisher(), animation: .interactiveSpring())
        }
    }
}
