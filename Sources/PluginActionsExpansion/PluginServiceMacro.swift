// Built with the MacrosFromSource trait or Shell (the default). StorePluginMacros provides it to
// the compiler (Plugin.swift); the tests expand it from here.
#if MacrosFromSource || Shell
    public import SwiftSyntax
    public import SwiftSyntaxMacros
    import SwiftDiagnostics

    /// `@PluginService` on a global function: declares it as a service the model calls and the
    /// shell may replace (`:stub`). The peer `NAMEService` holds the declaration — the C
    /// signature and a `@convention(c)` thunk derived from the function's Swift types — and
    /// the typed caller the model's environment gets, so the signature, the thunk and the
    /// calls cannot disagree.
    public struct PluginServiceMacro: PeerMacro {
        /// A Swift type a service may take or return, with its signature letter and how a
        /// value crosses the C boundary.
        struct Kind {
            let letter: Character
            let cType: String
            /// C value (named `name`) → Swift value.
            let fromC: (String) -> String
            /// Swift value → C value.
            let toC: (String) -> String

            static func of(_ type: String) -> Kind? {
                switch type {
                case "Int": Kind(letter: "i", cType: "Int64", fromC: { "Int(\($0))" }, toC: { "Int64(\($0))" })
                case "Int64": Kind(letter: "i", cType: "Int64", fromC: { $0 }, toC: { $0 })
                case "Double": Kind(letter: "d", cType: "Double", fromC: { $0 }, toC: { $0 })
                case "Bool": Kind(letter: "b", cType: "Bool", fromC: { $0 }, toC: { $0 })
                case "String":
                    Kind(
                        letter: "s", cType: "UnsafePointer<CChar>?", fromC: { "ServiceValues.string(\($0))" },
                        toC: { $0 })
                default: nil
                }
            }
        }

        public static func expansion(
            of node: AttributeSyntax,
            providingPeersOf declaration: some DeclSyntaxProtocol,
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            guard let function = declaration.as(FunctionDeclSyntax.self) else {
                context.diagnose(Diagnostic(node: node, message: PluginServiceDiagnostic.notAFunction))
                return []
            }
            let signature = function.signature
            if signature.effectSpecifiers?.asyncSpecifier != nil || signature.effectSpecifiers?.throwsClause != nil {
                context.diagnose(Diagnostic(node: function.name, message: PluginServiceDiagnostic.effects))
                return []
            }
            let name = function.name.text
            var parameters: [(label: String?, name: String, type: String, kind: Kind)] = []
            for (index, parameter) in signature.parameterClause.parameters.enumerated() {
                let type = parameter.type.trimmedDescription
                guard let kind = Kind.of(type) else {
                    context.diagnose(
                        Diagnostic(node: parameter.type, message: PluginServiceDiagnostic.parameterType(type)))
                    return []
                }
                let label = parameter.firstName.text == "_" ? nil : parameter.firstName.text
                parameters.append((label, label ?? "a\(index)", type, kind))
            }
            var result: (type: String, kind: Kind)?
            if let returnClause = signature.returnClause, case let returnType = returnClause.type.trimmedDescription,
                returnType != "Void", returnType != "()"
            {
                guard let kind = Kind.of(returnType) else {
                    context.diagnose(
                        Diagnostic(node: returnClause.type, message: PluginServiceDiagnostic.resultType(returnType)))
                    return []
                }
                result = (returnType, kind)
            }
            let letters = String(parameters.map(\.kind.letter)) + ">" + (result.map { String($0.kind.letter) } ?? "v")
            let cArguments = parameters.indices.map { "c\($0)" }
            let cFunction =
                "@convention(c) (\(parameters.map(\.kind.cType).joined(separator: ", "))) -> \(result?.kind.cType ?? "Void")"
            // The thunk the host calls: C values in, the Swift function, a C value out.
            let swiftCall =
                "\(name)("
                + zip(parameters, cArguments).map { parameter, c in
                    (parameter.label.map { "\($0): " } ?? "") + parameter.kind.fromC(c)
                }.joined(separator: ", ") + ")"
            // A string answer stays valid until the service's next call (storeplugin.h). The
            // name is an identifier, so it needs no escaping in the literal.
            let thunkBody =
                result.map {
                    $0.kind.letter == "s"
                        ? "ServiceValues.returned(\(swiftCall), by: \"\(name)\")" : $0.kind.toC(swiftCall)
                } ?? swiftCall
            let thunk =
                "{ (\(zip(cArguments, parameters).map { "\($0): \($1.kind.cType)" }.joined(separator: ", "))) -> \(result?.kind.cType ?? "Void") in \(thunkBody) } as \(cFunction)"
            // The caller: Swift values in, the host's current implementation, a Swift value out.
            let swiftParameters = parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
            var call =
                "function("
                + parameters.enumerated().map { index, parameter in
                    parameter.kind.letter == "s" ? "s\(index)" : parameter.kind.toC(parameter.name)
                }.joined(separator: ", ") + ")"
            for (index, parameter) in parameters.enumerated().reversed() where parameter.kind.letter == "s" {
                call = "\(parameter.name).withCString { s\(index) in \(call) }"
            }
            if let result { call = result.kind.fromC(call) }
            let resultType = result?.type ?? "Void"
            let callerType =
                "@Sendable (\(parameters.map(\.type).joined(separator: ", "))) async throws -> \(resultType)"
            let doc = DocComment(function.leadingTrivia).summary
            let peer: DeclSyntax = """
                /// `\(raw: name)` as a plugin service: list `\(raw: name)Service.declaration` in the
                /// model's services, and give its environment `environment.caller(\(raw: name)Service)`.
                let \(raw: name)Service = PluginService<\(raw: callerType)>(
                    ServiceDeclaration(\(literal: name), \(literal: doc), signature: \(literal: letters), implementation: \(raw: thunk)),
                    caller: { call in
                        { (\(raw: swiftParameters)) async throws -> \(raw: resultType) in
                            try await call { (function: \(raw: cFunction)) in \(raw: call) }
                        }
                    }
                )
                """
            return [peer]
        }
    }

    enum PluginServiceDiagnostic: DiagnosticMessage {
        case notAFunction
        case effects
        case parameterType(String)
        case resultType(String)

        var message: String {
            switch self {
            case .notAFunction:
                "@PluginService goes on a global function: the plugin's own implementation of the service"
            case .effects:
                "a service is a plain C function: it cannot be async or throw (its callers await it and get a stub's failure as an error)"
            case .parameterType(let type):
                "a service parameter must be Int, Int64, Double, Bool or String, not \(type): storesh passes it through a C signature"
            case .resultType(let type):
                "a service returns Int, Int64, Double, Bool, String or nothing, not \(type): storesh passes it through a C signature"
            }
        }

        var diagnosticID: MessageID { MessageID(domain: "StorePluginMacros", id: "\(self)") }
        var severity: DiagnosticSeverity { .error }
    }
#endif
