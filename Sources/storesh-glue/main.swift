// storesh-glue: writes a plugin target's glue (docs/plugins.md, "Glue that writes itself").
// The StoreshGlue build-tool plugin runs it on each build whose sources changed:
//
//     storesh-glue --module NAME --output FILE SOURCE.swift…
//
// Built with the MacrosFromSource trait or Shell (the default), it is the generator; without it
// (PrebuiltMacros, what `storesh new` writes on a built checkout) it is a launcher of the
// checkout's own prebuilt storesh-glue, so a plugin package never builds swift-syntax.
#if MacrosFromSource || Shell
    import Foundation
    import StoreGlue

    let status = GlueCommand.run(Array(CommandLine.arguments.dropFirst()))
    exit(status)
#else
    import PrebuiltTools

    PrebuiltTool.launch("storesh-glue", what: "glue generator")
#endif
