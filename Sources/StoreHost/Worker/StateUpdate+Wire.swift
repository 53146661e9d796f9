package import StoreValue

// A store's state on the worker's wire (docs/worker-protocol.md, "state"): whole, or as
// the changes from a state the shell already holds. Reads are numbered by the worker.

extension WireWriter {
    /// Writes a state update as the worker's connection read it.
    package mutating func state(_ update: StateUpdate) {
        switch update {
        case .whole(let number, let state):
            u8(0)
            u64(number)
            value(state)
        case .changes(let number, let base, let patches):
            u8(1)
            u64(number)
            u64(base)
            values(patches.map(\.value))
        }
    }

    /// A state read whole, as the plugin wrote it (`InProcessConnection.readEncodedWhole`).
    package mutating func wholeState(number: UInt64, encoded: [UInt8]) {
        u8(0)
        u64(number)
        bytes += encoded
    }
}

extension WireReader {
    mutating func state() throws(WireError) -> StateUpdate {
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
