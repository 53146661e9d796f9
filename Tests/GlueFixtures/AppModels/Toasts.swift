// An app's toast stack, as app code writes it for upstream ObservableStore: no Codable, no
// storesh attribute. storesh new --from builds a plugin around this file, unchanged.
import Combine
import Foundation
import ObservableStore

/// Toasts over the app, newest last; each goes away by itself after three seconds.
struct ToastStack: ModelProtocol {
    var toasts: [Toast] = []

    struct Toast: Identifiable, Equatable {
        var id: UUID
        var message: String
        var style: Style = .info
    }

    enum Style: Equatable {
        case info
        case warning
        case failure(code: Int)
    }

    enum Action {
        /// Shows a toast, and takes it away after three seconds.
        case push(message: String)
        /// Shows a failure, with its code.
        case fail(String, code: Int)
        /// Takes a toast away.
        case dismiss(id: UUID)
        /// Shows a toast in another style (a type beside the enum, named unqualified).
        case restyle(id: UUID, style: Style)
        /// Takes every toast away.
        case clear
    }

    static func update(state: ToastStack, action: Action, environment: Void) -> Update<ToastStack> {
        var next = state
        switch action {
        case .push(let message):
            let toast = Toast(id: UUID(), message: message)
            next.toasts.append(toast)
            let dismiss = Just(Action.dismiss(id: toast.id)).delay(for: .seconds(3), scheduler: DispatchQueue.main)
            return Update(state: next, fx: dismiss.eraseToAnyPublisher())
        case .fail(let message, let code):
            next.toasts.append(Toast(id: UUID(), message: message, style: .failure(code: code)))
            return Update(state: next)
        case .dismiss(let id):
            next.toasts.removeAll { $0.id == id }
            return Update(state: next)
        case .restyle(let id, let style):
            for index in next.toasts.indices where next.toasts[index].id == id { next.toasts[index].style = style }
            return Update(state: next)
        case .clear:
            next.toasts = []
            return Update(state: next)
        }
    }
}
