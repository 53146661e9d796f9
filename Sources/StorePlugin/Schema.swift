/// A parameter of an action in a model's schema.
public struct Param: Sendable {
    /// The kinds of value a parameter takes (storeplugin.h: "int", "double", …).
    public enum Kind: String, Sendable {
        /// A whole number; a number; `true`/`false`; quoted text; any value tree.
        case int, double, bool, string, value
    }

    /// The argument's label (`title:`), or nil for a positional one.
    public let label: String?
    /// What the argument must be.
    public let kind: Kind
    /// A line about the argument, shown by `:actions`.
    public let doc: String?
    /// What the argument looks like when that says more than `kind` (an enum's cases, a
    /// struct's fields, an optional, a range): checked, completed and shown by the host.
    public let shape: TypeShape?
    /// The argument's default as literal text (`"ground"`, `nil`, `3`), taken when the
    /// argument is left out; nil when it must be given.
    public let defaultValue: String?

    /// A parameter with every fact given.
    public init(
        label: String?, kind: Kind, doc: String? = nil, shape: TypeShape? = nil, defaultValue: String? = nil
    ) {
        self.label = label
        self.kind = kind
        self.doc = doc
        self.shape = shape
        self.defaultValue = defaultValue
    }

    /// This parameter with `shape`, unless it says no more than the kind does.
    public func shaped(_ shape: TypeShape) -> Param {
        let plain = TypeShape.plain(kind: kind.rawValue)
        return Param(
            label: label, kind: kind, doc: doc, shape: shape == plain ? nil : shape, defaultValue: defaultValue)
    }

    /// This parameter, taking only whole numbers in `range` (`@PluginActions` writes it for
    /// a doc ending `in 1...4`): the host refuses others at their column and explore draws
    /// within it, at its edges most often. Within a narrower type's own range (`Int8`),
    /// the two meet; an optional stays optional.
    public func within(_ range: ClosedRange<Int64>) -> Param {
        narrowed { shape in
            guard case .int(let own?) = shape, own.overlaps(range) else { return .int(range: range) }
            return .int(range: max(own.lowerBound, range.lowerBound)...min(own.upperBound, range.upperBound))
        }
    }

    /// This parameter, taking only one of `choices` (a doc ending `one of "s", "m", "l"`).
    public func oneOf(_ choices: [String]) -> Param {
        narrowed { _ in .choice(name: nil, cases: choices.map { TypeShape.Case($0, rawValue: .string($0)) }) }
    }

    /// This parameter, taking only one of `choices` (a doc ending `one of 1, 2, 5`).
    public func oneOf(_ choices: [Int64]) -> Param {
        narrowed { _ in .choice(name: nil, cases: choices.map { TypeShape.Case("\($0)", rawValue: .int($0)) }) }
    }

    /// This parameter, taking only one of `choices` (a doc ending `one of 0.5, 1.5`).
    public func oneOf(_ choices: [Double]) -> Param {
        narrowed { _ in .choice(name: nil, cases: choices.map { TypeShape.Case("\($0)", rawValue: .double($0)) }) }
    }

    /// This parameter with its shape (an optional's wrapped shape) replaced by `narrow`'s.
    private func narrowed(_ narrow: (TypeShape) -> TypeShape) -> Param {
        let current = shape ?? TypeShape.plain(kind: kind.rawValue)
        let next: TypeShape
        if case .optional(let wrapped) = current {
            next = .optional(narrow(wrapped))
        } else {
            next = narrow(current)
        }
        return Param(label: label, kind: kind, doc: doc, shape: next, defaultValue: defaultValue)
    }

    /// This parameter, taking `literal` (literal text) when it is left out.
    public func defaulting(to literal: String?) -> Param {
        Param(label: label, kind: kind, doc: doc, shape: shape, defaultValue: literal)
    }

    /// A whole number.
    public static func int(_ label: String? = nil, doc: String? = nil) -> Param {
        Param(label: label, kind: .int, doc: doc)
    }
    /// A number (a whole number is accepted too).
    public static func double(_ label: String? = nil, doc: String? = nil) -> Param {
        Param(label: label, kind: .double, doc: doc)
    }
    /// `true` or `false`.
    public static func bool(_ label: String? = nil, doc: String? = nil) -> Param {
        Param(label: label, kind: .bool, doc: doc)
    }
    /// Quoted text.
    public static func string(_ label: String? = nil, doc: String? = nil) -> Param {
        Param(label: label, kind: .string, doc: doc)
    }
    /// Any value tree: a list, a record, …, decoded into the case's payload type;
    /// `shape` says what it must look like, when known.
    public static func value(_ label: String? = nil, doc: String? = nil, shape: TypeShape? = nil) -> Param {
        Param(label: label, kind: .value, doc: doc, shape: shape)
    }
}

/// One action of a model's schema: its name as users type it, a line of doc, its
/// parameters, and how arguments become the model's `Action`.
///
/// Swift cannot list an enum's cases at run time, so a plugin lists its actions here —
/// an explicit list rather than a macro, so building a plugin needs no swift-syntax and
/// the list is where the docs users see in `:actions` live.
///
/// By default arguments are decoded with `Codable`, in the shape Swift synthesizes for
/// enums: `setCount 5` becomes `.setCount(5)` (a positional parameter is `_0`, `_1`, …;
/// a labelled one uses its label), `child.increment` becomes `.child(.increment)`, and
/// `todos[].toggle` with key `k` becomes `.todos(k, .toggle)`. Pass `make` for anything
/// else.
public struct ActionSchema<Action>: @unchecked Sendable {
    /// The action as users type it: `increment`, `child.increment`, `todos[].toggle`.
    public let name: String
    /// A line about the action, shown by `:actions` and completion.
    public let doc: String
    /// Its parameters, in order.
    public let params: [Param]
    @usableFromInline let make: ([Value]) throws -> Action

    /// An action whose arguments `make` turns into the model's action (throw to
    /// refuse them with a message).
    public init(_ name: String, _ doc: String, _ params: [Param] = [], make: @escaping ([Value]) throws -> Action) {
        self.name = name
        self.doc = doc
        self.params = params
        self.make = make
    }

    /// The Codable shape of the case `name` with `arguments`, as described above.
    static func codableShape(name: String, params: [Param], arguments: [Value]) -> Value {
        var segments = name.split(separator: ".").map(String.init)
        let keyedCount = segments.filter { $0.hasSuffix("[]") }.count
        var keys = Array(arguments.prefix(keyedCount))
        let own = Array(arguments.dropFirst(keyedCount))
        let ownParams = Array(params.dropFirst(keyedCount))
        let last = segments.removeLast()
        var fields: [Value.Field] = []
        for (index, (param, value)) in zip(ownParams, own).enumerated() {
            fields.append(.init(param.label ?? "_\(index)", value))
        }
        var inner = Value.record(type: nil, fields: [.init(last, .record(type: nil, fields: fields))])
        for segment in segments.reversed() {
            if segment.hasSuffix("[]") {
                let key = keys.removeLast()
                inner = .record(
                    type: nil,
                    fields: [
                        .init(
                            String(segment.dropLast(2)),
                            .record(type: nil, fields: [.init("_0", key), .init("_1", inner)]))
                    ])
            } else {
                inner = .record(type: nil, fields: [.init(segment, .record(type: nil, fields: [.init("_0", inner)]))])
            }
        }
        return inner
    }
}

extension ActionSchema where Action: Decodable {
    /// An action decoded with Codable from its name and arguments (see the type's doc).
    public init(_ name: String, _ doc: String, _ params: [Param] = []) {
        self.init(name, doc, params) { arguments in
            try ValueDecoder().decode(
                Action.self, from: Self.codableShape(name: name, params: params, arguments: arguments))
        }
    }
}

/// A service a model needs from its environment, with a C signature so the host can
/// replace it (storesh's `:stub`) for plugins in any language.
///
/// `signature` is parameter letters (i int64, d double, b bool, s string), '>', and the
/// result letter ('v' for none): "ss>b" is `(UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Bool`.
public struct ServiceDeclaration: @unchecked Sendable {
    /// The service's name, as `:stub` and `:services` use it.
    public let name: String
    /// A line about the service, shown by `:services`.
    public let doc: String
    /// Parameter letters, '>', result letter: "ss>b".
    public let signature: String
    let implementation: UnsafeRawPointer

    /// `implementation` is a `@convention(c)` function matching `signature`.
    public init<Function>(_ name: String, _ doc: String, signature: String, implementation: Function) {
        precondition(
            MemoryLayout<Function>.size == MemoryLayout<UnsafeRawPointer>.size,
            "a service implementation must be a @convention(c) function")
        self.name = name
        self.doc = doc
        self.signature = signature
        self.implementation = unsafeBitCast(implementation, to: UnsafeRawPointer.self)
    }
}
