/// Writes `Encodable` and `Decodable` for types declared without them, from another file:
/// stored properties by name, enums in the shape Swift synthesizes (`{case: {label: …}}`,
/// positional arguments `_0`, `_1`, …), which is the shape storesh's action text and
/// snapshots read. What the compiler does not know to be Codable goes through
/// `GeneratedGlue`'s overloads: shown by reflection, refused as text.
enum CodableEmitter {
    /// `extension T: Encodable { … }`.
    static func encodable(_ type: DeclaredType) -> String {
        let access = type.isPublic ? "public " : ""
        var body: [String]
        switch type.kind {
        case .enumeration:
            body = ["var container = encoder.container(keyedBy: GeneratedGlue.Key.self)", "switch self {"]
            for enumCase in type.cases {
                let bindings = enumCase.arguments.indices.map { "let p\($0)" }
                let pattern = bindings.isEmpty ? "" : "(\(bindings.joined(separator: ", ")))"
                body.append("case .\(enumCase.code)\(pattern):")
                if enumCase.arguments.isEmpty {
                    body.append(
                        "    _ = container.nestedContainer(keyedBy: GeneratedGlue.Key.self, forKey: .init(\(literal(enumCase.name))))"
                    )
                    continue
                }
                body.append(
                    "    var payload = container.nestedContainer(keyedBy: GeneratedGlue.Key.self, forKey: .init(\(literal(enumCase.name))))"
                )
                for (index, argument) in enumCase.arguments.enumerated() {
                    body.append("    try GeneratedGlue.encode(p\(index), \(literal(argument.key)), into: &payload)")
                }
            }
            body.append("}")
        default:
            if type.properties.contains(where: \.isHidden) {
                // Private stored properties: only reflection reaches them from this file.
                body = ["try GeneratedGlue.encodeReflecting(self, to: encoder)"]
            } else {
                body = ["var container = encoder.container(keyedBy: GeneratedGlue.Key.self)"]
                for property in type.properties {
                    body.append(
                        "try GeneratedGlue.encode(self.\(property.code), \(literal(property.name)), into: &container)")
                }
                if type.properties.isEmpty { body = ["_ = encoder.container(keyedBy: GeneratedGlue.Key.self)"] }
            }
        }
        return """
            extension \(type.code): Encodable {
                \(access)func encode(to encoder: any Encoder) throws {
                    \(body.joined(separator: "\n        "))
                }
            }
            """
    }

    /// Whether `Decodable` can be written from another file: an enum, or a struct whose
    /// stored properties can all be set from here and decoded (no closure, no wrapper).
    static func canDecode(_ type: DeclaredType) -> Bool {
        switch type.kind {
        case .enumeration: true
        case .structure: !type.properties.contains { $0.isHidden || $0.isUndecodable }
        default: false
        }
    }

    /// `extension T: Decodable { init(from:) }`, for a type `canDecode` accepts; a generic
    /// type decodes where its parameters do.
    static func decodable(_ type: DeclaredType) -> String {
        let access = type.isPublic ? "public " : ""
        let constraints =
            type.genericParameters.isEmpty
            ? "" : " where " + type.genericParameters.map { "\($0): Decodable" }.joined(separator: ", ")
        var body: [String]
        if type.kind == .enumeration {
            body = ["let (name, payload) = try GeneratedGlue.enumCase(from: decoder)", "_ = payload", "switch name {"]
            for enumCase in type.cases {
                body.append("case \(literal(enumCase.name)):")
                if enumCase.arguments.isEmpty {
                    body.append("    self = .\(enumCase.code)")
                    continue
                }
                let arguments = enumCase.arguments.map { argument in
                    let value =
                        argument.defaultValue.map {
                            "try GeneratedGlue.decode(\(literal(argument.key)), from: payload, default: \($0))"
                        } ?? "try GeneratedGlue.decode(\(literal(argument.key)), from: payload)"
                    return argument.label.map { "\(labelCode($0)): \(value)" } ?? value
                }
                body.append("    self = .\(enumCase.code)(\(arguments.joined(separator: ", ")))")
            }
            body.append("default:")
            body.append("    throw GeneratedGlue.unknownCase(name, of: Self.self, in: decoder)")
            body.append("}")
        } else {
            body = ["let container = try decoder.container(keyedBy: GeneratedGlue.Key.self)", "_ = container"]
            for property in type.properties where !property.isConstantWithValue {
                body.append(
                    "self.\(property.code) = try GeneratedGlue.decode(\(literal(property.name)), from: container)")
            }
        }
        return """
            extension \(type.code): Decodable\(constraints) {
                \(access)init(from decoder: any Decoder) throws {
                    \(body.joined(separator: "\n        "))
                }
            }
            """
    }

    /// `extension E: PluginShaped { … }` for an enum the generator writes `Decodable` for:
    /// its cases and their payloads' shapes, so that the prompt completes them, `:actions`
    /// and `:help` show them and explore generates them (run-time discovery cannot see the
    /// cases of an enum with payloads). Nil for a generic enum or one that states or
    /// discovers its shape itself (`PluginShaped`, `CaseIterable`). `qualify` writes a
    /// payload's type as a file-scope extension must name it (`Style` → `Toasts.Style`).
    static func shaped(_ type: DeclaredType, qualify: (String) -> String) -> String? {
        guard type.kind == .enumeration, type.genericParameters.isEmpty,
            type.conformances.isDisjoint(with: ["PluginShaped", "CaseIterable"])
        else { return nil }
        let access = type.isPublic ? "public " : ""
        let name = type.qualifiedName.split(separator: ".").last.map(String.init) ?? type.qualifiedName
        let cases = type.cases.map { enumCase -> String in
            guard !enumCase.arguments.isEmpty else { return ".init(\(literal(enumCase.name)))" }
            let fields = enumCase.arguments.map { argument in
                ".init(\(argument.label.map(literal) ?? "nil"), GeneratedGlue.shape(of: (\(qualify(argument.type))).self))"
            }
            return ".init(\(literal(enumCase.name)), payload: [\(fields.joined(separator: ", "))])"
        }
        return """
            extension \(type.code): PluginShaped {
                \(access)static var pluginShape: TypeShape {
                    GeneratedGlue.stating(Self.self) {
                        .choice(
                            name: \(literal(name)),
                            cases: [
                                \(cases.joined(separator: ",\n                    "))
                            ])
                    }
                }
            }
            """
    }

    /// An argument label as code writes it (a keyword label needs no backticks there,
    /// except `inout`, `var`, `let`).
    private static func labelCode(_ label: String) -> String {
        ["inout", "var", "let"].contains(label) ? "`\(label)`" : label
    }

    static func literal(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return "\"\(escaped)\""
    }
}
