import StoreValue

/// A store's state on the worker's wire: whole, or as the changes from a read the shell
/// already holds (docs/worker-protocol.md, "state"). Reads are numbered by the worker.
enum WireState {
    case whole(number: UInt64, state: Value)
    case changes(number: UInt64, base: UInt64, patches: [StatePatch])
}

extension WireWriter {
    /// Writes `read`: only its changes when the shell holds the read they apply to
    /// (`shellHolds`, the number of the last read sent), else whole.
    mutating func state(_ read: StateRead, shellHolds: UInt64?, whole: Bool = false) {
        if !whole, let patches = read.patches, let shellHolds, shellHolds + 1 == read.number {
            u8(1)
            u64(read.number)
            u64(shellHolds)
            values(patches.map(\.value))
        } else {
            u8(0)
            u64(read.number)
            if let encoded = read.encoded { bytes += encoded } else { value(read.state) }
        }
    }
}

extension WireWriter {
    /// A state read whole, as the plugin wrote it (`Session.readEncodedWhole`).
    mutating func wholeState(number: UInt64, encoded: [UInt8]) {
        u8(0)
        u64(number)
        bytes += encoded
    }
}

extension WireReader {
    mutating func state() throws(WireError) -> WireState {
        switch try u8() {
        case 0:
            return .whole(number: try u64(), state: try value())
        case 1:
            let number = try u64()
            let base = try u64()
            var patches: [StatePatch] = []
            for value in try values() {
                do {
                    patches.append(try StatePatch(value))
                } catch {
                    throw WireError(description: "a state change that does not decode: \(error)")
                }
            }
            return .changes(number: number, base: base, patches: patches)
        case let form:
            throw WireError(description: "unknown state form \(form)")
        }
    }
}
