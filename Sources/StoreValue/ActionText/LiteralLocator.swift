// Finding a place inside a literal's text: where an argument's mistake is, so that an error
// points at the value that is wrong (the `300` in `items: [{sku: "a", count: 300}]`), not
// at the argument's label.

extension LiteralScanner {
    /// The byte offset, in `bytes`, of the part of the literal starting at `start` that
    /// `steps` lead to; nil when the text does not hold it (a case typed by its name, a
    /// literal with a mistake), and the caller points at the whole literal.
    package static func offset(of steps: [ShapePath.Step], inLiteralAt start: Int, of bytes: [UInt8]) -> Int? {
        var scanner = LiteralScanner(bytes: bytes, index: start)
        for step in steps {
            scanner.skipSpaces()
            switch step {
            case .index(let wanted):
                guard scanner.current == UInt8(ascii: "["), wanted >= 0 else { return nil }
                scanner.index += 1
                for _ in 0..<wanted {
                    guard scanner.skipItem() else { return nil }
                }
            case .field(let name):
                guard scanner.current == UInt8(ascii: "{") else { return nil }
                scanner.index += 1
                while true {
                    scanner.skipSpaces()
                    let label: String
                    if scanner.current == UInt8(ascii: "\"") {
                        guard let quoted = try? scanner.string() else { return nil }
                        label = quoted
                    } else if let word = scanner.identifier() {
                        label = word
                    } else {
                        return nil
                    }
                    scanner.skipSpaces()
                    guard scanner.current == UInt8(ascii: ":") else { return nil }
                    scanner.index += 1
                    if label == name { break }
                    guard scanner.skipItem() else { return nil }
                }
            }
        }
        scanner.skipSpaces()
        return scanner.atEnd ? nil : scanner.index
    }

    /// Where the value of the argument at `offset` starts: after its `label:`, if it has one.
    package static func valueStart(at offset: Int, of bytes: [UInt8]) -> Int {
        var scanner = LiteralScanner(bytes: bytes, index: offset)
        scanner.skipSpaces()
        let start = scanner.index
        if scanner.identifier() != nil {
            scanner.skipSpaces()
            if scanner.current == UInt8(ascii: ":") {
                scanner.index += 1
                scanner.skipSpaces()
                return scanner.index
            }
        }
        return start
    }

    /// Skips one item of a list or record and the ',' after it; false when there is no
    /// next item (the list or record ends, or the text has a mistake).
    private mutating func skipItem() -> Bool {
        skipSpaces()
        guard (try? literal()) != nil else { return false }
        skipSpaces()
        guard current == UInt8(ascii: ",") else { return false }
        index += 1
        return true
    }
}
