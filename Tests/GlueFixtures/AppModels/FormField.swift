// A generic form field with a validator closure, in a file of its own, as apps share it.
import Foundation

/// One field of a form: its text, and the rule it must pass.
struct FormField<Value: Equatable>: Equatable {
    var value: Value
    var validate: (Value) -> Bool

    var isValid: Bool { validate(value) }

    static func == (lhs: FormField, rhs: FormField) -> Bool { lhs.value == rhs.value }
}
