import CFFI
import CStorePlugin
package import StoreValue

/// The type of one action parameter, as the schema declares it.
package enum ParamType: String, Sendable, CaseIterable {
    case int, double, bool, string, value

    /// The letter used in signatures ("i", "d", "b", "s"); nil for `value`.
    var letter: Character? {
        switch self {
        case .int: "i"
        case .double: "d"
        case .bool: "b"
        case .string: "s"
        case .value: nil
        }
    }

    init?(letter: Character) {
        guard let type = ParamType.allCases.first(where: { $0.letter == letter }) else { return nil }
        self = type
    }
}

/// One parameter of an action.
package struct ParamDescriptor: Sendable, Equatable {
    /// nil for a positional parameter.
    package let label: String?
    package let type: ParamType
    package let doc: String?
    /// What the argument looks like, when the plugin said more than `type` (`sp_param.shape`).
    package let declaredShape: TypeShape?
    /// The argument taken when it is left out (already in the shape's form); nil when it
    /// must be given.
    package let defaultValue: Value?

    package init(
        label: String?, type: ParamType, doc: String?, shape: TypeShape? = nil, defaultValue: Value? = nil
    ) {
        self.label = label
        self.type = type
        self.doc = doc
        self.declaredShape = shape
        self.defaultValue = defaultValue
    }

    /// What the argument looks like: the declared shape, else the type's plain one.
    package var shape: TypeShape { declaredShape ?? .plain(kind: type.rawValue) }

    /// The parameter's type as a signature shows it: `int`, `Shipping`, `[Item]`, with
    /// ` = DEFAULT` when it has one.
    package var written: String {
        (declaredShape?.summary ?? type.rawValue) + (defaultValue.map { " = \($0.compact)" } ?? "")
    }
}

/// One action a model accepts, copied out of the plugin at registration.
package struct ActionDescriptor: @unchecked Sendable {
    /// Its position in the model's `actions`.
    package let index: Int
    package let name: String
    package let doc: String?
    package let params: [ParamDescriptor]
    /// True when the action has a typed entry point the host calls through libffi.
    package let isTyped: Bool
    let typed: TypedEntry?

    init(index: Int, name: String, doc: String?, params: [ParamDescriptor], typed: TypedEntry?, isTyped: Bool? = nil) {
        self.index = index
        self.name = name
        self.doc = doc
        self.params = params
        self.typed = typed
        self.isTyped = isTyped ?? (typed != nil)
    }
}

/// A model's declared environment service.
package struct ServiceDescriptor: @unchecked Sendable {
    package let name: String
    package let doc: String?
    /// Parameter letters, '>', the result letter ('v' for none).
    package let signature: String
    /// The plugin's own implementation; nil for a model in a worker (it is there).
    let defaultImplementation: sp_typed_entry?
}

/// A typed entry point and the libffi call interface prepared for it at registration.
final class TypedEntry: @unchecked Sendable {
    let function: sp_typed_entry
    let actionData: UnsafeMutableRawPointer?
    let params: [ParamType]
    let cif: UnsafeMutablePointer<ffi_cif>
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>

    /// nil when libffi cannot prepare the signature.
    init?(function: sp_typed_entry, actionData: UnsafeMutableRawPointer?, params: [ParamType]) {
        self.function = function
        self.actionData = actionData
        self.params = params
        let count = 4 + params.count
        argumentTypes = .allocate(capacity: count)
        for index in 0..<4 { argumentTypes[index] = cffi_type_pointer() }
        for (index, param) in params.enumerated() {
            switch param {
            case .int: argumentTypes[4 + index] = cffi_type_sint64()
            case .double: argumentTypes[4 + index] = cffi_type_double()
            case .bool: argumentTypes[4 + index] = cffi_type_bool()
            case .string, .value: argumentTypes[4 + index] = cffi_type_pointer()
            }
        }
        cif = .allocate(capacity: 1)
        guard cffi_prepare(cif, UInt32(count), cffi_type_sint32(), argumentTypes) == 0 else {
            argumentTypes.deallocate()
            cif.deallocate()
            return nil
        }
    }

    deinit {
        argumentTypes.deallocate()
        cif.deallocate()
    }
}

/// A model a plugin registered: its schema, and the entry points to drive it. A class,
/// so handing it around (once per action) costs one retain, not one per field.
package final class ModelDescriptor: @unchecked Sendable {
    /// The plugin that registered it.
    package let plugin: String
    package let name: String
    package let doc: String?
    package let actions: [ActionDescriptor]
    package let services: [ServiceDescriptor]
    /// `plugin.model`: unambiguous even when two plugins register the same name. Kept, not
    /// worked out on each read: the shell keys its histories and sessions by it on every
    /// action, and a string built per action showed in the profile of a script's sends.
    package let qualifiedName: String

    let modelData: UnsafeMutableRawPointer?
    let create:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafePointer<sp_store_context>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
            UnsafeMutablePointer<sp_error>?
        ) -> Int32
    let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let dispatch:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<sp_value>?,
            UnsafeMutablePointer<sp_dispatch_result>?, UnsafeMutablePointer<sp_error>?
        ) -> Int32
    let snapshot: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutablePointer<sp_value>?
    let replay:
        (
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<sp_value>?,
                UnsafeMutablePointer<sp_dispatch_result>?, UnsafeMutablePointer<sp_error>?
            ) -> Int32
        )?
    let restore:
        (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<sp_value>?, UnsafeMutablePointer<sp_error>?) -> Int32)?
    /// What changed since the last snapshot (storeplugin.h); nil when the plugin cannot say.
    let snapshotChanges: (@convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutablePointer<sp_value>?)?
    /// The state written as bytes (storeplugin.h); nil when the plugin only builds trees.
    let snapshotEncoded: SnapshotEncoded?
    /// What changed since the last snapshot, written as bytes (storeplugin.h); nil when the
    /// plugin builds trees of its changes, or reports none.
    let snapshotChangesEncoded: SnapshotEncoded?
    /// Whether the plugin's effect work can go on without the host (storeplugin.h's
    /// `effects_idle`); nil when the plugin cannot say.
    let effectsIdle: (@convention(c) (UnsafeMutableRawPointer?) -> Int32)?
    typealias SnapshotEncoded = (
        @convention(c) (
            UnsafeMutableRawPointer?, (@convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int32)?,
            UnsafeMutableRawPointer?
        ) -> Int32
    )

    /// Field names the model declared to identify list elements (before `id`).
    package let identityFields: [String]
    /// Diffs of this model's states: list elements identified by its identity fields.
    package let stateDiff: StateDiff
    /// What the model says must hold of its state after every action (`storeplugin.h`'s
    /// `invariants`): `storesh explore` checks them with no flags.
    package let invariants: [StateCondition]
    /// Properties the model checks in its own code (`sp_model.checks`), asked for by index
    /// through `Session.check(_:)`.
    package let checks: [ModelCheck]
    /// `sp_model.check`; nil when the model declares no checks in code.
    let check:
        (
            @convention(c) (
                UnsafeMutableRawPointer?, UInt32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<sp_error>?
            ) -> Int32
        )?

    /// True when the model can replay its history (undo, jumps, resume).
    package var supportsTimeTravel: Bool { worker != nil || scripted != nil ? declaredTimeTravel : replay != nil }

    /// The worker process running the model, nil when it runs in this process.
    package let worker: WorkerPlugin?
    /// The model's position in its plugin's registration order (how a worker names it).
    let indexInPlugin: Int
    /// For a model whose entry points are elsewhere: whether it said it can time travel.
    private let declaredTimeTravel: Bool
    /// Makes the connection to a store of a scripted model (tests); nil for a plugin's.
    package let scripted: (@MainActor @Sendable () -> any StoreConnection)?

    init(
        plugin: String, name: String, doc: String?, actions: [ActionDescriptor], services: [ServiceDescriptor],
        modelData: UnsafeMutableRawPointer?,
        create:
            @escaping @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<sp_store_context>?,
                UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafeMutablePointer<sp_error>?
            ) -> Int32,
        destroy: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void,
        dispatch:
            @escaping @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<sp_value>?,
                UnsafeMutablePointer<sp_dispatch_result>?, UnsafeMutablePointer<sp_error>?
            ) -> Int32,
        snapshot: @escaping @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutablePointer<sp_value>?,
        replay: (
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<sp_value>?,
                UnsafeMutablePointer<sp_dispatch_result>?, UnsafeMutablePointer<sp_error>?
            ) -> Int32
        )?,
        restore: (
            @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<sp_value>?, UnsafeMutablePointer<sp_error>?) ->
                Int32
        )?,
        snapshotChanges: (@convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutablePointer<sp_value>?)? = nil,
        snapshotEncoded: SnapshotEncoded? = nil, snapshotChangesEncoded: SnapshotEncoded? = nil,
        effectsIdle: (@convention(c) (UnsafeMutableRawPointer?) -> Int32)? = nil,
        identityFields: [String] = [], invariants: [StateCondition] = [], checks: [ModelCheck] = [],
        check: (
            @convention(c) (
                UnsafeMutableRawPointer?, UInt32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<sp_error>?
            ) -> Int32
        )? = nil,
        worker: WorkerPlugin? = nil, indexInPlugin: Int = 0, declaredTimeTravel: Bool = false,
        scripted: (@MainActor @Sendable () -> any StoreConnection)? = nil
    ) {
        self.identityFields = identityFields
        self.stateDiff = StateDiff(identityFields: identityFields)
        self.invariants = invariants
        self.checks = checks
        self.check = check
        self.worker = worker
        self.indexInPlugin = indexInPlugin
        self.declaredTimeTravel = declaredTimeTravel
        self.scripted = scripted
        self.replay = replay
        self.restore = restore
        self.snapshotChanges = snapshotChanges
        self.snapshotEncoded = snapshotEncoded
        self.snapshotChangesEncoded = snapshotChangesEncoded
        self.effectsIdle = effectsIdle
        self.plugin = plugin
        self.qualifiedName = "\(plugin).\(name)"
        self.name = name
        self.doc = doc
        self.actions = actions
        self.services = services
        self.modelData = modelData
        self.create = create
        self.destroy = destroy
        self.dispatch = dispatch
        self.snapshot = snapshot
        var index: [String: Int] = [:]
        for (position, action) in actions.enumerated() { index[action.name] = position }
        actionIndex = index
    }

    /// A model known only by its schema, with no plugin behind it: for checking action
    /// text against a schema (a linter, a fuzz target). Its store cannot be created.
    package static func schemaOnly(plugin: String, name: String, actions: [(name: String, params: [ParamDescriptor])])
        -> ModelDescriptor
    {
        ModelDescriptor(
            plugin: plugin, name: name, doc: nil,
            actions: actions.enumerated().map {
                ActionDescriptor(
                    index: $0.offset, name: $0.element.name, doc: nil, params: $0.element.params, typed: nil)
            },
            services: []
        )
    }

    /// A model whose entry points are elsewhere (in a worker process, scripted in memory,
    /// or nowhere): the schema alone, with C entry points that refuse to run.
    convenience init(
        plugin: String, name: String, doc: String?, actions: [ActionDescriptor], services: [ServiceDescriptor],
        identityFields: [String] = [], invariants: [StateCondition] = [], checks: [ModelCheck] = [],
        worker: WorkerPlugin? = nil, indexInPlugin: Int = 0, timeTravel: Bool = false,
        scripted: (@MainActor @Sendable () -> any StoreConnection)? = nil
    ) {
        self.init(
            plugin: plugin, name: name, doc: doc, actions: actions, services: services, modelData: nil,
            create: { _, _, _, error in
                error?.write("this model has no plugin behind it")
                return Int32(SP_ERR_INTERNAL)
            },
            destroy: { _ in }, dispatch: { _, _, _, _, _ in Int32(SP_ERR_INTERNAL) }, snapshot: { _ in nil },
            replay: nil, restore: nil, identityFields: identityFields, invariants: invariants, checks: checks,
            worker: worker, indexInPlugin: indexInPlugin, declaredTimeTravel: timeTravel, scripted: scripted
        )
    }

    private let actionIndex: [String: Int]

    /// The action called `name`, if the schema has one.
    package func action(named name: String) -> ActionDescriptor? {
        actionIndex[name].map { actions[$0] }
    }
}

/// A property a model checks in its own code (storeplugin.h's `sp_check`): an invariant,
/// of every state, or a postcondition, of every action dispatched to it.
package struct ModelCheck: Equatable, Sendable {
    package let name: String
    package let isPostcondition: Bool
    package let doc: String?

    package init(name: String, isPostcondition: Bool, doc: String? = nil) {
        self.name = name
        self.isPostcondition = isPostcondition
        self.doc = doc
    }

    /// "invariant" or "postcondition".
    package var kind: String { isPostcondition ? "postcondition" : "invariant" }
}

/// What a check in code said of a store.
package struct CheckVerdict: Equatable, Sendable {
    package let holds: Bool
    /// What the model said it found, when it broke.
    package let message: String?

    package init(holds: Bool, message: String? = nil) {
        self.holds = holds
        self.message = message
    }
}
