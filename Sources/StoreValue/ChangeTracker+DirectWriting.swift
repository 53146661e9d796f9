#if canImport(Glibc)
    import Glibc
#endif

/// Small snapshots written by the state itself: a `WireStateWritable` state (`@PluginState`)
/// writes its bytes field by field instead of through an `Encoder`. The first small
/// snapshot of a tracker is written both ways; the state's own writing is used from then on
/// only when it gave the same bytes.
extension ChangeTracker {
    /// How a tracker writes its small snapshots.
    enum DirectWriting {
        /// Not known yet: the first small snapshot finds out.
        case unresolved
        /// Through the state's `writeWireState`, which gave what `Encodable` gives.
        case direct(DirectWrite)
        /// Through `Encodable`.
        case encodable
    }

    /// Calls `writeWireState` on the state the pointer points to.
    typealias DirectWrite = (UnsafeRawPointer, WireStateWriter) throws -> Void

    /// Writes a small state's bytes into `wireEncoder`; false when it is not small.
    func encodeSmall<T: Encodable>(_ state: T) -> Bool {
        switch directWriting {
        case .direct(let write): (try? encodeDirect(state, write)) == true
        case .encodable: encodeThroughEncodable(state)
        case .unresolved: firstSmallEncoding(state)
        }
    }

    private func encodeThroughEncodable<T: Encodable>(_ state: T) -> Bool {
        (try? wireEncoder.encode(state, rootType: rootType, within: smallState)) == true
    }

    private func encodeDirect<T>(_ state: T, _ write: DirectWrite) throws -> Bool {
        try withUnsafePointer(to: state) { pointer in
            try wireEncoder.encode(rootType: rootType, within: smallState) { writer in
                try write(UnsafeRawPointer(pointer), writer)
            }
        }
    }

    /// Both ways, once: the state's own writing is kept when it gives the same bytes.
    private func firstSmallEncoding<T: Encodable>(_ state: T) -> Bool {
        guard encodeThroughEncodable(state) else { return false }  // not small (yet): asked again later
        guard let write = Self.directWrite(for: T.self) else {
            directWriting = .encodable
            return true
        }
        let expected = Array(wireEncoder.bytes)
        if (try? encodeDirect(state, write)) == true, wireEncoder.bytes.elementsEqual(expected) {
            directWriting = .direct(write)
            return true
        }
        directWriting = .encodable
        Self.warn(
            "warning: \(rootType ?? "\(T.self)")'s WireStateWritable conformance (@PluginState) writes other bytes than its Encodable conformance; its snapshots go through Encodable (is there a CodingKeys or encode(to:) in an extension?)\n"
        )
        return encodeThroughEncodable(state)
    }

    /// `writeWireState` of `T`, when `T` has one.
    private static func directWrite<T>(for type: T.Type) -> DirectWrite? {
        guard let writable = type as? any WireStateWritable.Type else { return nil }
        func write<W: WireStateWritable>(_: W.Type) -> DirectWrite {
            { pointer, writer in try pointer.assumingMemoryBound(to: W.self).pointee.writeWireState(to: writer) }
        }
        return write(writable)
    }

    private static func warn(_ text: String) {
        #if canImport(Glibc)
            var text = text
            text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
        #endif
    }
}
