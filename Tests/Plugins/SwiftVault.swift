// The vault's stages of Tests/Plugins/guided.c, as Swift code: built with swiftc's
// `-sanitize=fuzzer -sanitize-coverage=edge,trace-pc-guard` (swiftc takes coverage only
// beside a sanitizer; the fuzzer's adds no runtime to a library), its edges reach storesh
// through the same trace-pc-guard callbacks as clang's. One branch a stage, as app code
// would write it, so a run's hidden progress shows in the code it runs.

/// The stage after pressing `button` (-1: reset) at `stage`; 7 is open.
@_cdecl("guided_vault_next")
public func vaultNext(_ stage: CInt, _ button: CInt) -> CInt {
    switch stage {
    case 0: return button == 2 ? 1 : 0
    case 1: return button == 7 ? 2 : 0
    case 2: return button == 1 ? 3 : 0
    case 3: return button == -1 ? 4 : 0
    case 4: return button == 8 ? 5 : 0
    case 5: return button == 2 ? 6 : 0
    case 6: return button == 8 ? 7 : 0
    default: return stage
    }
}
