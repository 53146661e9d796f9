// SwiftUI where the system has none (Linux, Windows, Android, WASI): the part of SwiftUI
// that models use, so a model file that begins `import SwiftUI` compiles unchanged.
// `Animation` and its curves, `Transaction`, `withAnimation`, `withTransaction` and
// `Binding`; no views. As on Apple platforms, Foundation comes with it (`CGFloat`, `Date`,
// `UUID`). A file imports it as `SwiftUI` when its target passes `-module-alias
// SwiftUI=SwiftUIOnLinux` (Package.swift's `linuxModuleAliases`): built under its own
// name, it does not turn on other packages' `#if canImport(SwiftUI)` code. The store
// libraries depend on it only on those platforms, and re-export it.
@_exported public import Foundation
