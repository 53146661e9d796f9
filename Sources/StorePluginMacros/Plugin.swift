// Built with the MacrosFromSource trait (the default); without it the target is PrebuiltToolLauncher.swift.
#if MacrosFromSource
    import SwiftCompilerPlugin
    import SwiftSyntaxMacros

    /// The compiler plugin that provides StorePlugin's macros.
    @main
    struct StorePluginMacrosPlugin: CompilerPlugin {
        let providingMacros: [any Macro.Type] = [
            PluginActionsMacro.self, PluginServiceMacro.self, PluginStateMacro.self,
        ]
    }
#endif
