// Built in Swift 5 language mode, as upstream ObservableStore and many apps are: code
// that is not `@MainActor` makes a store, reads `store.state`, sends and makes bindings,
// and a Future captures a non-Sendable client. Upstream accepts all of it in this mode;
// so must we, with no isolation diagnostics (a warning here fails the build's lint).
import Combine
import Foundation
import ObservableStore
import SwiftUI
import TestSupport
import Testing
import os

final class NoteClient {
    var saved: [String] = []
    func save(_ text: String) async -> Int {
        saved.append(text)
        return saved.count
    }
}

struct NoteEnvironment {
    var client = NoteClient()
    var logger = Logger(subsystem: "com.example.notes", category: "Editor")
}

struct NoteModel: ModelProtocol {
    var text = ""
    var savedCount = 0

    enum Action: Equatable {
        case setText(String)
        case save
        case saved(Int)
    }

    static func update(state: NoteModel, action: Action, environment: NoteEnvironment) -> Update<NoteModel> {
        var model = state
        switch action {
        case .setText(let text):
            model.text = text
            return Update(state: model)
        case .save:
            environment.logger.info("saving \(state.text.count) characters")
            let text = state.text
            let fx = Future { await environment.client.save(text) }.map(Action.saved).eraseToAnyPublisher()
            return Update(state: model, fx: fx)
        case .saved(let count):
            model.savedCount = count
            return Update(state: model).animation(.easeOut(duration: 0.2))
        }
    }
}

/// A controller as apps write one: a plain class, not isolated to the main actor.
final class NoteController {
    let store = Store(state: NoteModel(), environment: NoteEnvironment(), loggingEnabled: false)
    /// Upstream's form with an `os` logger and `loggingEnabled` left at its default.
    let quiet = Store(
        state: NoteModel(), environment: NoteEnvironment(),
        logger: Logger(subsystem: "com.example.notes", category: "Notes"))

    var text: Binding<String> {
        store.binding(get: \.text, tag: NoteModel.Action.setText)
    }

    var savedCount: Int { store.state.savedCount }

    func save() { store.send(.save) }
}

@Suite("Swift 5 mode: upstream's call sites")
struct UpstreamSwift5Tests {
    @MainActor
    @Test func aControllerThatIsNotMainActorUsesTheStore() async {
        let controller = NoteController()
        controller.text.wrappedValue = "Milk"
        #expect(controller.store.state.text == "Milk")
        controller.save()
        await eventually { controller.savedCount > 0 }
        #expect(controller.savedCount == 1)
        #expect(controller.store.environment.client.saved == ["Milk"])
    }
}
