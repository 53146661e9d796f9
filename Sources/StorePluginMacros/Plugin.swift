// Built with the MacrosFromSource trait or Shell (the default); without it the target is PrebuiltToolLauncher.swift.
#if MacrosFromSource || Shell
    import PluginActionsExpansion
    import SwiftCompilerPlugin
    public import SwiftSyntax
    public import SwiftSyntaxMacros

    /// The compiler plugin that provides StorePlugin's macros.
    @main
    struct StorePluginMacrosPlugin: CompilerPlugin {
        let providingMacros: [any Macro.Type] = [
            PluginActionsMacro.self, PluginServiceMacro.self, PluginStateMacro.self,
        ]
    }

    /// `@PluginActions`, under the name its declaration gives (`StorePluginMacros.PluginActionsMacro`):
    /// the expansion itself is PluginActionsExpansion's, which the glue generator (StoreGlue) calls too.
    public struct PluginActionsMacro: MemberMacro, ExtensionMacro {
        public static func expansion(
            of node: AttributeSyntax,
            providingMembersOf declaration: some DeclGroupSyntax,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            try PluginActionsExpansion.PluginActionsMacro.expansion(
                of: node, providingMembersOf: declaration, conformingTo: protocols, in: context)
        }

        public static func expansion(
            of node: AttributeSyntax,
            attachedTo declaration: some DeclGroupSyntax,
            providingExtensionsOf type: some TypeSyntaxProtocol,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [ExtensionDeclSyntax] {
            try PluginActionsExpansion.PluginActionsMacro.expansion(
                of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
        }
    }

    /// `@PluginService`, under the name its declaration gives: PluginActionsExpansion's.
    public struct PluginServiceMacro: PeerMacro {
        public static func expansion(
            of node: AttributeSyntax,
            providingPeersOf declaration: some DeclSyntaxProtocol,
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            try PluginActionsExpansion.PluginServiceMacro.expansion(
                of: node, providingPeersOf: declaration, in: context)
        }
    }

    /// `@PluginState`, under the name its declaration gives: PluginActionsExpansion's.
    public struct PluginStateMacro: ExtensionMacro {
        public static func expansion(
            of node: AttributeSyntax,
            attachedTo declaration: some DeclGroupSyntax,
            providingExtensionsOf type: some TypeSyntaxProtocol,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [ExtensionDeclSyntax] {
            try PluginActionsExpansion.PluginStateMacro.expansion(
                of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
        }
    }
#endif
