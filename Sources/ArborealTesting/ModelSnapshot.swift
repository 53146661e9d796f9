import CustomDump

/// A text picture of a model, taken by reflection: every stored property, followed into
/// the model objects it holds, one per line. Two pictures are equal when the models hold
/// the same values, so a reference model that changes in place can still be compared
/// before and after an action. `@Observable` classes show their properties by the names
/// the model declares (without the macro's `_` and registrar).
struct ModelSnapshot: Equatable, CustomStringConvertible {
    let text: String

    init(of value: Any) {
        var writer = Writer()
        writer.write(value, indent: 0)
        text = writer.text
    }

    var description: String { text }

    private struct Writer {
        var text = ""
        /// The objects being written, outermost first: a model that holds its parent is
        /// written as a reference back, not followed forever.
        var open: [ObjectIdentifier] = []

        mutating func write(_ value: Any, indent: Int) {
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                if let wrapped = mirror.children.first?.value { write(wrapped, indent: indent) } else { text += "nil" }
            case .collection:
                list(
                    mirror.children.enumerated().map { ("[\($0.offset)]", $0.element.value) }, open: "[", close: "]",
                    indent: indent)
            case .set:
                elements(mirror.children.map(\.value), indent: indent)
            case .dictionary:
                entries(mirror.children.map(\.value), indent: indent)
            case .class:
                object(value as AnyObject, mirror, indent: indent)
            case .enum:
                enumCase(value, mirror, indent: indent)
            case .struct:
                fields(of: mirror, typeName: typeName(value), indent: indent)
            case .tuple:
                fields(of: mirror, typeName: "", indent: indent)
            default:
                leaf(value)
            }
        }

        private mutating func leaf(_ value: Any) {
            var dumped = ""
            customDump(value, to: &dumped)
            text += dumped
        }

        private mutating func fields(of mirror: Mirror, typeName: String, indent: Int) {
            text += typeName
            list(labelled(mirror), open: "(", close: ")", indent: indent)
        }

        /// A case without a payload as customDump writes it; one with a payload as the
        /// case's name and its values.
        private mutating func enumCase(_ value: Any, _ mirror: Mirror, indent: Int) {
            guard let payload = mirror.children.first else { return leaf(value) }
            text += "\(typeName(value)).\(payload.label ?? "")"
            let values = Mirror(reflecting: payload.value)
            if values.displayStyle == .tuple {
                list(labelled(values), open: "(", close: ")", indent: indent)
            } else {
                text += "(" + picture(payload.value, indent: indent) + ")"
            }
        }

        private mutating func object(_ object: AnyObject, _ mirror: Mirror, indent: Int) {
            let name = typeName(object)
            let id = ObjectIdentifier(object)
            if let depth = open.firstIndex(of: id) {
                text += "\(name)(↩︎ \(open.count - depth) level\(open.count - depth == 1 ? "" : "s") up)"
                return
            }
            open.append(id)
            defer { open.removeLast() }
            var mirrors = [mirror]
            while let parent = mirrors.last?.superclassMirror { mirrors.append(parent) }
            let children = mirrors.reversed().flatMap { labelled($0) }
            let observable = children.contains { $0.label == "_$observationRegistrar" }
            let shown = children.compactMap { child -> (label: String, value: Any)? in
                guard observable else { return child }
                if child.label == "_$observationRegistrar" { return nil }
                return (child.label.hasPrefix("_") ? String(child.label.dropFirst()) : child.label, child.value)
            }
            text += name
            list(shown, open: "(", close: ")", indent: indent)
        }

        private func labelled(_ mirror: Mirror) -> [(label: String, value: Any)] {
            mirror.children.enumerated().map { ($0.element.label ?? "\($0.offset)", $0.element.value) }
        }

        /// A set's elements in the order of their pictures: a set has no order of its own.
        private mutating func elements(_ values: [Any], indent: Int) {
            let pictures = values.map { picture($0, indent: indent + 1) }.sorted()
            block(pictures, opening: "Set([", close: "])", indent: indent)
        }

        /// A dictionary's entries in the order of their keys' pictures.
        private mutating func entries(_ pairs: [Any], indent: Int) {
            let pictures = pairs.map { pair -> String in
                let parts = Mirror(reflecting: pair).children.map(\.value)
                return picture(parts[0], indent: indent + 1) + ": " + picture(parts[1], indent: indent + 1)
            }.sorted()
            block(pictures, opening: "[", close: "]", indent: indent)
        }

        private mutating func list(_ items: [(label: String, value: Any)], open: String, close: String, indent: Int) {
            block(
                items.map { "\($0.label): " + picture($0.value, indent: indent + 1) }, opening: open, close: close,
                indent: indent)
        }

        private mutating func block(_ lines: [String], opening: String, close: String, indent: Int) {
            guard !lines.isEmpty else {
                text += opening + close
                return
            }
            let inner = String(repeating: "  ", count: indent + 1)
            text +=
                opening + "\n" + lines.map { inner + $0 }.joined(separator: ",\n") + "\n"
                + String(repeating: "  ", count: indent) + close
        }

        /// One value's picture at `indent`, written with this writer's open objects.
        private mutating func picture(_ value: Any, indent: Int) -> String {
            let outer = text
            text = ""
            write(value, indent: indent)
            defer { text = outer }
            return text
        }

        private func typeName(_ value: Any) -> String {
            _typeName(type(of: value), qualified: false)
        }
    }
}
