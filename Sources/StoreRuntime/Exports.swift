// Binding, Transaction and Animation are SwiftUI's: the system's on Apple platforms, this
// package's stand-in (SwiftUIOnLinux) elsewhere. Re-exported, so `import ObservableStore`
// or `import Arboreal` brings them, and a file that imports SwiftUI too sees one of each.
#if canImport(Darwin)
    @_exported public import SwiftUI
#else
    @_exported public import SwiftUIOnLinux
#endif
