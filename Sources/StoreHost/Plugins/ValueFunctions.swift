package import CStorePlugin

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The host's implementation of the value functions in `storeplugin_host`: every
/// `sp_value` a plugin builds or the host passes is allocated here, with malloc, and
/// freed by `valueFree`.
///
/// Children and labels live in arrays grown by doubling from eight: their capacity is
/// the smallest power of two not below `count` and 8, so no capacity field is needed in
/// the ABI struct. Eight, not one: a record of five fields grew four times (eight
/// reallocations with its labels), and a sort of 2,000 todos reported 2,000 of them.
package enum ValueFunctions {
    /// A host table with only the value functions filled in: what building a value tree
    /// the way plugins do needs (arguments, restored states, tests).
    package static var table: storeplugin_host {
        var table = storeplugin_host()
        table.value_null = null
        table.value_bool = bool
        table.value_int = int
        table.value_double = double
        table.value_string = string
        table.value_array = array
        table.value_record = record
        table.value_enum = enumCase
        table.value_append = append
        table.value_free = freeValue
        return table
    }

    static func allocate(_ kind: sp_kind) -> UnsafeMutablePointer<sp_value>? {
        guard let raw = calloc(1, MemoryLayout<sp_value>.size) else { return nil }
        let value = raw.bindMemory(to: sp_value.self, capacity: 1)
        value.pointee.kind = kind.rawValue
        return value
    }

    static func copy(_ text: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
        guard let text else { return nil }
        return UnsafePointer(strdup(text))
    }

    static func copy(_ text: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        UnsafePointer(strdup(text))
    }

    static let null: @convention(c) () -> UnsafeMutablePointer<sp_value>? = { allocate(SP_NULL) }
    static let bool: @convention(c) (Bool) -> UnsafeMutablePointer<sp_value>? = { flag in
        let value = allocate(SP_BOOL)
        value?.pointee.scalar.boolean = flag
        return value
    }
    static let int: @convention(c) (Int64) -> UnsafeMutablePointer<sp_value>? = { number in
        let value = allocate(SP_INT)
        value?.pointee.scalar.integer = number
        return value
    }
    static let double: @convention(c) (Double) -> UnsafeMutablePointer<sp_value>? = { number in
        let value = allocate(SP_DOUBLE)
        value?.pointee.scalar.real = number
        return value
    }
    static let string: @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<sp_value>? = { text in
        let value = allocate(SP_STRING)
        value?.pointee.text = text.map(copy) ?? UnsafePointer(strdup(""))
        return value
    }
    static let array: @convention(c) () -> UnsafeMutablePointer<sp_value>? = { allocate(SP_ARRAY) }
    static let record: @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<sp_value>? = { type in
        let value = allocate(SP_RECORD)
        value?.pointee.text = copy(type)
        return value
    }
    static let enumCase: @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<sp_value>? = { name in
        let value = allocate(SP_ENUM)
        value?.pointee.text = name.map(copy) ?? UnsafePointer(strdup(""))
        return value
    }

    /// The room a container's first child gets (see the type's note).
    static let initialCapacity = 8

    static let append:
        @convention(c) (
            UnsafeMutablePointer<sp_value>?, UnsafePointer<CChar>?, UnsafeMutablePointer<sp_value>?
        ) -> Int32 = { container, label, child in
            guard let container, let child else {
                freeValue(child)
                return Int32(SP_ERR_BAD_ARGUMENTS)
            }
            let kind = sp_kind(rawValue: container.pointee.kind)
            let labelOK: Bool
            switch kind {
            case SP_ARRAY: labelOK = label == nil
            case SP_RECORD: labelOK = label != nil
            case SP_ENUM: labelOK = true
            default: labelOK = false
            }
            guard labelOK else {
                freeValue(child)
                return Int32(SP_ERR_BAD_ARGUMENTS)
            }
            let count = Int(container.pointee.count)
            if count == 0 || (count >= initialCapacity && count & (count - 1) == 0) {
                let capacity = max(initialCapacity, count * 2)
                let items = realloc(
                    UnsafeMutableRawPointer(mutating: container.pointee.items),
                    capacity * MemoryLayout<UnsafeMutableRawPointer?>.stride)
                let names = realloc(
                    UnsafeMutableRawPointer(mutating: container.pointee.names),
                    capacity * MemoryLayout<UnsafeRawPointer?>.stride)
                if let items {
                    container.pointee.items = UnsafePointer(
                        items.assumingMemoryBound(to: UnsafeMutablePointer<sp_value>?.self))
                }
                if let names {
                    container.pointee.names = UnsafePointer(names.assumingMemoryBound(to: UnsafePointer<CChar>?.self))
                }
                guard items != nil, names != nil else {
                    freeValue(child)
                    return Int32(SP_ERR_NO_MEMORY)
                }
            }
            UnsafeMutablePointer(mutating: container.pointee.items!)[count] = child
            UnsafeMutablePointer(mutating: container.pointee.names!)[count] = copy(label)
            container.pointee.count = UInt32(count + 1)
            return Int32(SP_OK)
        }

    /// Frees a tree without recursion: a plugin may hand over a tree of any depth.
    static let freeValue: @convention(c) (UnsafeMutablePointer<sp_value>?) -> Void = { root in
        var pending: [UnsafeMutablePointer<sp_value>] = root.map { [$0] } ?? []
        while let value = pending.popLast() {
            let count = Int(value.pointee.count)
            if let items = value.pointee.items {
                for index in 0..<count {
                    if let item = items[index] { pending.append(UnsafeMutablePointer(mutating: item)) }
                }
                free(UnsafeMutableRawPointer(mutating: items))
            }
            if let names = value.pointee.names {
                for index in 0..<count { free(UnsafeMutableRawPointer(mutating: names[index])) }
                free(UnsafeMutableRawPointer(mutating: names))
            }
            free(UnsafeMutableRawPointer(mutating: value.pointee.text))
            free(value)
        }
    }
}
