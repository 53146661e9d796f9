import SwiftSyntax

/// A top-level `let NAME = PluginModel.observable(…)` (or `.arboreal(…)`): a model the
/// plugin registers. With a type first (`PluginModel.observable(ToastStack.self, …)`),
/// the generator writes that type's glue too.
struct ModelLine {
    let variable: String
    /// The type named by `T.self`, as written; nil for the long form (`"name", doc: …`).
    let typeName: String?
    let givesInitial: Bool
    let file: ParsedFile
    let node: Syntax

    /// The model lines of `file`, and whether it exports the entry points itself.
    static func find(in file: ParsedFile) -> (lines: [ModelLine], registers: Bool) {
        var lines: [ModelLine] = []
        var registers = false
        for statement in file.tree.statements {
            guard case .decl(let decl) = statement.item else { continue }
            if let function = decl.as(FunctionDeclSyntax.self),
                function.attributes.contains(where: {
                    $0.as(AttributeSyntax.self)?.trimmedDescription.contains("storeplugin_register_v1") ?? false
                })
            {
                registers = true
            }
            guard let variable = decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self),
                    let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
                    let callee = call.calledExpression.as(MemberAccessExprSyntax.self),
                    ["observable", "arboreal"].contains(callee.declName.baseName.text),
                    callee.base?.trimmedDescription == "PluginModel"
                else { continue }
                var typeName: String?
                if let first = call.arguments.first, first.label == nil,
                    let access = first.expression.as(MemberAccessExprSyntax.self),
                    access.declName.baseName.text == "self", let base = access.base
                {
                    typeName = base.trimmedDescription
                }
                lines.append(
                    ModelLine(
                        variable: pattern.identifier.text, typeName: typeName,
                        givesInitial: call.arguments.contains { $0.label?.text == "initial" }, file: file,
                        node: Syntax(call)))
            }
        }
        return (lines, registers)
    }
}

/// What each type of a model needs written, found by walking from the state and the
/// action enum through stored properties and payloads to the types the files declare.
struct CodableNeeds {
    private(set) var encodable: [DeclaredType] = []
    private(set) var decodable: [DeclaredType] = []
    private var seen: Set<String> = []

    /// `type` is shown (encoded); with `decoded`, also built from text or a snapshot.
    mutating func add(_ type: DeclaredType, decoded: Bool, index: TypeIndex) {
        let key = type.qualifiedName + (decoded ? "+decode" : "")
        guard seen.insert(key).inserted, type.visible, type.kind != .other else { return }
        if !type.isEncodable, !encodable.contains(where: { $0 === type }) { encodable.append(type) }
        if decoded, !type.isDecodable, CodableEmitter.canDecode(type) { decodable.append(type) }
        let scope = type.qualifiedName.split(separator: ".").map(String.init)
        var written: [String] = type.properties.compactMap(\.type)
        written += type.cases.flatMap { $0.arguments.map(\.type) }
        for text in written {
            for name in Self.typeNames(in: text) where !type.genericParameters.contains(name) {
                if let found = index.resolve(name, from: scope) { add(found, decoded: decoded, index: index) }
            }
        }
    }

    /// The type names a type's text mentions: `[String: Form.Field<Int>]` → String, Form.Field, Int.
    static func typeNames(in text: String) -> [String] {
        var names: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber || character == "_" || character == "." || character == "`" {
                current.append(character)
            } else {
                if !current.isEmpty { names.append(current) }
                current = ""
            }
        }
        if !current.isEmpty { names.append(current) }
        return names.filter { !$0.hasPrefix(".") && $0.first?.isNumber == false }
    }
}
