/// A language-neutral value: what action arguments and state snapshots are made of on
/// both sides of the plugin boundary (see `sp_value` in storeplugin.h).
public enum Value: Hashable, Sendable {
    /// No value: a nil optional.
    case null
    /// A Boolean.
    case bool(Bool)
    /// A 64-bit signed integer.
    case int(Int64)
    /// A double-precision number.
    case double(Double)
    /// UTF-8 text.
    case string(String)
    /// Values in order.
    case array([Value])
    /// Named fields in order; `type` is the record's type name when known.
    case record(type: String?, fields: [Field])
    /// An enum case with its payload (labels may be nil).
    case enumCase(name: String, payload: [Field])

    /// One named (or, in an enum payload, unnamed) member of a record or enum case.
    public struct Field: Hashable, Sendable {
        /// The field's name; nil for an unlabelled enum payload value.
        public var label: String?
        /// The field's value.
        public var value: Value

        /// A field named `label` holding `value`.
        public init(_ label: String?, _ value: Value) {
            self.label = label
            self.value = value
        }
    }

    /// Values are equal when they are the same kind with equal contents. A double equals
    /// the same number or the same bits: a NaN (a reading not taken yet, say) equals
    /// itself, so a state always equals itself and a diff never reports a NaN that stayed.
    /// (Zero's two signs are one number, as for `Double`; hashes agree with this.)
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b || a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.record(let aType, let aFields), .record(let bType, let bFields)): aType == bType && aFields == bFields
        case (.enumCase(let aName, let aPayload), .enumCase(let bName, let bPayload)):
            aName == bName && aPayload == bPayload
        default: false
        }
    }

    /// A record from labelled values, in order.
    public static func record(_ fields: KeyValuePairs<String, Value>, type: String? = nil) -> Value {
        .record(type: type, fields: fields.map { Field($0.key, $0.value) })
    }

    /// The children of an array, record or enum case, labelled where they have labels.
    public var children: [Field] {
        switch self {
        case .array(let items): items.map { Field(nil, $0) }
        case .record(_, let fields), .enumCase(_, let fields): fields
        default: []
        }
    }

    /// The member `label` of a record or enum case, or nil.
    public subscript(label: String) -> Value? {
        children.first { $0.label == label }?.value
    }

    /// The type name used in messages: "int", "string", "record", ….
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .double: "double"
        case .string: "string"
        case .array: "array"
        case .record: "record"
        case .enumCase: "enum"
        }
    }
}

extension Value {
    /// Whether the tree holds fewer than `limit` values, counted until it is known (at
    /// most `limit` steps, however long its lists): what decides that a whole snapshot
    /// costs less than working out changes.
    public func isSmaller(than limit: Int) -> Bool {
        var budget = limit
        return fits(within: &budget)
    }

    private func fits(within budget: inout Int) -> Bool {
        budget -= 1
        guard budget > 0 else { return false }
        switch self {
        case .array(let items):
            guard items.count < budget else { return false }
            for item in items where !item.fits(within: &budget) { return false }
        case .record(_, let fields), .enumCase(_, let fields):
            guard fields.count < budget else { return false }
            for field in fields where !field.value.fits(within: &budget) { return false }
        default:
            break
        }
        return true
    }
}
