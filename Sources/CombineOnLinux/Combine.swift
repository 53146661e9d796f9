// `import Combine` where the system has no Combine (Linux, Windows, Android, WASI): code
// written for upstream ObservableStore begins with it. This module is OpenCombine, imported
// as `Combine` under `-module-alias Combine=CombineOnLinux` (not built under that name:
// OpenCombineDispatch drops its scheduler conformance where `canImport(Combine)`, and a
// rebuild after a `Combine` module exists then fails; docs/decisions/0007), with its
// Dispatch schedulers, so `DispatchQueue.main` is a scheduler
// (`.delay(for: .seconds(1), scheduler: DispatchQueue.main)`, `.receive(on:
// DispatchQueue.main)`). Not OpenCombineFoundation: it brings FoundationNetworking (curl,
// TLS, Kerberos), 30 libraries every plugin would load, which doubled start-up. The store
// libraries depend on this module only on those platforms: on Apple platforms the real
// Combine is the one imported.
@_exported public import OpenCombine
@_exported public import OpenCombineDispatch
