import PluginActionsExpansion
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacroExpansion

/// Reads a plugin target's Swift files and writes the one file of glue the SDK needs for
/// the models its one-line declarations name (`let toasts = PluginModel.observable(ToastStack.self, …)`):
/// the action enum's schema (what `@PluginActions` expands to, by the macro's own code),
/// Codable for the types that lack it, the model's doc and initial state, and the two
/// entry points listing every model. The model files stay as the app has them.
package enum GlueGenerator {
    /// The glue for `files` of the module `module` (the plugin's name in `storeplugin_info`).
    package static func generate(files: [ParsedFile], module: String) -> GlueOutput {
        var generation = Generation(files: files)
        var lines: [ModelLine] = []
        var registers = false
        for file in files {
            let found = ModelLine.find(in: file)
            lines += found.lines
            registers = registers || found.registers
        }
        for line in lines where line.typeName != nil { generation.glue(line) }
        var sections = generation.sections
        if registers {
            // The package exports the entry points itself: hand-written glue, left alone.
        } else if lines.isEmpty {
            if let first = files.first {
                generation.diagnostics.append(
                    .init(
                        place: first.place(of: first.tree), severity: .warning,
                        message:
                            "no model is named, so the plugin registers none: add a line such as `let toasts = PluginModel.observable(ToastStack.self, environment: { _ in .init() })`"
                    ))
            }
        } else {
            let models = lines.map(\.variable).joined(separator: ", ")
            sections.append(
                """
                @_cdecl("storeplugin_info_v1")
                public func storeshGluePluginInfo() -> UnsafeRawPointer {
                    StorePlugin.info(name: \(CodableEmitter.literal(module.lowercased())), version: "0.1.0")
                }

                @_cdecl("storeplugin_register_v1")
                public func storeshGluePluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
                    StorePlugin.register(host: host, error: error, models: [\(models)])
                }
                """)
        }
        let imports = Set(files.flatMap(Self.imports(of:))).union(["import StorePlugin"]).sorted()
        let header = """
            // Written by storesh-glue (the StoreshGlue build-tool plugin) from \(files.count) file(s) of \(module).
            // Do not edit: it is written again whenever they change. docs/plugins.md says what it holds.
            """
        let text = ([header, imports.joined(separator: "\n")] + sections).joined(separator: "\n\n") + "\n"
        return GlueOutput(text: text, diagnostics: generation.diagnostics)
    }

    /// The modules a file imports, so that names in copied default arguments resolve.
    private static func imports(of file: ParsedFile) -> [String] {
        file.tree.statements.compactMap { statement in
            guard let decl = statement.item.as(ImportDeclSyntax.self), decl.importKindSpecifier == nil,
                !decl.attributes.contains(where: { $0.trimmedDescription == "@testable" })
            else { return nil }
            return "import " + decl.path.trimmedDescription
        }
    }
}

/// One run of the generator: the index, what it wrote, and what went wrong.
private struct Generation {
    let index: TypeIndex
    var sections: [String] = []
    var diagnostics: [GlueDiagnostic] = []
    private var glued: Set<String> = []
    private var encodableWritten: Set<String> = []
    private var decodableWritten: Set<String> = []

    init(files: [ParsedFile]) { index = TypeIndex(files: files) }

    mutating func error(_ message: String, at node: some SyntaxProtocol, in file: ParsedFile) {
        diagnostics.append(.init(place: file.place(of: node), severity: .error, message: message))
    }

    /// The glue of the model a line names.
    mutating func glue(_ line: ModelLine) {
        guard let typeName = line.typeName else { return }
        guard let model = index.resolve(typeName, from: []) else {
            error(
                "no type named '\(typeName)' in this target's files (storesh-glue reads only them)", at: line.node,
                in: line.file)
            return
        }
        guard glued.insert(model.qualifiedName).inserted else { return }
        guard model.visible else {
            error(
                "'\(model.qualifiedName)' is private to its file, so the generated file cannot see it: make it internal",
                at: model.node, in: model.file)
            return
        }
        guard model.genericParameters.isEmpty else {
            error(
                "'\(model.qualifiedName)' is generic: a plugin model is one concrete type; name a specialization in a typealias of your own and glue that by hand",
                at: model.node, in: model.file)
            return
        }
        guard model.kind == .structure || model.kind == .enumeration else {
            error(
                "'\(model.qualifiedName)' is not a struct or an enum: a model's state is a value", at: model.node,
                in: model.file)
            return
        }
        let actionName = Self.actionTypeName(of: model)
        guard let action = index.resolve(actionName, from: model.qualifiedName.split(separator: ".").map(String.init)),
            action.kind == .enumeration
        else {
            error(
                "'\(model.qualifiedName)' has no action enum '\(actionName)' in this target's files, so its actions cannot be listed",
                at: model.node, in: model.file)
            return
        }
        guard action.visible else {
            error(
                "'\(action.qualifiedName)' is private to its file, so the generated file cannot list its actions: make it internal",
                at: action.node, in: action.file)
            return
        }
        guard action.genericParameters.isEmpty else {
            error(
                "'\(action.qualifiedName)' is generic: storesh lists the cases of one concrete action enum",
                at: action.node, in: action.file)
            return
        }
        if !line.givesInitial, !model.hasEmptyInit {
            error(
                "'\(model.qualifiedName)' has no init() the generator can see: give the state to start from, initial: { \(model.code)(…) }",
                at: line.node, in: line.file)
        }
        var written: [String] = []
        if !action.hasPluginActions, let schema = schema(of: action) { written.append(schema) }
        var needs = CodableNeeds()
        needs.add(model, decoded: true, index: index)
        needs.add(action, decoded: true, index: index)
        // Two models may share types: each extension is written once.
        for type in needs.encodable where encodableWritten.insert(type.qualifiedName).inserted {
            written.append(CodableEmitter.encodable(type))
        }
        for type in needs.decodable where decodableWritten.insert(type.qualifiedName).inserted {
            written.append(CodableEmitter.decodable(type))
            let qualifier = TypeQualifier(
                index: index, scope: type.qualifiedName.split(separator: ".").map(String.init))
            let shaped = CodableEmitter.shaped(type) {
                qualifier.rewrite(TypeSyntax(stringLiteral: $0)).description
            }
            if let shaped { written.append(shaped) }
        }
        written.append(facts(of: model, decodes: model.isDecodable || needs.decodable.contains { $0 === model }))
        sections += written
    }

    /// The name of the model's action type: what `typealias Action =` or the `action:`
    /// parameter of its `update(state:action:environment:)` names (app code often keeps
    /// its actions in a top-level enum), else the nested `Action`.
    static func actionTypeName(of model: DeclaredType) -> String {
        guard let members = model.node.asProtocol((any DeclGroupSyntax).self)?.memberBlock.members else {
            return "Action"
        }
        for member in members {
            if let alias = member.decl.as(TypeAliasDeclSyntax.self), alias.name.text == "Action" {
                return alias.initializer.value.trimmedDescription
            }
        }
        for member in members {
            guard let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "update" else {
                continue
            }
            let parameters = function.signature.parameterClause.parameters
            if parameters.map(\.firstName.text) == ["state", "action", "environment"] {
                return parameters[parameters.index(after: parameters.startIndex)].type.trimmedDescription
            }
        }
        return "Action"
    }

    /// The model's doc, whether it restores, and its initial state.
    private func facts(of model: DeclaredType, decodes: Bool) -> String {
        let access = model.isPublic ? "public " : ""
        var restorable = "false"
        if model.isDecodable {
            restorable = "true"
        } else if decodes {
            let checks = model.properties.filter { !$0.isConstantWithValue }.map {
                "GeneratedGlue.decodable(\\\(model.code).\($0.code))"
            }
            restorable = checks.isEmpty ? "true" : checks.joined(separator: " && ")
        }
        var text = """
            extension \(model.code): GeneratedModelFacts {
                \(access)static var generatedDoc: String { \(CodableEmitter.literal(model.doc)) }
                \(access)static var generatedRestorable: Bool { \(restorable) }
            }
            """
        if model.hasEmptyInit {
            text += """


                extension \(model.code): GeneratedInitialState {
                    \(access)static func generatedInitialState() -> Self { Self() }
                }
                """
        }
        return text
    }

    /// What `@PluginActions` would expand to on the action enum, by the macro's own code,
    /// as an extension at file scope: each parameter type written as the file must name it
    /// (`Shipping` beside the enum in `Basket` is `Basket.Shipping` there). Its diagnostics
    /// are the generator's, at the same places.
    private mutating func schema(of action: DeclaredType) -> String? {
        guard let enumDecl = action.node.as(EnumDeclSyntax.self) else { return nil }
        let context = BasicMacroExpansionContext()
        let qualifier = TypeQualifier(index: index, scope: action.qualifiedName.split(separator: ".").map(String.init))
        guard
            let schema = PluginActionsMacro.schemaExtension(
                of: enumDecl, extending: TypeSyntax(stringLiteral: action.code),
                qualify: { qualifier.rewrite($0).cast(TypeSyntax.self) }, in: context)
        else {
            self.error("cannot list the actions of '\(action.qualifiedName)'", at: enumDecl.name, in: action.file)
            return nil
        }
        for diagnostic in context.diagnostics {
            diagnostics.append(
                .init(
                    place: action.file.place(of: diagnostic.node),
                    severity: diagnostic.diagMessage.severity == .error ? .error : .warning,
                    message: diagnostic.message))
        }
        guard !context.diagnostics.contains(where: { $0.diagMessage.severity == .error }) else { return nil }
        return schema.description
    }
}

/// Writes the names in a type as a file-scope declaration must: each name the target
/// declares, looked up from inside `scope` as Swift would, becomes its qualified name.
final class TypeQualifier: SyntaxRewriter {
    let index: TypeIndex
    let scope: [String]

    init(index: TypeIndex, scope: [String]) {
        self.index = index
        self.scope = scope
        super.init()
    }

    override func visit(_ node: IdentifierTypeSyntax) -> TypeSyntax {
        let visited = super.visit(node)
        guard let identifier = visited.as(IdentifierTypeSyntax.self),
            let found = index.resolve(identifier.name.text, from: scope)
        else { return visited }
        return TypeSyntax(identifier.with(\.name, .identifier(found.code)))
    }
}
