public import ObservableStore

/// What the code `storesh-glue` writes calls (the StoreshGlue build-tool plugin, docs/plugins.md
/// "Glue that writes itself"): Codable for a model's types written from another file, with
/// overloads so the compiler — not a guess from type names — decides what is Encodable,
/// and a reflecting encoder for what is not (private stored properties, closures).
public enum GeneratedGlue {
    /// A coding key spelled at run time: a property's or a case's name.
    public struct Key: CodingKey {
        /// The name.
        public let stringValue: String
        /// None: names only.
        public var intValue: Int? { nil }
        /// The key named `name`.
        public init(_ name: String) { stringValue = name }
        /// The key named `stringValue`.
        public init?(stringValue: String) { self.stringValue = stringValue }
        /// None: names only.
        public init?(intValue: Int) { nil }
    }

    /// Encodes a stored property that is `Encodable`.
    public static func encode<T: Encodable>(
        _ value: T, _ key: String, into container: inout KeyedEncodingContainer<Key>
    ) throws {
        try container.encode(value, forKey: Key(key))
    }

    /// Encodes any other stored property as reflection shows it: a closure by its type.
    public static func encode<T>(_ value: T, _ key: String, into container: inout KeyedEncodingContainer<Key>) throws {
        try container.encode(Reflected(value, depth: 0), forKey: Key(key))
    }

    /// Decodes a stored property or an argument that is `Decodable`.
    public static func decode<T: Decodable>(_ key: String, from container: KeyedDecodingContainer<Key>) throws -> T {
        try container.decode(T.self, forKey: Key(key))
    }

    /// A property or argument that is not `Decodable` cannot be built from a snapshot or text.
    public static func decode<T>(_ key: String, from container: KeyedDecodingContainer<Key>) throws -> T {
        throw DecodingError.typeMismatch(
            T.self,
            .init(
                codingPath: container.codingPath + [Key(key)],
                debugDescription: "\(T.self) is not Decodable, so '\(key)' cannot be given as text"))
    }

    /// An argument with a default: the default when the text leaves it out.
    public static func decode<T: Decodable>(
        _ key: String, from container: KeyedDecodingContainer<Key>, default fallback: @autoclosure () -> T
    ) throws -> T {
        try container.decodeIfPresent(T.self, forKey: Key(key)) ?? fallback()
    }

    /// Whether the property `path` names can be decoded (restore needs all of them).
    public static func decodable<Root, T: Decodable>(_ path: KeyPath<Root, T>) -> Bool { true }
    /// Whether the property `path` names can be decoded (restore needs all of them).
    public static func decodable<Root, T>(_ path: KeyPath<Root, T>) -> Bool { false }

    /// The one case an enum's encoding holds (`{name: {payload}}`, as Swift synthesizes it).
    public static func enumCase(from decoder: any Decoder) throws -> (
        name: String, payload: KeyedDecodingContainer<Key>
    ) {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath,
                    debugDescription: "expected one case, found \(container.allKeys.count) keys"))
        }
        return (key.stringValue, try container.nestedContainer(keyedBy: Key.self, forKey: key))
    }

    /// The error for a case name the enum does not have.
    public static func unknownCase(_ name: String, of type: Any.Type, in decoder: any Decoder) -> DecodingError {
        .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(type) has no case '\(name)'"))
    }

    /// Encodes `value` field by field as reflection sees it: what a type with private
    /// stored properties can be shown by from another file.
    public static func encodeReflecting(_ value: Any, to encoder: any Encoder) throws {
        try Reflected(value, depth: 0).encodeFields(to: encoder)
    }
}

/// A value encoded as `Mirror` shows it: Encodable parts as themselves, records and lists
/// by their children, anything else (a closure, a metatype) as its type's name.
struct Reflected: Encodable {
    /// Deeper than this, a value is shown by its type (reflection of a cycle of classes never ends).
    static let maxDepth = 64
    let value: Any
    let depth: Int

    init(_ value: Any, depth: Int) {
        self.value = value
        self.depth = depth
    }

    func encode(to encoder: any Encoder) throws {
        if let encodable = value as? any Encodable {
            try encodable.encode(to: encoder)
            return
        }
        try encodeFields(to: encoder)
    }

    func encodeFields(to encoder: any Encoder) throws {
        let mirror = Mirror(reflecting: value)
        guard depth < Self.maxDepth else { return try describe(to: encoder) }
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else {
                var container = encoder.singleValueContainer()
                return try container.encodeNil()
            }
            try Reflected(wrapped.value, depth: depth + 1).encode(to: encoder)
        case .collection, .set:
            var container = encoder.unkeyedContainer()
            for child in mirror.children { try container.encode(Reflected(child.value, depth: depth + 1)) }
        case .dictionary:
            var container = encoder.container(keyedBy: GeneratedGlue.Key.self)
            for child in mirror.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { continue }
                try container.encode(
                    Reflected(pair[1].value, depth: depth + 1), forKey: .init("\(pair[0].value)"))
            }
        case .enum:
            guard let payload = mirror.children.first, let name = payload.label else {
                var container = encoder.singleValueContainer()
                return try container.encode("\(value)")
            }
            var container = encoder.container(keyedBy: GeneratedGlue.Key.self)
            try container.encode(Reflected(payload.value, depth: depth + 1), forKey: .init(name))
        case .struct, .class, .tuple:
            var container = encoder.container(keyedBy: GeneratedGlue.Key.self)
            for (index, child) in mirror.children.enumerated() {
                try container.encode(
                    Reflected(child.value, depth: depth + 1), forKey: .init(child.label ?? "_\(index)"))
            }
        default:
            try describe(to: encoder)
        }
    }

    /// A value reflection cannot open: a closure is `(String) -> Bool`, shown under its name.
    private func describe(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("\(type(of: value))")
    }
}

/// A model whose initial state `storesh-glue` found: the type's `init()`.
public protocol GeneratedInitialState {
    /// The state a new store starts from.
    static func generatedInitialState() -> Self
}

/// What `storesh-glue` read of a model type: its doc comment, and whether every stored
/// property can be decoded (so time travel restores a snapshot rather than replaying).
public protocol GeneratedModelFacts {
    /// The type's `///` summary, shown by `:models`.
    static var generatedDoc: String { get }
    /// Whether a snapshot can be decoded back into a state.
    static var generatedRestorable: Bool { get }
}

extension PluginModel {
    /// Exports an ObservableStore model in one line, the rest written by `storesh-glue`:
    /// `let toasts = PluginModel.observable(ToastStack.self, environment: { _ in .init() })`.
    /// `name` defaults to the type's name with a lowercase first letter; `doc` to its `///`
    /// summary; the state starts as the type's `init()`.
    @inlinable
    public static func observable<Model: ModelProtocol & Encodable & GeneratedInitialState>(
        _ type: Model.Type,
        name: String? = nil,
        doc: String? = nil,
        services: [ServiceDeclaration] = [],
        environment: @escaping @MainActor (PluginEnvironment) -> Model.Environment
    ) -> PluginModel where Model.Action: PluginActions {
        observable(
            type, name: name, doc: doc, initial: { Model.generatedInitialState() }, services: services,
            environment: environment)
    }

    /// Exports an ObservableStore model in one line, starting from `initial`.
    @inlinable
    public static func observable<Model: ModelProtocol & Encodable>(
        _ type: Model.Type,
        name: String? = nil,
        doc: String? = nil,
        initial: @escaping @MainActor () -> Model,
        services: [ServiceDeclaration] = [],
        environment: @escaping @MainActor (PluginEnvironment) -> Model.Environment
    ) -> PluginModel where Model.Action: PluginActions {
        let facts = Model.self as? any GeneratedModelFacts.Type
        let typeName = "\(Model.self)"
        return observable(
            name ?? typeName.prefix(1).lowercased() + typeName.dropFirst(), doc: doc ?? facts?.generatedDoc ?? "",
            initial: initial, services: services, environment: environment)
    }
}
