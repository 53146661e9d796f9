// Built with the MacrosFromSource trait or Shell (the default): the macro StorePluginMacros and the glue
// generator storesh-glue (StoreGlue) both expand @PluginActions with this code.
#if MacrosFromSource || Shell
    import SwiftDiagnostics
    public import SwiftSyntax
    import SwiftSyntaxBuilder
    public import SwiftSyntaxMacros

    /// `@PluginActions` on an action enum: derives the schema storesh shows and parses —
    /// every case's name, labels, parameter kinds and doc comment — as a static member of
    /// the enum (so its types are looked up as the enum's own body looks them up: a sibling
    /// nested type `Shipping` of the enclosing `Basket` is found unqualified), and an
    /// extension that conforms the enum to `PluginActions`.
    ///
    /// A case whose payload is one child action enum (`case child(Child.Action)`), or a key
    /// and one (`case todos(String, Todo.Action)`), expands to the child's own schema
    /// (`child.increment`, `todos[].toggle`): the generated code asks the compiler, through
    /// overloads of `PluginActionSchemas`, whether the payload type is itself
    /// `PluginActions`, so nothing is guessed from type names.
    public struct PluginActionsMacro: MemberMacro, ExtensionMacro {
        /// The member: `static var pluginActions`, diagnosing mistakes at their cases.
        public static func expansion(
            of node: AttributeSyntax,
            providingMembersOf declaration: some DeclGroupSyntax,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            guard let enumDecl = declaration.as(EnumDeclSyntax.self) else {
                context.diagnose(Diagnostic(node: node, message: PluginActionsDiagnostic.notAnEnum))
                return []
            }
            return [schemaMember(of: enumDecl, qualify: { $0 }, in: context)]
        }

        /// The conformance, when the enum does not declare it already.
        public static func expansion(
            of node: AttributeSyntax,
            attachedTo declaration: some DeclGroupSyntax,
            providingExtensionsOf type: some TypeSyntaxProtocol,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [ExtensionDeclSyntax] {
            guard declaration.is(EnumDeclSyntax.self), !protocols.isEmpty else { return [] }
            let decl: DeclSyntax = "extension \(type.trimmed): PluginActions {}"
            return decl.as(ExtensionDeclSyntax.self).map { [$0] } ?? []
        }

        /// What the glue generator writes for an action enum it cannot annotate: the
        /// conformance and the member in one extension of `type`, at file scope. There
        /// names are looked up from the file, not from the enum, so `qualify` writes each
        /// parameter type as the file must (`Shipping` → `Basket.Shipping`).
        public static func schemaExtension(
            of enumDecl: EnumDeclSyntax,
            extending type: some TypeSyntaxProtocol,
            qualify: (TypeSyntax) -> TypeSyntax,
            in context: some MacroExpansionContext
        ) -> ExtensionDeclSyntax? {
            let member = schemaMember(of: enumDecl, qualify: qualify, in: context)
            let decl: DeclSyntax = """
                extension \(type.trimmed): PluginActions {
                    \(member)
                }
                """
            return decl.as(ExtensionDeclSyntax.self)
        }

        /// `static var pluginActions`; a mistake in a case is diagnosed there, the case left out.
        private static func schemaMember(
            of enumDecl: EnumDeclSyntax, qualify: (TypeSyntax) -> TypeSyntax, in context: some MacroExpansionContext
        ) -> DeclSyntax {
            var entries: [String] = []
            var seen: [String: Syntax] = [:]
            for member in enumDecl.memberBlock.members {
                guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
                let doc = DocComment(caseDecl.leadingTrivia)
                for element in caseDecl.elements {
                    let name = bare(element.name)
                    if let earlier = seen[name] {
                        context.diagnose(
                            Diagnostic(
                                node: element, message: PluginActionsDiagnostic.duplicate(name),
                                notes: [
                                    Note(node: earlier, message: PluginActionsNote.firstHere)
                                ]))
                        continue
                    }
                    seen[name] = Syntax(element)
                    guard let entry = entry(for: element, doc: doc, qualify: qualify, in: context) else { continue }
                    entries.append(entry)
                }
            }
            let body = (["var all: [ActionSchema<Self>] = []"] + entries.map { "all += \($0)" } + ["return all"])
                .joined(separator: "\n    ")
            let access = enumDecl.modifiers.contains { ["public", "open"].contains($0.name.text) } ? "public " : ""
            return """
                /// Every action, derived from the enum by `@PluginActions`.
                \(raw: access)static var pluginActions: [ActionSchema<Self>] {
                    \(raw: body)
                }
                """
        }

        /// The schemas of one case, as an expression of type `[ActionSchema<Self>]`.
        private static func entry(
            for element: EnumCaseElementSyntax, doc: DocComment, qualify: (TypeSyntax) -> TypeSyntax,
            in context: some MacroExpansionContext
        ) -> String? {
            let name = literal(bare(element.name))
            let docText = literal(doc.summary)
            guard let parameters = element.parameterClause?.parameters, !parameters.isEmpty else {
                return "[ActionSchema(\(name), \(docText))]"
            }
            let items = Array(parameters)
            let labels = items.map { $0.firstName.map { $0.text == "_" ? "nil" : literal(bare($0)) } ?? "nil" }
            let types = items.map { qualify($0.type).trimmedDescription }
            var argumentDocs = doc.arguments(
                labels: items.map { $0.firstName?.text == "_" ? nil : $0.firstName.map(bare) })
            let domains = items.indices.map { index in
                domain(of: items[index], at: index, doc: argumentDocs[index], in: context)
            }
            // A default the shell can take is passed as literal text; any other makes the
            // argument required, and its doc says why.
            var defaults: [String?] = []
            for (index, item) in items.enumerated() {
                guard let expression = item.defaultValue?.value else {
                    defaults.append(nil)
                    continue
                }
                if let text = DefaultLiteral.text(of: expression) {
                    defaults.append(text)
                } else {
                    defaults.append(nil)
                    let why =
                        "required: its default `\(expression.trimmedDescription)` is not a literal storesh can take"
                    argumentDocs[index] = argumentDocs[index].map { "\($0) (\(why))" } ?? why
                }
            }
            let params = items.indices.map { index in
                "PluginActionSchemas.param((\(types[index])).self, label: \(labels[index])"
                    + (argumentDocs[index].map { ", doc: \(literal($0))" } ?? "")
                    + (defaults[index].map { ", default: \(literal($0))" } ?? "") + ")"
                    + (domains[index]?.modifier ?? "")
            }
            switch items.count {
            case 1 where labels[0] == "nil":
                // A child's actions, or one value: the compiler picks by the payload's type.
                return "PluginActionSchemas.single(\(name), \(docText), (\(types[0])).self, param: \(params[0]))"
            case 2 where labels == ["nil", "nil"]:
                // Keyed children's actions, or two values.
                return
                    "PluginActionSchemas.pair(\(name), \(docText), (\(types[0])).self, (\(types[1])).self, params: [\(params.joined(separator: ", "))])"
            default:
                return "[ActionSchema(\(name), \(docText), [\(params.joined(separator: ", "))])]"
            }
        }

        /// The values an argument's doc says it takes (`in 1...4`, `one of "s", "m"`),
        /// diagnosed at the argument when they cannot be its domain.
        private static func domain(
            of item: EnumCaseParameterSyntax, at index: Int, doc: String?, in context: some MacroExpansionContext
        ) -> ParamDomain? {
            guard let doc else { return nil }
            let name =
                item.firstName.map { $0.text == "_" ? "argument \(index + 1)" : "'\(bare($0))'" }
                ?? "argument \(index + 1)"
            switch ParamDomain.read(doc) {
            case .none:
                return nil
            case .mistake(let why):
                context.diagnose(Diagnostic(node: item, message: PluginActionsDiagnostic.domain(name, why)))
                return nil
            case .domain(let said):
                switch said.fitted(toType: item.type.trimmedDescription) {
                case nil:
                    return nil
                case .failure(let mistake):
                    context.diagnose(
                        Diagnostic(node: item, message: PluginActionsDiagnostic.domain(name, mistake.text)))
                    return nil
                case .success(let domain):
                    if let value = item.defaultValue?.value, let text = DefaultLiteral.text(of: value),
                        !domain.admits(defaultText: text)
                    {
                        context.diagnose(
                            Diagnostic(
                                node: item,
                                message: PluginActionsDiagnostic.domain(name, "do not hold its default, \(text)")))
                        return nil
                    }
                    return domain
                }
            }
        }

        /// A name as the shell and Codable spell it: ``case `return` `` is the action
        /// `return`, not "`return`", which the host refused as a name no one can type.
        private static func bare(_ token: TokenSyntax) -> String {
            token.identifier?.name ?? token.text
        }

        private static func literal(_ text: String) -> String {
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

    /// The literal text of a default argument the shell can take: a number, a string
    /// without interpolation, `true`/`false`, `nil`, `.caseName` (written as the case's
    /// name in quotes, which the host reads as that case), or a list of these; nil for
    /// anything else (a call, a variable).
    enum DefaultLiteral {
        static func text(of expression: ExprSyntax) -> String? {
            if let integer = expression.as(IntegerLiteralExprSyntax.self) {
                return Int64(String(integer.literal.text.filter { $0 != "_" })).map(String.init)
            }
            if let float = expression.as(FloatLiteralExprSyntax.self) {
                return Double(String(float.literal.text.filter { $0 != "_" })).map { "\($0)" }
            }
            if let boolean = expression.as(BooleanLiteralExprSyntax.self) { return boolean.literal.text }
            if expression.is(NilLiteralExprSyntax.self) { return "null" }
            if let string = expression.as(StringLiteralExprSyntax.self), string.openingPounds == nil,
                string.segments.count <= 1
            {
                guard let segment = string.segments.first else { return "\"\"" }
                guard let text = segment.as(StringSegmentSyntax.self)?.content.text, !text.contains("\\") else {
                    return nil
                }
                return "\"" + text + "\""
            }
            if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
                let magnitude = text(of: prefix.expression), magnitude.first?.isNumber == true
            {
                return "-" + magnitude
            }
            if let member = expression.as(MemberAccessExprSyntax.self), member.base == nil {
                let name = member.declName.baseName.identifier?.name ?? member.declName.baseName.text
                return "\"" + name + "\""
            }
            if let array = expression.as(ArrayExprSyntax.self) {
                var items: [String] = []
                for element in array.elements {
                    guard let item = text(of: element.expression) else { return nil }
                    items.append(item)
                }
                return "[" + items.joined(separator: ", ") + "]"
            }
            if let dictionary = expression.as(DictionaryExprSyntax.self), dictionary.content.is(TokenSyntax.self) {
                return "{}"
            }
            return nil
        }
    }

    /// A case's `///` comment: the summary (its lines joined) and the argument docs
    /// (`- Parameter NAME: text`, or `- NAME: text` under `- Parameters:`).
    package struct DocComment {
        package var summary = ""
        var parameters: [(name: String, text: String)] = []

        package init(_ trivia: Trivia) {
            var lines: [String] = []
            for piece in trivia {
                if case .docLineComment(let text) = piece {
                    lines.append(String(text.dropFirst(3)).trimmed)
                }
            }
            var summaryLines: [String] = []
            for line in lines {
                if line.hasPrefix("- Parameters:") { continue }
                if line.hasPrefix("- ") {
                    var item = line.dropFirst(2)
                    if item.hasPrefix("Parameter ") { item = item.dropFirst("Parameter ".count) }
                    if let colon = item.firstIndex(of: ":") {
                        parameters.append(
                            (String(item[..<colon]).trimmed, String(item[item.index(after: colon)...]).trimmed))
                        continue
                    }
                }
                summaryLines.append(line)
            }
            summary = summaryLines.filter { !$0.isEmpty }.joined(separator: " ")
        }

        /// Each argument's doc: the one named by its label, or — when the case documents
        /// exactly one line per argument and they are unlabelled — the one at its place.
        func arguments(labels: [String?]) -> [String?] {
            labels.enumerated().map { index, label in
                if let label, let named = parameters.first(where: { $0.name == label }) { return named.text }
                if label == nil, parameters.count == labels.count { return parameters[index].text }
                return nil
            }
        }
    }

    extension String {
        var trimmed: String {
            String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }
    }

    enum PluginActionsDiagnostic: DiagnosticMessage {
        case notAnEnum
        case duplicate(String)
        case domain(String, String)

        var message: String {
            switch self {
            case .notAnEnum: "@PluginActions goes on the model's action enum"
            case .duplicate(let name): "two cases are named '\(name)': storesh could not tell them apart"
            case .domain(let name, let why):
                "the values the doc of \(name) ends with \(why)"
            }
        }

        var diagnosticID: MessageID { MessageID(domain: "StorePluginMacros", id: "\(self)") }
        var severity: DiagnosticSeverity { .error }
    }

    enum PluginActionsNote: NoteMessage {
        case firstHere
        var message: String { "the first one is here" }
        var noteID: MessageID { MessageID(domain: "StorePluginMacros", id: "firstHere") }
    }
#endif
