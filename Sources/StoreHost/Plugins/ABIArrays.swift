import CStorePlugin

/// An ABI struct that starts with its own size (see "Versioning" in storeplugin.h).
protocol SizedABIStruct {
    init()
}

extension sp_action: SizedABIStruct {}
extension sp_param: SizedABIStruct {}
extension sp_service: SizedABIStruct {}
extension sp_model: SizedABIStruct {}
extension sp_check: SizedABIStruct {}

/// Reads a plugin's arrays of ABI structs the way the header promises: stepped by the
/// struct_size the plugin declared (a plugin built against a newer header has larger
/// structs with fields this host does not know, which are ignored), never by this
/// host's own `MemoryLayout.stride`.
enum ABIArray {
    struct Problem: Error {
        let message: String
    }

    /// The `count` elements at `base`, each copied into a zeroed struct of this host's
    /// layout. Every element must declare the same size, at least `minimumSize` (the
    /// size of the struct when it entered the ABI).
    static func elements<Element: SizedABIStruct>(
        _ base: UnsafePointer<Element>, count: Int, minimumSize: Int = MemoryLayout<Element>.size
    ) throws(Problem) -> [Element] {
        guard count > 0 else { return [] }
        let raw = UnsafeRawPointer(base)
        let stride = Int(raw.loadUnaligned(as: UInt32.self))
        guard stride >= minimumSize else {
            throw Problem(message: "struct_size is \(stride), smaller than the \(minimumSize) bytes of version 1")
        }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for index in 0..<count {
            let source = raw + index * stride
            let declared = Int(source.loadUnaligned(as: UInt32.self))
            guard declared == stride else {
                throw Problem(
                    message: "element \(index) declares struct_size \(declared), element 0 declares \(stride)")
            }
            var element = Element()
            withUnsafeMutableBytes(of: &element) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: source, count: min(stride, target.count)))
            }
            elements.append(element)
        }
        return elements
    }
}
