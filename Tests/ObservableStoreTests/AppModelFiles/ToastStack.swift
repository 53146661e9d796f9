// An app's model file, as it is written for iOS against upstream ObservableStore: it
// begins with the app's imports and is compiled here unchanged (no Linux edits).
import Combine
import Foundation
import ObservableStore
import SwiftUI
import os

struct Toast: Equatable, Identifiable {
    var id = UUID()
    var message: String
    var image: String?
}

enum ToastStackAction: Equatable {
    case push(message: String, image: String? = nil)
    case dismiss(UUID)
    case expire(UUID)
    case clear
}

struct ToastStackEnvironment {
    var logger = Logger(subsystem: "com.example.notes", category: "ToastStack")
    var lifetime: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(30)
}

struct ToastStackModel: ModelProtocol {
    static let appear = Animation.spring(response: 0.4, dampingFraction: 0.7, blendDuration: 0.1)
    static let leave = Animation.timingCurve(0.2, 0.8, 0.2, 1, duration: 0.25)
    static let maximum = 3

    var toasts: [Toast] = []
    var offset: CGFloat = 0

    static func update(
        state: ToastStackModel,
        action: ToastStackAction,
        environment: ToastStackEnvironment
    ) -> Update<ToastStackModel> {
        switch action {
        case .push(let message, let image):
            environment.logger.debug(
                "push \(message, privacy: .public) with \(image ?? "no image", privacy: .private(mask: .hash))")
            var model = state
            let toast = Toast(message: message, image: image)
            model.toasts.append(toast)
            if model.toasts.count > maximum {
                model.toasts.removeFirst(model.toasts.count - maximum)
                environment.logger.warning("dropped toasts beyond \(maximum)")
            }
            model.offset = CGFloat(model.toasts.count) * 8
            let expire = Just(ToastStackAction.expire(toast.id))
                .delay(for: environment.lifetime, scheduler: DispatchQueue.main)
                .eraseToAnyPublisher()
            return Update(state: model, fx: expire).animation(appear)
        case .dismiss(let id), .expire(let id):
            var model = state
            model.toasts.removeAll { $0.id == id }
            model.offset = CGFloat(model.toasts.count) * 8
            return Update(state: model).animation(leave)
        case .clear:
            environment.logger.info("cleared \(state.toasts.count, format: .decimal(minDigits: 2)) toasts")
            return Update(state: ToastStackModel(), animation: .easeOut(duration: 0.2).delay(0.05))
        }
    }
}

/// A helper written generically over the update type, as apps write them.
extension UpdateProtocol where Action == ToastStackAction {
    /// The same update, also clearing the stack once `delay` has passed.
    func clearing(after delay: DispatchQueue.SchedulerTimeType.Stride) -> Self {
        mergeFx(Just(.clear).delay(for: delay, scheduler: DispatchQueue.main).eraseToAnyPublisher())
    }
}
