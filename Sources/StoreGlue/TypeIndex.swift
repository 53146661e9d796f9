import SwiftParser
package import SwiftSyntax

/// One Swift file of the target, parsed.
package struct ParsedFile {
    package let path: String
    package let tree: SourceFileSyntax
    let converter: SourceLocationConverter

    package init(path: String, text: String) {
        self.path = path
        tree = Parser.parse(source: text)
        converter = SourceLocationConverter(fileName: path, tree: tree)
    }

    /// `path:line:col` of a node's first token, as compilers name places.
    func place(of node: some SyntaxProtocol) -> GlueDiagnostic.Place {
        let location = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return .init(file: path, line: location.line, column: location.column)
    }
}

/// A stored property of a struct or class, as another file sees it.
struct StoredProperty {
    /// The name as Codable spells it (no backticks), and as code writes it.
    let name: String
    let code: String
    /// The declared type's text, when written.
    let type: String?
    let isConstantWithValue: Bool
    /// Private to its declaration or file: another file can neither read nor set it.
    let isHidden: Bool
    /// A closure, or anything else a snapshot cannot be decoded into.
    let isUndecodable: Bool
}

/// A case of an enum, with its payload.
struct EnumCase {
    struct Argument {
        /// The label, or nil for a positional one; the key is the label or `_N`.
        let label: String?
        let key: String
        let type: String
        let defaultValue: String?
    }
    let name: String
    let code: String
    let arguments: [Argument]
}

/// A type declared in the target's files, with what its extensions add.
final class DeclaredType {
    enum Kind { case structure, enumeration, classType, other }
    let qualifiedName: String
    /// The name as code writes it, backticks kept (`Outer.` + "`Type`").
    let code: String
    let kind: Kind
    let file: ParsedFile
    let node: DeclSyntax
    let genericParameters: [String]
    /// Visible from another file of the module: neither it nor a type around it is private.
    let visible: Bool
    let isPublic: Bool
    let hasPluginActions: Bool
    let doc: String
    /// What it and its extensions conform to, by the last part of each name.
    var conformances: Set<String>
    var properties: [StoredProperty] = []
    var cases: [EnumCase] = []
    /// An `init()` the type declares, or all its stored properties have values.
    var hasEmptyInit = false

    init(
        qualifiedName: String, code: String, kind: Kind, file: ParsedFile, node: DeclSyntax,
        genericParameters: [String], visible: Bool, isPublic: Bool, hasPluginActions: Bool, doc: String,
        conformances: Set<String>
    ) {
        self.qualifiedName = qualifiedName
        self.code = code
        self.kind = kind
        self.file = file
        self.node = node
        self.genericParameters = genericParameters
        self.visible = visible
        self.isPublic = isPublic
        self.hasPluginActions = hasPluginActions
        self.doc = doc
        self.conformances = conformances
    }

    var isEncodable: Bool { !conformances.isDisjoint(with: ["Encodable", "Codable"]) }
    var isDecodable: Bool { !conformances.isDisjoint(with: ["Decodable", "Codable", "PluginActions"]) }
}

/// Every type the files declare, by qualified name, with the extensions folded in.
struct TypeIndex {
    private(set) var types: [String: DeclaredType] = [:]
    /// Extensions whose type was not (yet) found: their conformances, by written name.
    private var pendingConformances: [(scope: [String], name: String, conformances: Set<String>)] = []

    init(files: [ParsedFile]) {
        for file in files {
            collect(file.tree.statements.map(\.item), in: [], codePrefix: [], visible: true, file: file)
        }
        for pending in pendingConformances {
            resolve(pending.name, from: pending.scope)?.conformances.formUnion(pending.conformances)
        }
    }

    /// The type a written name means from inside `scope` (a qualified name's parts): the
    /// innermost enclosing type's member first, as Swift looks names up.
    func resolve(_ written: String, from scope: [String]) -> DeclaredType? {
        let bare = written.split(separator: ".").map { String($0).replacingOccurrences(of: "`", with: "") }
            .joined(separator: ".")
        var prefix = scope
        while true {
            if let found = types[(prefix + [bare]).joined(separator: ".")] { return found }
            if prefix.isEmpty { return nil }
            prefix.removeLast()
        }
    }

    private mutating func collect(
        _ items: [CodeBlockItemSyntax.Item], in scope: [String], codePrefix: [String], visible: Bool,
        file: ParsedFile
    ) {
        for item in items {
            guard case .decl(let decl) = item else { continue }
            collect(decl, in: scope, codePrefix: codePrefix, visible: visible, file: file)
        }
    }

    private mutating func collect(
        _ decl: DeclSyntax, in scope: [String], codePrefix: [String], visible: Bool, file: ParsedFile
    ) {
        if let ext = decl.as(ExtensionDeclSyntax.self) {
            let written = ext.extendedType.trimmedDescription
            let parts = written.split(separator: ".").map { String($0).replacingOccurrences(of: "`", with: "") }
            let codeParts = written.split(separator: ".").map(String.init)
            let conformances = Self.inherited(ext.inheritanceClause)
            pendingConformances.append((scope, written, conformances))
            let hidden = Self.isHidden(ext.modifiers)
            for member in ext.memberBlock.members {
                collect(member.decl, in: parts, codePrefix: codeParts, visible: visible && !hidden, file: file)
            }
            return
        }
        guard let group = decl.asProtocol((any DeclGroupSyntax).self),
            let named = decl.asProtocol((any NamedDeclSyntax).self)
        else { return }
        let kind: DeclaredType.Kind
        var generics: [String] = []
        switch decl.as(DeclSyntaxEnum.self) {
        case .structDecl(let s):
            kind = .structure
            generics = s.genericParameterClause?.parameters.map(\.name.text) ?? []
        case .enumDecl(let e):
            kind = .enumeration
            generics = e.genericParameterClause?.parameters.map(\.name.text) ?? []
        case .classDecl(let c):
            kind = .classType
            generics = c.genericParameterClause?.parameters.map(\.name.text) ?? []
        default:
            kind = .other
        }
        let bare = named.name.identifier?.name ?? named.name.text
        let path = scope + [bare]
        let codePath = codePrefix + [named.name.text]
        let isVisible = visible && !Self.isHidden(group.modifiers)
        let attributes = group.attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }
        let type = DeclaredType(
            qualifiedName: path.joined(separator: "."), code: codePath.joined(separator: "."), kind: kind, file: file,
            node: decl, genericParameters: generics, visible: isVisible,
            isPublic: group.modifiers.contains { ["public", "open"].contains($0.name.text) },
            hasPluginActions: attributes.contains("PluginActions"), doc: Self.docSummary(group.leadingTrivia),
            conformances: Self.inherited(group.inheritanceClause))
        if let existing = types[type.qualifiedName] {
            existing.conformances.formUnion(type.conformances)
        } else {
            types[type.qualifiedName] = type
        }
        readMembers(of: group, into: type)
        for member in group.memberBlock.members {
            collect(member.decl, in: path, codePrefix: codePath, visible: isVisible, file: file)
        }
    }

    private func readMembers(of group: some DeclGroupSyntax, into type: DeclaredType) {
        var everyPropertyHasValue = true
        for member in group.memberBlock.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                guard !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else {
                    continue
                }
                let hidden = Self.isHidden(variable.modifiers)
                let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
                let wrapped = !variable.attributes.isEmpty
                let lazy = variable.modifiers.contains { $0.name.text == "lazy" }
                for binding in variable.bindings {
                    guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self), Self.isStored(binding) else {
                        continue
                    }
                    let typeText =
                        binding.typeAnnotation?.type.trimmedDescription
                        ?? binding.initializer.flatMap {
                            Self.typeNamed(by: $0.value)
                        }
                    let closure = binding.typeAnnotation.map { Self.isClosure($0.type) } ?? false
                    let hasValue = binding.initializer != nil || (typeText?.hasSuffix("?") ?? false && !isLet)
                    if !hasValue { everyPropertyHasValue = false }
                    type.properties.append(
                        StoredProperty(
                            name: pattern.identifier.identifier?.name ?? pattern.identifier.text,
                            code: pattern.identifier.text, type: typeText,
                            isConstantWithValue: isLet && binding.initializer != nil, isHidden: hidden,
                            isUndecodable: closure || wrapped || lazy))
                }
            } else if let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) {
                for element in caseDecl.elements {
                    let parameters = Array(element.parameterClause?.parameters ?? [])
                    let arguments = parameters.enumerated().map { index, parameter in
                        let label = parameter.firstName.flatMap {
                            $0.text == "_" ? nil : ($0.identifier?.name ?? $0.text)
                        }
                        return EnumCase.Argument(
                            label: label, key: label ?? "_\(index)", type: parameter.type.trimmedDescription,
                            defaultValue: parameter.defaultValue?.value.trimmedDescription)
                    }
                    type.cases.append(
                        EnumCase(
                            name: element.name.identifier?.name ?? element.name.text, code: element.name.text,
                            arguments: arguments))
                }
            } else if let initializer = member.decl.as(InitializerDeclSyntax.self) {
                let parameters = initializer.signature.parameterClause.parameters
                if initializer.optionalMark == nil, !Self.isHidden(initializer.modifiers),
                    parameters.allSatisfy({ $0.defaultValue != nil })
                {
                    type.hasEmptyInit = true
                }
            }
        }
        // The default init() exists when every stored property has a value, private ones too.
        if type.kind == .structure, everyPropertyHasValue,
            !group.memberBlock.members.contains(where: { $0.decl.is(InitializerDeclSyntax.self) })
        {
            type.hasEmptyInit = true
        }
    }

    /// Stored: no accessors, or only observers.
    private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let block = binding.accessorBlock else { return true }
        guard case .accessors(let accessors) = block.accessors else { return false }
        return accessors.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
    }

    /// The type an initial value names, for a property declared without one:
    /// `Field(value: "")` and `Status.editing` name `Field` and `Status`.
    static func typeNamed(by value: ExprSyntax) -> String? {
        var expression = value
        if let call = expression.as(FunctionCallExprSyntax.self) { expression = call.calledExpression }
        if let generic = expression.as(GenericSpecializationExprSyntax.self) { expression = generic.expression }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            expression = base
        }
        guard let reference = expression.as(DeclReferenceExprSyntax.self),
            reference.baseName.text.first?.isUppercase == true
        else { return nil }
        return reference.baseName.text
    }

    static func isClosure(_ type: TypeSyntax) -> Bool {
        var type = type
        while true {
            if type.is(FunctionTypeSyntax.self) { return true }
            if let attributed = type.as(AttributedTypeSyntax.self) {
                type = attributed.baseType
            } else if let optional = type.as(OptionalTypeSyntax.self) {
                type = optional.wrappedType
            } else if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
                type = unwrapped.wrappedType
            } else if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1,
                let only = tuple.elements.first
            {
                type = only.type
            } else {
                return false
            }
        }
    }

    static func isHidden(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { ["private", "fileprivate"].contains($0.name.text) && $0.detail == nil }
    }

    static func inherited(_ clause: InheritanceClauseSyntax?) -> Set<String> {
        Set(
            (clause?.inheritedTypes ?? []).flatMap { inherited -> [String] in
                // `A & B` and `Swift.Codable` alike: the last part of each name.
                inherited.type.trimmedDescription.split(separator: "&").map {
                    String($0.split(separator: ".").last ?? "").trimmingSpaces
                }
            })
    }

    /// The `///` summary: the doc lines before the first blank one or `- ` item.
    static func docSummary(_ trivia: Trivia) -> String {
        var lines: [String] = []
        for piece in trivia {
            if case .docLineComment(let text) = piece { lines.append(String(text.dropFirst(3)).trimmingSpaces) }
        }
        return lines.prefix { !$0.isEmpty && !$0.hasPrefix("- ") }.joined(separator: " ")
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
