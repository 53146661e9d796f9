import CFFI
import CStorePlugin
package import StoreValue

#if canImport(Glibc)
    import Glibc
#endif

/// What a stubbed service answers (`:stub`): the queued results in order, repeating the
/// last, and how often it was called. The shell keeps one per stubbed service; the
/// libffi closure that answers the plugin (in this process or in a worker) consumes it.
@MainActor
package final class StubScript {
    package enum Answer: Equatable, Sendable {
        case value(Value)
        case fail(String)
    }

    package let service: ServiceDescriptor
    package private(set) var answers: [Answer]
    package private(set) var calls = 0
    /// The result letter of the service's signature ('v': returns nothing).
    let result: Character
    let params: [ParamType]

    package struct Refused: Error {
        package let message: String
    }

    package init(service: ServiceDescriptor, answers: [Answer]) throws(Refused) {
        guard let (params, result) = Registration.parseServiceSignature(service.signature) else {
            throw Refused(message: "service '\(service.name)' has an unreadable signature \"\(service.signature)\"")
        }
        for answer in answers {
            guard case .value(let value) = answer else { continue }
            try Self.check(value, fits: result, service: service)
        }
        guard !answers.isEmpty || result == "v" else {
            throw Refused(
                message:
                    "give :stub \(service.name) a result of type \(Self.typeName(result)) (its signature is \"\(service.signature)\")"
            )
        }
        self.service = service
        self.answers = answers
        self.result = result
        self.params = params
    }

    /// Takes the answer for one call.
    package func next() -> Answer? {
        calls += 1
        return answers.count > 1 ? answers.removeFirst() : answers.first
    }

    static func typeName(_ letter: Character) -> String {
        switch letter {
        case "i": "int"
        case "d": "double"
        case "b": "bool"
        case "s": "string"
        default: "nothing (void)"
        }
    }

    private static func check(_ value: Value, fits letter: Character, service: ServiceDescriptor) throws(Refused) {
        switch (letter, value) {
        case ("i", .int), ("d", .double), ("d", .int), ("b", .bool), ("s", .string): return
        default:
            throw Refused(
                message:
                    "\(service.name) returns \(typeName(letter)) (signature \"\(service.signature)\"), so it cannot answer \(value.compact)"
            )
        }
    }

    /// `true, false` / `fail "message"`, for `:stubs`.
    package var summary: String {
        let queued = answers.map { answer in
            switch answer {
            case .value(let value): value.compact
            case .fail(let message): "fail \(Value.quoted(message))"
            }
        }
        return
            "\(service.name) → \(queued.isEmpty ? "(returns nothing)" : queued.joined(separator: ", ")) (called \(calls) time\(calls == 1 ? "" : "s"))"
    }
}

/// A stand-in for a model's environment service, built at run time: a libffi closure of
/// the service's C signature, so it works for plugins in any language. It answers what
/// its `StubScript` says; a `fail` answer returns the zero value and reports the failure
/// through `service_failure`.
@MainActor
package final class ServiceStub {
    let script: StubScript
    /// Called after each call (a worker tells the shell, whose copy of the script counts).
    package var onCall: (() -> Void)?
    private unowned let context: PluginContext
    private let cif: UnsafeMutablePointer<ffi_cif>
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    private var closure: UnsafeMutableRawPointer?
    /// The C function the plugin calls.
    private(set) var entry: sp_typed_entry?
    /// A returned string, kept until the next call (storeplugin.h's rule).
    private var lastString: UnsafeMutablePointer<CChar>?

    init(script: StubScript, context: PluginContext) throws(StubScript.Refused) {
        self.script = script
        self.context = context
        let params = script.params
        argumentTypes = .allocate(capacity: max(1, params.count))
        for (index, param) in params.enumerated() { argumentTypes[index] = Self.ffiType(param.letter) }
        cif = .allocate(capacity: 1)
        guard cffi_prepare(cif, UInt32(params.count), Self.ffiType(script.result), argumentTypes) == 0 else {
            throw StubScript.Refused(message: "libffi cannot describe \"\(script.service.signature)\"")
        }
        var code: UnsafeMutableRawPointer?
        closure = cffi_closure_make(cif, ServiceStub.handler, Unmanaged.passUnretained(self).toOpaque(), &code)
        guard closure != nil, let code else {
            throw StubScript.Refused(message: "libffi could not make a closure for \(script.service.name)")
        }
        entry = unsafeBitCast(code, to: sp_typed_entry.self)
    }

    isolated deinit {
        if let closure { cffi_closure_release(closure) }
        free(lastString)
        cif.deallocate()
        argumentTypes.deallocate()
    }

    private static func ffiType(_ letter: Character?) -> UnsafeMutablePointer<ffi_type> {
        switch letter {
        case "i": cffi_type_sint64()
        case "d": cffi_type_double()
        case "b": cffi_type_bool()
        case "s": cffi_type_pointer()
        default: cffi_type_void()
        }
    }

    /// Answers one call.
    private func answer(into buffer: UnsafeMutableRawPointer?) {
        var value = Value.null
        switch script.next() {
        case .value(let given)?: value = given
        case .fail(let message)?: context.serviceFailure = "\(script.service.name): \(message)"
        case nil: break
        }
        onCall?()
        guard let buffer else { return }
        switch script.result {
        case "i":
            if case .int(let v) = value {
                buffer.storeBytes(of: v, as: Int64.self)
            } else {
                buffer.storeBytes(of: 0, as: Int64.self)
            }
        case "d":
            let real: Double =
                switch value {
                case .double(let v): v
                case .int(let v): Double(v)
                default: 0
                }
            buffer.storeBytes(of: real, as: Double.self)
        case "b":
            // Small integer results fill a whole ffi_arg.
            buffer.storeBytes(of: value == .bool(true) ? 1 : 0, as: UInt64.self)
        case "s":
            free(lastString)
            if case .string(let text) = value { lastString = strdup(text) } else { lastString = strdup("") }
            buffer.storeBytes(of: UnsafeRawPointer(lastString), as: UnsafeRawPointer?.self)
        default:
            break
        }
    }

    private static let handler:
        @convention(c) (
            UnsafeMutablePointer<ffi_cif>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
            UnsafeMutableRawPointer?
        ) -> Void = { _, result, _, userData in
            let args = Unchecked((result, userData))
            MainActor.assumeIsolated {
                Unmanaged<ServiceStub>.fromOpaque(args.value.1!).takeUnretainedValue().answer(into: args.value.0)
            }
        }
}
