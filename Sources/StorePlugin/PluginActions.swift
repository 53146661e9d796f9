public import Arboreal
public import ObservableStore

/// Derives a plugin's action schema from the model's action enum, at compile time: every
/// case's name, its argument labels and kinds, and its `///` doc comment (what `:actions`
/// and completion show). Put it on the enum:
///
/// ```swift
/// @PluginActions
/// enum Action: Codable, Sendable {
///     /// Adds one.
///     case increment
///     /// Sets the count.
///     case setCount(Int)
///     /// The child counter's actions: `child.increment`, …
///     case child(Counter.Action)
///     /// A todo's actions by its id: `todos["t1"].toggle`, …
///     case todos(String, Todo.Action)
/// }
/// ```
///
/// and pass `Action.pluginActions` as a model's `actions` (or leave `actions` out). A case
/// whose one unlabelled payload is another `@PluginActions` enum expands to that enum's
/// actions under the case's name; one with a key and such an enum expands to keyed
/// actions (`todos[].toggle`, the key first). `Int`, `Double`, `Bool` and `String`
/// arguments are typed; any other `Codable` payload takes a value tree (`[1, 2]`,
/// `{title: "x"}`) of the type's shape (`PluginShapes`: an enum's cases, a struct's
/// fields), which the host checks, completes and shows. A default argument that is a
/// literal, `nil`, `.caseName` or a list of these is taken when the argument is left out;
/// any other leaves the argument required. An argument's doc is a `- Parameter NAME: …` line (or a `- NAME: …`
/// line under `- Parameters:`), NAME being its label — or, for unlabelled arguments,
/// one such line per argument in order. Every case is in the schema, so actions only effects send replay too.
/// The schema is a member of the enum, so argument types are found as the enum's own cases
/// find them: `case ship(via: Shipping)` for a `Shipping` nested beside the enum.
/// The macro lives in its own target, so only plugins build swift-syntax.
@attached(member, names: named(pluginActions))
@attached(extension, conformances: PluginActions)
public macro PluginActions() = #externalMacro(module: "StorePluginMacros", type: "PluginActionsMacro")

/// An action enum whose schema is known: `@PluginActions` conforms it.
public protocol PluginActions: Decodable {
    /// Every action users may send, in the order declared.
    static var pluginActions: [ActionSchema<Self>] { get }
}

/// What the code `@PluginActions` generates calls: the parameter kind of each payload
/// type, and the expansion of child action enums. Overloads, so the compiler — not a
/// guess from type names — decides what a payload is.
public enum PluginActionSchemas {
    /// A typed whole-number argument.
    public static func param(_ type: Int.Type, label: String?, doc: String? = nil, default: String? = nil) -> Param {
        Param.int(label, doc: doc).defaulting(to: `default`)
    }
    /// A typed whole-number argument.
    public static func param(_ type: Int64.Type, label: String?, doc: String? = nil, default: String? = nil) -> Param {
        Param.int(label, doc: doc).defaulting(to: `default`)
    }
    /// A typed whole-number argument, within `Int32`'s range.
    public static func param(_ type: Int32.Type, label: String?, doc: String? = nil, default: String? = nil) -> Param {
        Param.int(label, doc: doc).shaped(PluginShapes.shape(of: type)).defaulting(to: `default`)
    }
    /// A typed number argument.
    public static func param(_ type: Double.Type, label: String?, doc: String? = nil, default: String? = nil) -> Param {
        Param.double(label, doc: doc).defaulting(to: `default`)
    }
    /// A typed number argument.
    public static func param(_ type: Float.Type, label: String?, doc: String? = nil, default: String? = nil) -> Param {
        Param.double(label, doc: doc).defaulting(to: `default`)
    }
    /// A typed `true`/`false` argument.
    public static func param(_ type: Bool.Type, label: String?, doc: String? = nil, default: String? = nil) -> Param {
        Param.bool(label, doc: doc).defaulting(to: `default`)
    }
    /// A typed text argument.
    public static func param(_ type: String.Type, label: String?, doc: String? = nil, default: String? = nil) -> Param {
        Param.string(label, doc: doc).defaulting(to: `default`)
    }
    /// Any other `Decodable` payload: a value tree of the type's shape (`PluginShapes`).
    public static func param<T: Decodable>(
        _ type: T.Type, label: String?, doc: String? = nil, default: String? = nil
    ) -> Param {
        Param.value(label, doc: doc).shaped(PluginShapes.shape(of: type)).defaulting(to: `default`)
    }

    /// A case whose one payload is a child's action enum: the child's actions, each
    /// under `name.` (`child.increment`).
    public static func single<Parent: Decodable, Child: PluginActions>(
        _ name: String, _ doc: String, _ child: Child.Type, param: Param
    ) -> [ActionSchema<Parent>] {
        Child.pluginActions.map { ActionSchema(nested: $0, under: name, key: nil) }
    }

    /// A case with one payload of any other kind: one argument.
    public static func single<Parent: Decodable, Payload: Decodable>(
        _ name: String, _ doc: String, _ payload: Payload.Type, param: Param
    ) -> [ActionSchema<Parent>] {
        [ActionSchema(name, doc, [param])]
    }

    /// A case with a key and a child's action enum: the child's actions for one key,
    /// each under `name[].` with the key as first argument (`todos[].toggle`).
    public static func pair<Parent: Decodable, Key: Decodable, Child: PluginActions>(
        _ name: String, _ doc: String, _ key: Key.Type, _ child: Child.Type, params: [Param]
    ) -> [ActionSchema<Parent>] {
        let key = Param(label: "key", kind: params[0].kind, doc: params[0].doc, shape: params[0].shape)
        return Child.pluginActions.map { ActionSchema(nested: $0, under: name, key: key) }
    }

    /// A case with two payloads of any other kind: two arguments.
    public static func pair<Parent: Decodable, First: Decodable, Second: Decodable>(
        _ name: String, _ doc: String, _ first: First.Type, _ second: Second.Type, params: [Param]
    ) -> [ActionSchema<Parent>] {
        [ActionSchema(name, doc, params)]
    }
}

extension ActionSchema where Action: Decodable {
    /// A child's action seen from its parent: `name.child` (or `name[].child` with `key`
    /// as first argument), decoded with Codable like any other.
    init<Child>(nested child: ActionSchema<Child>, under name: String, key: Param?) {
        let path = key == nil ? "\(name).\(child.name)" : "\(name)[].\(child.name)"
        self.init(path, child.doc, (key.map { [$0] } ?? []) + child.params)
    }
}

extension PluginModel {
    /// Exports an ObservableStore model whose actions are `@PluginActions`: the schema
    /// comes from the action enum.
    @inlinable
    public static func observable<Model: ModelProtocol & Encodable>(
        _ name: String,
        doc: String,
        initial: @escaping @MainActor () -> Model,
        services: [ServiceDeclaration] = [],
        environment: @escaping @MainActor (PluginEnvironment) -> Model.Environment
    ) -> PluginModel where Model.Action: PluginActions {
        observable(
            name, doc: doc, initial: initial, actions: Model.Action.pluginActions, services: services,
            environment: environment)
    }

    /// Exports an Arboreal model whose actions are `@PluginActions`.
    public static func arboreal<Model: ArborealModel, State: Encodable>(
        _ name: String,
        doc: String,
        initial: @escaping @MainActor () -> Model,
        state: @escaping @MainActor (Model) -> State,
        services: [ServiceDeclaration] = [],
        environment: @escaping @MainActor (PluginEnvironment) -> Model.Environment
    ) -> PluginModel where Model.Action: PluginActions {
        arboreal(
            name, doc: doc, initial: initial, state: state, actions: Model.Action.pluginActions, services: services,
            environment: environment)
    }
}
