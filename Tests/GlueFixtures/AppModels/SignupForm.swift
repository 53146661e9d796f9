// A sign-up form: fields with validator closures (shown by their type), a private count of
// attempts (shown by reflection), and a status enum with a payload.
import Foundation
import ObservableStore

/// A sign-up form: an email and a nickname, sent when both are valid.
struct SignupForm: ModelProtocol {
    var email = FormField(value: "", validate: { $0.contains("@") })
    var nickname = FormField(value: "", validate: { !$0.isEmpty })
    var status = Status.editing
    private var attempts = 0

    enum Status: Equatable {
        case editing
        case sent(to: String)
        case refused(reason: String)
    }

    enum Action {
        /// Types into the email field.
        case setEmail(String)
        /// Types into the nickname field.
        case setNickname(String)
        /// Sends the form, if it is valid.
        case submit
    }

    static func update(state: SignupForm, action: Action, environment: Void) -> Update<SignupForm> {
        var next = state
        switch action {
        case .setEmail(let text):
            next.email.value = text
        case .setNickname(let text):
            next.nickname.value = text
        case .submit:
            next.attempts += 1
            next.status =
                next.email.isValid && next.nickname.isValid
                ? .sent(to: next.email.value) : .refused(reason: "attempt \(next.attempts): check the fields")
        }
        return Update(state: next)
    }
}
