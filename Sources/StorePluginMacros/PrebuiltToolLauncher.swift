// Without the MacrosFromSource trait (the packages `storesh new` makes say
// `traits: ["PrebuiltMacros"]`), this target is not the macros themselves: it is a small
// launcher for the StorePluginMacros tool the storesh checkout's own build already made, so
// a plugin package never builds swift-syntax. The compiler starts it wherever a macro is
// declared or used; it becomes the tool (exec), so the compiler talks to the tool itself.
// Finding and checking the tool: PrebuiltTools, which storesh-glue's launcher shares.
#if !MacrosFromSource && !Shell
    import PrebuiltTools

    @main
    enum PrebuiltToolLauncher {
        static func main() {
            PrebuiltTool.launch("StorePluginMacros-tool", what: "macros")
        }
    }
#endif
