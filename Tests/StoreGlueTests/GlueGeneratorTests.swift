import Testing

@testable import StoreGlue

/// The glue generator over model files as apps write them, odd and hostile ones among them:
/// what it writes for each, and the place it names for what it cannot do. That the code it
/// writes compiles and runs is checked end to end (StoreshTests' `storesh new --from`).
@Suite("storesh-glue")
struct GlueGeneratorTests {
    func generate(_ files: [String: String], module: String = "App") -> GlueOutput {
        GlueGenerator.generate(
            files: files.sorted { $0.key < $1.key }.map { ParsedFile(path: $0.key, text: $0.value) }, module: module)
    }

    func errors(_ output: GlueOutput) -> [String] {
        output.diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    let counter = """
        import ObservableStore

        /// A counter.
        struct Counter: ModelProtocol {
            var count = 0
            enum Action {
                /// Adds one.
                case increment
                case setCount(Int)
            }
            static func update(state: Counter, action: Action, environment: Void) -> Update<Counter> {
                Update(state: state)
            }
        }
        """
    let line = "import StorePlugin\nlet counter = PluginModel.observable(Counter.self, environment: { _ in })\n"

    @Test func aModelWithoutGlueGetsItsSchemaCodableFactsAndEntryPoints() {
        let output = generate(["Counter.swift": counter, "Models.swift": line])
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let text = output.text
        #expect(text.contains("extension Counter.Action: PluginActions"))
        #expect(text.contains(#"ActionSchema("increment", "Adds one.")"#))
        #expect(text.contains("extension Counter: Encodable"))
        #expect(text.contains(#"try GeneratedGlue.encode(self.count, "count", into: &container)"#))
        #expect(text.contains("extension Counter: Decodable"))
        #expect(text.contains("extension Counter.Action: Decodable"))
        #expect(text.contains("extension Counter.Action: Encodable"))
        #expect(text.contains(#"static var generatedDoc: String { "A counter." }"#))
        #expect(text.contains(#"GeneratedGlue.decodable(\Counter.count)"#))
        #expect(text.contains("static func generatedInitialState() -> Self { Self() }"))
        #expect(text.contains(#"StorePlugin.info(name: "app", version: "0.1.0")"#))
        #expect(text.contains("models: [counter]"))
        #expect(text.contains("import ObservableStore") && text.contains("import StorePlugin"))
    }

    /// App code often keeps a model's actions in a top-level enum that `update` names (the
    /// `Action` associated type inferred from it), or names them with a typealias: both
    /// were "has no Action enum".
    @Test func anActionEnumOutsideTheModelIsTheOneItsUpdateOrTypealiasNames() {
        let viaUpdate = """
            enum ToastAction { case push(String), clear }
            struct Toasts: ModelProtocol {
                var shown: [String] = []
                static func update(state: Toasts, action: ToastAction, environment: Void) -> Update<Toasts> {
                    Update(state: state)
                }
            }
            """
        let viaAlias = """
            enum PagerAction { case next }
            struct Pager: ModelProtocol {
                typealias Action = PagerAction
                var page = 0
                static func update(state: Pager, action: PagerAction, environment: Void) -> Update<Pager> {
                    Update(state: state)
                }
            }
            """
        let lines = """
            import StorePlugin
            let toasts = PluginModel.observable(Toasts.self, environment: { _ in })
            let pager = PluginModel.observable(Pager.self, environment: { _ in })
            """
        let output = generate(["Toasts.swift": viaUpdate, "Pager.swift": viaAlias, "Models.swift": lines])
        #expect(errors(output).isEmpty, "\(output.diagnostics)")
        #expect(output.text.contains("extension ToastAction: PluginActions"))
        #expect(output.text.contains("extension PagerAction: PluginActions"))
    }

    @Test func aGenericActionEnumIsRefusedAtItsPlace() {
        let model = """
            struct Pager: ModelProtocol {
                var page = 0
                enum Action<Item> {
                    case show(Item)
                }
            }
            """
        let output = generate([
            "Pager.swift": model,
            "Models.swift": "let pager = PluginModel.observable(Pager.self, environment: { _ in })",
        ])
        #expect(output.failed)
        #expect(
            errors(output) == [
                "Pager.swift:3:5: error: 'Pager.Action' is generic: storesh lists the cases of one concrete action enum"
            ])
    }

    @Test func aModelNotInTheFilesAGenericOneAndAPrivateOneAreRefusedAtTheirPlaces() {
        let missing = generate([
            "Models.swift": "import StorePlugin\nlet x = PluginModel.observable(Nowhere.self, environment: { _ in })"
        ])
        #expect(
            errors(missing) == [
                "Models.swift:2:9: error: no type named 'Nowhere' in this target's files (storesh-glue reads only them)"
            ])
        let generic = generate([
            "Box.swift": "struct Box<T>: ModelProtocol {\n    enum Action { case go }\n}",
            "Models.swift": "let box = PluginModel.observable(Box.self, environment: { _ in })",
        ])
        #expect(
            errors(generic).first?.hasPrefix("Box.swift:1:1: error: 'Box' is generic") == true, "\(errors(generic))")
        let hidden = generate([
            "Secret.swift": "private struct Secret: ModelProtocol {\n    enum Action { case go }\n}",
            "Models.swift": "let secret = PluginModel.observable(Secret.self, environment: { _ in })",
        ])
        #expect(
            errors(hidden) == [
                "Secret.swift:1:1: error: 'Secret' is private to its file, so the generated file cannot see it: make it internal"
            ])
    }

    @Test func aCaseWithADefaultArgumentTakesItsDefault() {
        let model = """
            struct Toasts: ModelProtocol {
                var items: [String] = []
                enum Action {
                    case push(message: String, image: String? = nil)
                }
            }
            """
        let output = generate([
            "Toasts.swift": model,
            "Models.swift": "let toasts = PluginModel.observable(Toasts.self, environment: { _ in })",
        ])
        #expect(errors(output).isEmpty, "\(errors(output))")
        #expect(output.text.contains(#"label: "image", default: "null")"#), "\(output.text)")
    }

    @Test func nestedTypesAndExtensionsInOtherFilesAreFoundByScope() {
        let form = """
            struct Form: ModelProtocol {
                var email: Field<String>
                var rows: [Row] = []
                init() { email = Field(value: "", validate: { !$0.isEmpty }) }
                enum Action { case type(String) }
            }
            """
        let fields = """
            extension Form {
                /// A field with a validator.
                struct Field<Value> {
                    var value: Value
                    var validate: (Value) -> Bool
                }
                struct Row { var title: String }
            }
            """
        let output = generate([
            "Form.swift": form, "Fields.swift": fields,
            "Models.swift": "let form = PluginModel.observable(Form.self, environment: { _ in })",
        ])
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        #expect(output.text.contains("extension Form.Field: Encodable"))
        #expect(output.text.contains(#"try GeneratedGlue.encode(self.validate, "validate", into: &container)"#))
        #expect(!output.text.contains("extension Form.Field: Decodable"), "a closure cannot be decoded")
        #expect(output.text.contains("extension Form.Row: Decodable"))
        #expect(output.text.contains("extension Form: Decodable"))
        #expect(output.text.contains(#"GeneratedGlue.decodable(\Form.email) && GeneratedGlue.decodable(\Form.rows)"#))
        #expect(output.text.contains("GeneratedInitialState"), "an init() the type declares")
    }

    /// Issue 51: the schema is an extension at file scope, where `Shipping` (declared beside
    /// the action enum, inside the model) is not in scope: each name the files declare is
    /// written qualified, as the enum's own body would find it.
    @Test func typesBesideTheActionEnumAreQualifiedInItsSchema() {
        let basket = """
            struct Shipping {}
            struct Basket: ModelProtocol {
                enum Shipping: String, CaseIterable { case ground, air }
                struct Line { var sku: String }
                var lines: [Line] = []
                enum Action {
                    case ship(sku: String, via: Shipping)
                    case pack([Line], Shipping?)
                    case route([String: Shipping], note: Swift.String)
                }
                static func update(state: Basket, action: Action, environment: Void) -> Update<Basket> {
                    Update(state: state)
                }
            }
            """
        let output = generate([
            "Basket.swift": basket,
            "Models.swift": "let basket = PluginModel.observable(Basket.self, environment: { _ in })",
        ])
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        #expect(
            output.text.contains(#"PluginActionSchemas.param((Basket.Shipping).self, label: "via")"#), "\(output.text)")
        #expect(output.text.contains("([Basket.Line]).self, (Basket.Shipping?).self"))
        #expect(output.text.contains("([String: Basket.Shipping]).self"))
        #expect(output.text.contains("(Swift.String).self"))
    }

    @Test func indirectEnumsBacktickedNamesAndLabelsKeepSwiftsCodableShape() {
        let model = """
            struct Calc: ModelProtocol {
                var `class` = Expr.number(0)
                indirect enum Expr {
                    case number(Int)
                    case sum(Expr, Expr)
                    case `default`
                }
                enum Action {
                    case `return`
                    case set(to: Expr, `in`: String)
                }
            }
            """
        let output = generate([
            "Calc.swift": model, "Models.swift": "let calc = PluginModel.observable(Calc.self, environment: { _ in })",
        ])
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let text = output.text
        #expect(text.contains(#"try GeneratedGlue.encode(self.`class`, "class", into: &container)"#))
        #expect(text.contains("case .sum(let p0, let p1):"))
        #expect(text.contains(#"try GeneratedGlue.encode(p1, "_1", into: &payload)"#))
        #expect(text.contains(#"case "default":"#) && text.contains("self = .`default`"))
        #expect(
            text.contains(
                #"self = .set(to: try GeneratedGlue.decode("to", from: payload), in: try GeneratedGlue.decode("in", from: payload))"#
            ))
        #expect(text.contains(#"ActionSchema("return", "")"#), "the action is typed `return`")
        // Each enum states its cases, which run-time discovery cannot see: the indirect one
        // through GeneratedGlue, which answers `.any` for a type inside itself.
        #expect(text.contains("extension Calc.Expr: PluginShaped"))
        #expect(text.contains("GeneratedGlue.stating(Self.self)"))
        #expect(text.contains(#"name: "Expr""#))
        #expect(
            text.contains(
                #".init("sum", payload: [.init(nil, GeneratedGlue.shape(of: (Calc.Expr).self)), .init(nil, GeneratedGlue.shape(of: (Calc.Expr).self))])"#
            ))
        #expect(text.contains(#".init("default")"#))
        #expect(
            text.contains(
                #".init("set", payload: [.init("to", GeneratedGlue.shape(of: (Calc.Expr).self)), .init("in", GeneratedGlue.shape(of: (String).self))])"#
            ))
    }

    @Test func privateStoredPropertiesAreShownByReflectionAndRestoredByReplay() {
        let model = """
            public struct Vault: ModelProtocol {
                public var shown = 0
                private var hidden = ""
                public enum Action { case open }
            }
            """
        let output = generate([
            "Vault.swift": model,
            "Models.swift": "let vault = PluginModel.observable(Vault.self, environment: { _ in })",
        ])
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        #expect(
            output.text.contains(
                "public func encode(to encoder: any Encoder) throws {\n        try GeneratedGlue.encodeReflecting(self, to: encoder)"
            ))
        #expect(!output.text.contains("extension Vault: Decodable"))
        #expect(output.text.contains("public static var generatedRestorable: Bool { false }"))
        #expect(
            output.text.contains("GeneratedInitialState"), "a private property with a value leaves the default init()")
        #expect(
            errors(
                generate([
                    "Vault.swift": model,
                    "Models.swift": "let vault = PluginModel.observable(Vault.self, environment: { _ in })",
                ])
            ).isEmpty)
    }

    @Test func aModelWithNoInitAskedForOneWithoutInitialIsRefusedAtTheLine() {
        let model = "struct Need: ModelProtocol {\n    var id: String\n    enum Action { case go }\n}"
        let output = generate([
            "Need.swift": model, "Models.swift": "let need = PluginModel.observable(Need.self, environment: { _ in })",
        ])
        #expect(
            errors(output) == [
                "Models.swift:1:12: error: 'Need' has no init() the generator can see: give the state to start from, initial: { Need(…) }"
            ])
        let given = generate([
            "Need.swift": model,
            "Models.swift":
                #"let need = PluginModel.observable(Need.self, initial: { Need(id: "a") }, environment: { _ in })"#,
        ])
        #expect(given.diagnostics.isEmpty, "\(given.diagnostics)")
    }

    @Test func declaredCodableAndPluginActionsAndHandWrittenEntryPointsAreLeftAlone() {
        let model = """
            struct Done: ModelProtocol, Codable {
                var n = 0
                @PluginActions
                enum Action: Codable { case go }
            }
            let done = PluginModel.observable(Done.self, environment: { _ in })
            @_cdecl("storeplugin_register_v1")
            public func register(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 { 0 }
            """
        let output = generate(["Done.swift": model])
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        #expect(!output.text.contains("Encodable {") && !output.text.contains("Decodable"))
        #expect(!output.text.contains(": PluginActions"))
        #expect(!output.text.contains("storeplugin_register_v1"))
        #expect(output.text.contains("generatedRestorable: Bool { true }"))
    }

    @Test func typesBothModelsShareAreWrittenOnce() {
        let models = """
            struct Item { var name: String }
            struct A: ModelProtocol { var items: [Item] = []; enum Action { case add(Item) } }
            struct B: ModelProtocol { var item = Item(name: ""); enum Action { case set(Item) } }
            """
        let output = generate([
            "AB.swift": models,
            "Models.swift":
                "let a = PluginModel.observable(A.self, environment: { _ in })\nlet b = PluginModel.observable(B.self, environment: { _ in })",
        ])
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        #expect(output.text.components(separatedBy: "extension Item: Encodable").count == 2)
        #expect(output.text.components(separatedBy: "extension Item: Decodable").count == 2)
        #expect(output.text.contains("models: [a, b]"))
    }

    @Test func unparsableFilesAndNoModelLinesStillGiveAFileAndSayWhy() {
        let output = generate(["Broken.swift": "struct { var = }}}"])
        #expect(!output.failed)
        #expect(
            output.diagnostics.map(\.description) == [
                "Broken.swift:1:1: warning: no model is named, so the plugin registers none: add a line such as `let toasts = PluginModel.observable(ToastStack.self, environment: { _ in .init() })`"
            ])
    }
}
