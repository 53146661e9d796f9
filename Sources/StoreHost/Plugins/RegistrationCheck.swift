import CStorePlugin
import StoreValue

/// Checks a model a plugin registers and copies what the host keeps of it. Every problem
/// is reported with the model and action it concerns.
enum Registration {
    struct Invalid: Error {
        let message: String
    }

    static func describe(_ pointer: UnsafePointer<sp_model>, plugin: String) throws(Invalid) -> ModelDescriptor {
        // Version 1 began without the time-travel fields; read them only when present.
        let minimum = MemoryLayout<sp_model>.offset(of: \sp_model.replay)!
        let declared = UnsafeRawPointer(pointer).loadUnaligned(as: UInt32.self)
        guard declared >= UInt32(minimum) else {
            throw Invalid(message: "sp_model.struct_size is \(declared), expected at least \(minimum)")
        }
        // Only the bytes the plugin declared are read; fields it lacks stay zero.
        let model = try elements(pointer, count: 1, minimumSize: minimum, what: "sp_model")[0]
        let hasTimeTravel = model.struct_size >= UInt32(end(of: \sp_model.restore))
        let hasChanges = model.struct_size >= UInt32(end(of: \sp_model.snapshot_changes))
        let hasIdentity = model.struct_size >= UInt32(end(of: \sp_model.identity_fields))
        let hasEncoded = model.struct_size >= UInt32(end(of: \sp_model.snapshot_encoded))
        let hasInvariants = model.struct_size >= UInt32(end(of: \sp_model.invariants))
        let hasEncodedChanges = model.struct_size >= UInt32(end(of: \sp_model.snapshot_changes_encoded))
        let hasEffectsIdle = model.struct_size >= UInt32(end(of: \sp_model.effects_idle))
        let hasChecks = model.struct_size >= UInt32(end(of: \sp_model.check))
        guard let rawName = model.name.map({ String(cString: $0) }), isIdentifier(rawName) else {
            throw Invalid(message: "a model name must match [A-Za-z_][A-Za-z0-9_-]*")
        }
        let site = "model '\(rawName)'"
        guard let create = model.create, let destroy = model.destroy,
            let dispatch = model.dispatch, let snapshot = model.snapshot
        else {
            throw Invalid(message: "\(site): create, destroy, dispatch and snapshot must all be set")
        }
        var actions: [ActionDescriptor] = []
        var actionNames = Set<String>()
        if model.action_count > 0, model.actions == nil {
            throw Invalid(message: "\(site): action_count is \(model.action_count) but actions is NULL")
        }
        let declaredActions =
            try model.actions.map { list throws(Invalid) in
                try elements(list, count: Int(model.action_count), what: "\(site): actions")
            } ?? []
        for (index, declared) in declaredActions.enumerated() {
            let action = try describe(declared, position: index, in: site)
            // A set, not a search of the list: a model may declare tens of thousands.
            guard actionNames.insert(action.name).inserted else {
                throw Invalid(message: "\(site): action '\(action.name)' is declared twice")
            }
            actions.append(action)
        }
        var services: [ServiceDescriptor] = []
        if model.service_count > 0, model.services == nil {
            throw Invalid(message: "\(site): service_count is \(model.service_count) but services is NULL")
        }
        let declaredServices =
            try model.services.map { list throws(Invalid) in
                try elements(list, count: Int(model.service_count), what: "\(site): services")
            } ?? []
        for (index, service) in declaredServices.enumerated() {
            guard let name = service.name.map({ String(cString: $0) }), isIdentifier(name) else {
                throw Invalid(message: "\(site): service \(index) has no valid name")
            }
            let signature = service.signature.map { String(cString: $0) } ?? ""
            guard parseServiceSignature(signature) != nil else {
                throw Invalid(
                    message:
                        "\(site): service '\(name)' has signature \"\(signature)\"; expected parameter letters from i d b s, '>', and a result letter (or v)"
                )
            }
            guard let implementation = service.default_impl else {
                throw Invalid(message: "\(site): service '\(name)' has no default implementation")
            }
            services.append(
                ServiceDescriptor(
                    name: name, doc: service.doc.map { String(cString: $0) }, signature: signature,
                    defaultImplementation: implementation))
        }
        let identityFields = try hasIdentity ? identities(model.identity_fields, in: site) : []
        let invariants = try hasInvariants ? conditions(model.invariants, in: site) : []
        let checks = try hasChecks ? codeChecks(model, in: site) : []
        return ModelDescriptor(
            plugin: plugin, name: rawName, doc: model.doc.map { String(cString: $0) },
            actions: actions, services: services, modelData: model.model_data,
            create: create, destroy: destroy, dispatch: dispatch, snapshot: snapshot,
            replay: hasTimeTravel ? model.replay : nil, restore: hasTimeTravel ? model.restore : nil,
            snapshotChanges: hasChanges ? model.snapshot_changes : nil,
            snapshotEncoded: hasEncoded ? model.snapshot_encoded : nil,
            snapshotChangesEncoded: hasEncodedChanges ? model.snapshot_changes_encoded : nil,
            effectsIdle: hasEffectsIdle ? model.effects_idle : nil,
            identityFields: identityFields, invariants: invariants,
            checks: checks, check: checks.isEmpty ? nil : model.check
        )
    }

    /// `checks` and `check_count`: at most 64, each named (uniquely) and of a known kind,
    /// with `check` set when there are any.
    private static func codeChecks(_ model: sp_model, in site: String) throws(Invalid) -> [ModelCheck] {
        guard model.check_count > 0 else { return [] }
        guard model.check_count <= 64 else {
            throw Invalid(message: "\(site): check_count is \(model.check_count); at most 64")
        }
        guard let list = model.checks else {
            throw Invalid(message: "\(site): check_count is \(model.check_count) but checks is NULL")
        }
        guard model.check != nil else {
            throw Invalid(message: "\(site): it declares \(model.check_count) checks but check is NULL")
        }
        var checks: [ModelCheck] = []
        var names = Set<String>()
        for (index, declared) in try elements(list, count: Int(model.check_count), what: "\(site): checks")
            .enumerated()
        {
            guard let name = declared.name.map({ String(cString: $0) }), !name.isEmpty else {
                throw Invalid(message: "\(site): check \(index) has no name")
            }
            guard names.insert(name).inserted else {
                throw Invalid(message: "\(site): two checks are named \"\(name)\"")
            }
            guard declared.kind == SP_CHECK_INVARIANT || declared.kind == SP_CHECK_POSTCONDITION else {
                throw Invalid(
                    message:
                        "\(site): check \"\(name)\" has kind \(declared.kind); expected SP_CHECK_INVARIANT (0) or SP_CHECK_POSTCONDITION (1)"
                )
            }
            checks.append(
                ModelCheck(
                    name: name, isPostcondition: declared.kind == SP_CHECK_POSTCONDITION,
                    doc: declared.doc.map { String(cString: $0) }))
        }
        return checks
    }

    /// The NULL-terminated `invariants` list: checks, at most 64.
    private static func conditions(_ list: UnsafePointer<UnsafePointer<CChar>?>?, in site: String) throws(Invalid)
        -> [StateCondition]
    {
        guard let list else { return [] }
        var conditions: [StateCondition] = []
        while let entry = list[conditions.count] {
            let text = String(cString: entry)
            do throws(TextError) {
                conditions.append(try StateCondition.parse(text))
            } catch {
                let column = String(decoding: Array(text.utf8).prefix(error.offset), as: UTF8.self).count + 1
                throw Invalid(
                    message: "\(site): invariant \(conditions.count) \"\(text)\": column \(column): \(error.message)")
            }
            guard conditions.count <= 64 else {
                throw Invalid(message: "\(site): invariants has no NULL after 64 checks")
            }
        }
        return conditions
    }

    /// The NULL-terminated `identity_fields` list: field names, at most 16.
    private static func identities(_ list: UnsafePointer<UnsafePointer<CChar>?>?, in site: String) throws(Invalid)
        -> [String]
    {
        guard let list else { return [] }
        var names: [String] = []
        while let entry = list[names.count] {
            let name = String(cString: entry)
            guard isIdentifier(name) else {
                throw Invalid(
                    message:
                        "\(site): identity field \(names.count) is \"\(name)\"; expected a field name ([A-Za-z_][A-Za-z0-9_-]*)"
                )
            }
            names.append(name)
            guard names.count <= 16 else {
                throw Invalid(message: "\(site): identity_fields has no NULL after 16 names")
            }
        }
        return names
    }

    /// The offset just past a pointer-sized field: a struct declaring at least this size
    /// has the field.
    private static func end(of field: PartialKeyPath<sp_model>) -> Int {
        MemoryLayout<sp_model>.offset(of: field)! + MemoryLayout<UnsafeRawPointer>.size
    }

    /// A plugin's array, stepped by its declared struct size; a problem names the array.
    private static func elements<Element: SizedABIStruct>(
        _ base: UnsafePointer<Element>, count: Int, minimumSize: Int = MemoryLayout<Element>.size, what: String
    ) throws(Invalid) -> [Element] {
        do {
            return try ABIArray.elements(base, count: count, minimumSize: minimumSize)
        } catch {
            throw Invalid(message: "\(what): \(error.message)")
        }
    }

    private static func describe(_ action: sp_action, position: Int, in site: String) throws(Invalid)
        -> ActionDescriptor
    {
        guard let name = action.name.map({ String(cString: $0) }), isActionName(name) else {
            // Named, so the author finds it: ``case `return` `` once arrived as "`return`".
            let given = action.name.map { Value.string(String(cString: $0)).compact } ?? "NULL"
            throw Invalid(
                message:
                    "\(site): action \(position + 1) has no valid name: \(given) (letters, digits, '_', '.' between parts, '[]' for a keyed child)"
            )
        }
        var params: [ParamDescriptor] = []
        if action.param_count > 0, action.params == nil {
            throw Invalid(message: "\(site), action '\(name)': param_count is \(action.param_count) but params is NULL")
        }
        // sp_param began without shape and default_value; older plugins' params lack them.
        let paramMinimum = MemoryLayout<sp_param>.offset(of: \sp_param.shape)!
        let declaredParams =
            try action.params.map { list throws(Invalid) in
                try elements(
                    list, count: Int(action.param_count), minimumSize: paramMinimum,
                    what: "\(site), action '\(name)': params")
            } ?? []
        for (index, param) in declaredParams.enumerated() {
            let typeName = param.type.map { String(cString: $0) } ?? ""
            guard let type = ParamType(rawValue: typeName) else {
                throw Invalid(
                    message:
                        "\(site), action '\(name)': parameter \(index) has type \"\(typeName)\"; expected int, double, bool, string or value"
                )
            }
            let label = param.label.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
            let shape: TypeShape?
            let defaultValue: Value?
            do throws(ParamFacts.Problem) {
                (shape, defaultValue) = try ParamFacts.read(
                    type: type, shape: param.shape.map { String(cString: $0) },
                    defaultText: param.default_value.map { String(cString: $0) })
            } catch {
                throw Invalid(
                    message:
                        "\(site), action '\(name)': parameter \(label.map { "'\($0)'" } ?? "\(index)"): \(error.message)"
                )
            }
            params.append(
                ParamDescriptor(
                    label: label, type: type, doc: param.doc.map { String(cString: $0) }, shape: shape,
                    defaultValue: defaultValue))
        }
        var typed: TypedEntry?
        if let entry = action.typed_entry {
            let signature = action.signature.map { String(cString: $0) } ?? ""
            let expected = String(params.compactMap(\.type.letter))
            guard params.allSatisfy({ $0.type != .value }), signature == expected else {
                throw Invalid(
                    message:
                        "\(site), action '\(name)': typed signature \"\(signature)\" does not match its parameters (expected \"\(expected)\"; 'value' parameters cannot be typed)"
                )
            }
            guard let prepared = TypedEntry(function: entry, actionData: action.action_data, params: params.map(\.type))
            else {
                throw Invalid(message: "\(site), action '\(name)': libffi could not prepare signature \"\(signature)\"")
            }
            typed = prepared
        }
        return ActionDescriptor(
            index: position, name: name, doc: action.doc.map { String(cString: $0) }, params: params, typed: typed)
    }

    /// `[A-Za-z_][A-Za-z0-9_-]*`, checked on bytes (it runs for every field of a diff).
    static func isIdentifier(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        guard let first = bytes.next(), first == UInt8(ascii: "_") || isLetter(first) else { return false }
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || isLetter(byte) || (48...57).contains(byte)
            else { return false }
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte)
    }

    static func isActionName(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                let base = part.hasSuffix("[]") ? part.dropLast(2) : part
                return isIdentifier(String(base)) && !base.utf8.contains(UInt8(ascii: "-"))
            }
    }

    /// "ss>b" → ([string, string], "b"); nil when malformed.
    static func parseServiceSignature(_ signature: String) -> (params: [ParamType], result: Character)? {
        let parts = signature.split(separator: ">", omittingEmptySubsequences: false)
        guard parts.count == 2, let result = parts[1].first, parts[1].count == 1, "idbsv".contains(result) else {
            return nil
        }
        var params: [ParamType] = []
        for letter in parts[0] {
            guard let type = ParamType(letter: letter) else { return nil }
            params.append(type)
        }
        return (params, result)
    }
}
