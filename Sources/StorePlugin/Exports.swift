// `import StorePlugin` is all a plugin's glue needs: values for custom action builders
// come with it. The C ABI (storeplugin.h) stays behind the SDK.
@_exported public import StoreValue
