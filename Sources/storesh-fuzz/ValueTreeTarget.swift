import CStorePlugin
import Foundation
import StoreHost
import StoreValue

extension FuzzTarget {
    /// Bytes as a program of the value-function calls a plugin makes to build a state
    /// (storeplugin.h): scalars, strings of any bytes, containers, appends with and without
    /// labels (some refused), nesting past `Value.maxDepth`. Reading the tree must give a
    /// value or a `TooDeep` error, never a trap; a value read, built again and read again
    /// must be the same value.
    static func valueTree(_ data: Data) {
        let table = ValueFunctions.table
        var bytes = Array(data.prefix(8192))[...]
        func next() -> UInt8 { bytes.popFirst() ?? 0 }
        func text(_ length: Int) -> [CChar] { (0..<length).map { _ in CChar(bitPattern: next()) } + [0] }
        func label() -> [CChar]? { next() % 3 == 0 ? nil : text(Int(next() % 6)) }
        var stack: [UnsafeMutablePointer<sp_value>] = []
        /// Appends the top of the stack to the one below it; a refused append frees it.
        func fold(label: [CChar]?) {
            guard stack.count > 1 else { return }
            let child = stack.removeLast()
            _ =
                label.map { name in
                    name.withUnsafeBufferPointer { table.value_append(stack.last!, $0.baseAddress, child) }
                }
                ?? table.value_append(stack.last!, nil, child)
        }
        while !bytes.isEmpty {
            var made: UnsafeMutablePointer<sp_value>?
            switch next() % 10 {
            case 0: made = table.value_null()
            case 1: made = table.value_bool(next() & 1 == 1)
            case 2: made = table.value_int(Int64(Int8(bitPattern: next())) << Int64(next() % 56))
            // finite: NaN is not equal to itself
            case 3: made = table.value_double(Double(Int8(bitPattern: next())) / 4)
            case 4: made = text(Int(next() % 16)).withUnsafeBufferPointer { table.value_string($0.baseAddress) }
            case 5: made = table.value_array()
            case 6:
                made =
                    label().map { type in type.withUnsafeBufferPointer { table.value_record($0.baseAddress) } }
                    ?? table.value_record(nil)
            case 7: made = text(Int(next() % 6)).withUnsafeBufferPointer { table.value_enum($0.baseAddress) }
            case 8: fold(label: label())
            default: fold(label: nil)
            }
            if let made { stack.append(made) }
        }
        while stack.count > 1 { fold(label: nil) }
        guard let root = stack.first else { return }
        defer { table.value_free(root) }
        guard let value = try? Value(reading: root) else { return }
        guard Value.stableHash(reading: root) == value.stableHash else {
            violated("a tree's hash, worked out from the tree, is not its value's: \(value.brief())")
        }
        guard let again = value.build(with: table) else {
            violated("a value read from a tree could not be built again")
        }
        defer { table.value_free(again) }
        guard (try? Value(reading: again)) == value else {
            violated("a tree read, built and read again gives another value: \(value.brief())")
        }
    }
}
