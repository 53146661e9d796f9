import CFFI
import CStorePlugin
import StoreValue

#if canImport(Glibc)
    import Glibc
#endif

/// Calls a typed entry point through libffi:
/// `int32_t entry(void *store, void *action_data, sp_dispatch_result *, sp_error *, args…)`.
enum FFICall {
    static func call(
        _ entry: TypedEntry,
        store: UnsafeMutableRawPointer,
        arguments: [Value],
        result: UnsafeMutablePointer<sp_dispatch_result>,
        error: UnsafeMutablePointer<sp_error>
    ) -> Int32 {
        let count = 4 + entry.params.count
        // One 8-byte slot per argument holds its C value; libffi is given the slots'
        // addresses. Both live on the stack: no allocation per call.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { slots in
            withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: count) { pointers in
                var strings: [UnsafeMutablePointer<CChar>] = []
                defer { strings.forEach { free($0) } }
                let raw = UnsafeMutableRawPointer(slots.baseAddress!)
                raw.storeBytes(of: store, toByteOffset: 0, as: UnsafeMutableRawPointer.self)
                raw.storeBytes(of: entry.actionData, toByteOffset: 8, as: UnsafeMutableRawPointer?.self)
                raw.storeBytes(of: UnsafeMutableRawPointer(result), toByteOffset: 16, as: UnsafeMutableRawPointer.self)
                raw.storeBytes(of: UnsafeMutableRawPointer(error), toByteOffset: 24, as: UnsafeMutableRawPointer.self)
                for (index, (type, value)) in zip(entry.params, arguments).enumerated() {
                    let offset = (4 + index) * 8
                    switch (type, value) {
                    case (.int, .int(let v)): raw.storeBytes(of: v, toByteOffset: offset, as: Int64.self)
                    case (.double, .double(let v)): raw.storeBytes(of: v, toByteOffset: offset, as: Double.self)
                    case (.double, .int(let v)): raw.storeBytes(of: Double(v), toByteOffset: offset, as: Double.self)
                    case (.bool, .bool(let v)):
                        raw.storeBytes(of: v ? 1 as UInt8 : 0, toByteOffset: offset, as: UInt8.self)
                    case (.string, .string(let v)):
                        let copy = strdup(v)!
                        strings.append(copy)
                        raw.storeBytes(
                            of: UnsafeMutableRawPointer(copy), toByteOffset: offset, as: UnsafeMutableRawPointer.self)
                    default:
                        error.write("argument \(index + 1) should be \(type.rawValue), not \(value.kindName)")
                        return Int32(SP_ERR_BAD_ARGUMENTS)
                    }
                }
                for index in 0..<count { pointers[index] = raw + index * 8 }
                var returned: Int64 = 0  // at least sizeof(ffi_arg)
                cffi_call(entry.cif, entry.function, &returned, pointers.baseAddress!)
                return Int32(truncatingIfNeeded: returned)
            }
        }
    }
}
