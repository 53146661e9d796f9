// Built with the MacrosFromSource trait or Shell (the default). StorePluginMacros provides it to
// the compiler (Plugin.swift); the tests expand it from here.
#if MacrosFromSource || Shell
    import SwiftDiagnostics
    public import SwiftSyntax
    import SwiftSyntaxBuilder
    public import SwiftSyntaxMacros

    /// `@PluginState` on a model's state struct: conforms it to `WireStateWritable`, writing
    /// each stored property as its synthesized `Encodable` conformance encodes it — every
    /// stored instance property, in declaration order, keyed by its name — so a snapshot needs
    /// no `Encoder`.
    ///
    /// What synthesized encoding does not show in the struct's own declaration cannot be
    /// mirrored, so these are compile errors: a `CodingKeys` or `encode(to:)` in the struct,
    /// a property wrapper (encoded as the wrapper), and tuple patterns. Lazy properties are left
    /// out, as synthesized encoding leaves them.
    public struct PluginStateMacro: ExtensionMacro {
        public static func expansion(
            of node: AttributeSyntax,
            attachedTo declaration: some DeclGroupSyntax,
            providingExtensionsOf type: some TypeSyntaxProtocol,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [ExtensionDeclSyntax] {
            guard let structDecl = declaration.as(StructDeclSyntax.self) else {
                context.diagnose(Diagnostic(node: node, message: PluginStateDiagnostic.notAStruct))
                return []
            }
            var fields: [(key: String, access: String)] = []
            var mirrorable = true
            for member in structDecl.memberBlock.members {
                if let problem = unmirrorable(member.decl) {
                    context.diagnose(Diagnostic(node: member.decl, message: problem))
                    mirrorable = false
                    continue
                }
                // Synthesized encoding leaves lazy properties out too.
                guard let variable = member.decl.as(VariableDeclSyntax.self), !isStatic(variable), !isLazy(variable)
                else { continue }
                for binding in variable.bindings where isStored(binding) {
                    guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                        context.diagnose(Diagnostic(node: binding.pattern, message: PluginStateDiagnostic.tuplePattern))
                        mirrorable = false
                        continue
                    }
                    let name = identifier.identifier
                    fields.append((key: name.identifier?.name ?? name.text, access: name.text))
                }
            }
            guard mirrorable else { return [] }
            let writes = fields.map { "try writer.field(\"\($0.key)\", self.\($0.access), in: &record)" }
            let body = (["var record = try writer.beginRecord()"] + writes + ["writer.end(record)"]).joined(
                separator: "\n        ")
            let access = structDecl.modifiers.contains { ["public", "open"].contains($0.name.text) } ? "public " : ""
            let decl: DeclSyntax = """
                extension \(type.trimmed): WireStateWritable {
                    /// Writes the stored properties as `Encodable` encodes them, derived by `@PluginState`.
                    \(raw: access)func writeWireState(to writer: WireStateWriter) throws {
                        \(raw: body)
                    }
                }
                """
            guard let extensionDecl = decl.as(ExtensionDeclSyntax.self) else { return [] }
            return [extensionDecl]
        }

        /// Why a member keeps synthesized encoding from being mirrored, if it does.
        private static func unmirrorable(_ decl: DeclSyntax) -> PluginStateDiagnostic? {
            if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "encode",
                function.signature.parameterClause.parameters.first?.firstName.text == "to"
            {
                return .ownEncode
            }
            if let keys = decl.as(EnumDeclSyntax.self), keys.name.text == "CodingKeys" { return .codingKeys }
            if let alias = decl.as(TypeAliasDeclSyntax.self), alias.name.text == "CodingKeys" { return .codingKeys }
            guard let variable = decl.as(VariableDeclSyntax.self), !isStatic(variable), !isLazy(variable) else {
                return nil
            }
            if !variable.attributes.isEmpty, variable.bindings.contains(where: isStored) { return .wrapper }
            return nil
        }

        private static func isLazy(_ variable: VariableDeclSyntax) -> Bool {
            variable.modifiers.contains { $0.name.text == "lazy" }
        }

        private static func isStatic(_ variable: VariableDeclSyntax) -> Bool {
            variable.modifiers.contains { ["static", "class"].contains($0.name.text) }
        }

        /// A binding with storage: no accessors, or only observers (`willSet`, `didSet`).
        private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
            guard let block = binding.accessorBlock else { return true }
            switch block.accessors {
            case .getter: return false
            case .accessors(let accessors):
                return accessors.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
            }
        }
    }

    enum PluginStateDiagnostic: DiagnosticMessage {
        case notAStruct
        case ownEncode
        case codingKeys
        case wrapper
        case tuplePattern

        var message: String {
            switch self {
            case .notAStruct: "@PluginState goes on the model's state struct"
            case .ownEncode:
                "@PluginState writes what synthesized Encodable encodes; this struct encodes itself (encode(to:)): take @PluginState off"
            case .codingKeys:
                "@PluginState writes properties under their own names; this struct renames them (CodingKeys): take @PluginState off"
            case .wrapper:
                "@PluginState cannot mirror a property wrapper's encoding (the wrapper is encoded, not the value): take @PluginState off"
            case .tuplePattern: "@PluginState needs one name per stored property: declare these separately"
            }
        }

        var diagnosticID: MessageID { MessageID(domain: "StorePluginMacros", id: "\(self)") }
        var severity: DiagnosticSeverity { .error }
    }
#endif
