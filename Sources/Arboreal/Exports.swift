// `import Arboreal` brings the shared store vocabulary (Binding, EffectEvent) with it, and
// Observation's `@Observable`: upstream Arboreal code got it from SwiftUI, and with the
// SwiftUI import and the views removed it compiles as it is.
@_exported public import Observation
@_exported public import StoreRuntime
