// `import Arboreal` brings the shared store vocabulary (Binding, EffectEvent) with it.
@_exported public import StoreRuntime
