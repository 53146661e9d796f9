import PluginActionsExpansion
import StoreValue
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import Testing
import XCTest

@testable import StorePlugin

/// A child model's actions, with the macro.
enum Tally {
    @PluginActions
    enum Action: Codable, Equatable, Sendable {
        /// Adds one.
        case increment
        /// Sets the tally.
        case set(Int)
    }
}

/// A parent's actions: plain, labelled, a child, keyed children, a value payload, two
/// scalars, and several cases on one line.
@PluginActions
enum ShopAction: Codable, Equatable, Sendable {
    /// Empties the cart.
    /// Nothing else changes.
    case clear
    /// Renames the shop.
    case rename(title: String, loud: Bool)
    case tally(Tally.Action)
    /// A line of the cart, by product id.
    case line(String, Tally.Action)
    /// Replaces the tags.
    case tags([String])
    case move(Int, Int)
    case open, close
}

/// Cases named with Swift keywords, in backticks.
@PluginActions
enum KeywordAction: Codable, Equatable, Sendable {
    /// Gives a book back.
    case `return`
    case `default`(`in`: Int)
}

/// Issue 51: an action enum nested in its model, naming types nested beside it unqualified
/// (`Shipping`, not `Basket.Shipping`), as the enum's own cases may. The schema, generated
/// as an extension at file scope, did not compile ("cannot find 'Shipping' in scope"); this
/// file compiling is half the test.
struct Basket {
    enum Shipping: String, Codable, CaseIterable, Sendable { case ground, air }
    struct Line: Codable, Equatable, Sendable { var sku: String }
    /// Not `CaseIterable`: its values cannot be listed, so only the plugin checks them.
    enum Wrap: String, Codable, Sendable { case paper, box }

    @PluginActions
    enum Action: Codable, Equatable, Sendable {
        /// Ships a product.
        case ship(sku: String, via: Shipping = .ground)
        case pack([Line], Shipping?)
        case route([String: Shipping])
        case wrap(Wrap)
    }
}

@Suite("@PluginActions: the schema comes from the enum")
struct PluginActionsSchemaTests {
    @Test func aSiblingNestedTypeIsFoundUnqualified() throws {
        let schema = Basket.Action.pluginActions
        #expect(schema.map(\.name) == ["ship", "pack", "route", "wrap"])
        #expect(
            schema[0].params.map(\.shape) == [
                nil,
                .choice(
                    name: "Shipping",
                    cases: [.init("ground", rawValue: .string("ground")), .init("air", rawValue: .string("air"))]),
            ])
        #expect(try schema[0].make([.string("a"), .string("air")]) == .ship(sku: "a", via: .air))
        #expect(
            try schema[1].make([.array([.record(type: nil, fields: [.init("sku", .string("b"))])]), .null])
                == .pack([.init(sku: "b")], nil))
        #expect(
            try schema[2].make([.record(type: nil, fields: [.init("x", .string("ground"))])]) == .route(["x": .ground]))
    }

    /// Issue 51: a bad value of a raw-value enum that is not `CaseIterable` (which the host
    /// cannot check) was "Cannot initialize Wrap from invalid String value bogus".
    @Test func aBadValueOfAnEnumStorshCannotListSaysWhatToDo() throws {
        let wrap = try #require(Basket.Action.pluginActions.first { $0.name == "wrap" })
        #expect(try wrap.make([.string("box")]) == .wrap(.box))
        let error = #expect(throws: (any Error).self) { try wrap.make([.string("bogus")]) }
        #expect(
            error.map(describe)
                == "bogus is not a Wrap value; storesh cannot list Wrap's values: declare it CaseIterable and :actions, :help, completion and errors show them (at wrap._0)"
        )
    }

    /// ``case `return` `` compiled, then the plugin failed to load with "an action has no
    /// valid name", naming no action: the backticks were part of the name.
    @Test func backtickedNamesAreTheNamesWithoutBackticks() throws {
        let schema = KeywordAction.pluginActions
        #expect(schema.map(\.name) == ["return", "default"])
        #expect(schema[1].params.map(\.label) == ["in"])
        #expect(try schema[0].make([]) == .return)
        #expect(try schema[1].make([.int(3)]) == .default(in: 3))
    }

    @Test func everyCaseIsThereWithItsNameKindsAndDoc() {
        let schema = ShopAction.pluginActions
        #expect(
            schema.map(\.name) == [
                "clear", "rename", "tally.increment", "tally.set", "line[].increment", "line[].set",
                "tags", "move", "open", "close",
            ])
        #expect(schema[0].doc == "Empties the cart. Nothing else changes.")
        #expect(schema[1].params.map(\.label) == ["title", "loud"])
        #expect(schema[1].params.map(\.kind) == [.string, .bool])
        #expect(schema[2].doc == "Adds one.", "a child's action keeps its own doc")
        #expect(schema[3].params.map(\.kind) == [.int])
        #expect(schema[4].params.map(\.label) == ["key"])
        #expect(schema[4].params.map(\.kind) == [.string])
        #expect(schema[5].params.map(\.kind) == [.string, .int])
        #expect(schema[6].params.map(\.kind) == [.value])
        #expect(schema[7].params.map(\.kind) == [.int, .int])
        #expect(schema[7].params.map(\.label) == [nil, nil])
    }

    @Test func argumentsDecodeIntoTheCases() throws {
        func make(_ name: String, _ arguments: [Value]) throws -> ShopAction {
            let entry = try #require(ShopAction.pluginActions.first { $0.name == name })
            return try entry.make(arguments)
        }
        #expect(try make("clear", []) == .clear)
        #expect(try make("rename", [.string("Corner"), .bool(true)]) == .rename(title: "Corner", loud: true))
        #expect(try make("tally.set", [.int(3)]) == .tally(.set(3)))
        #expect(try make("line[].increment", [.string("p1")]) == .line("p1", .increment))
        #expect(try make("line[].set", [.string("p1"), .int(2)]) == .line("p1", .set(2)))
        #expect(try make("tags", [.array([.string("a"), .string("b")])]) == .tags(["a", "b"]))
        #expect(try make("move", [.int(1), .int(2)]) == .move(1, 2))
        #expect(try make("close", []) == .close)
    }
}

final class PluginActionsExpansionTests: XCTestCase {
    let macros: [String: MacroSpec] = [
        "PluginActions": MacroSpec(type: PluginActionsMacro.self, conformances: ["PluginActions"])
    ]

    func testExpansionListsEveryCase() {
        assertMacroExpansion(
            """
            @PluginActions
            public enum Action: Codable {
                /// Adds one.
                case increment
                case set(Int)
                case child(Child.Action)
            }
            """,
            expandedSource: """
                public enum Action: Codable {
                    /// Adds one.
                    case increment
                    case set(Int)
                    case child(Child.Action)

                    /// Every action, derived from the enum by `@PluginActions`.
                    public static var pluginActions: [ActionSchema<Self>] {
                        var all: [ActionSchema<Self>] = []
                        all += [ActionSchema("increment", "Adds one.")]
                        all += PluginActionSchemas.single("set", "", (Int).self, param: PluginActionSchemas.param((Int).self, label: nil))
                        all += PluginActionSchemas.single("child", "", (Child.Action).self, param: PluginActionSchemas.param((Child.Action).self, label: nil))
                        return all
                    }
                }

                extension Action: PluginActions {
                }
                """,
            macroSpecs: macros
        )
    }

    /// `case push(message: String, image: String? = nil)` was refused ("give every
    /// argument"): a default the shell can take is now passed on; any other leaves the
    /// argument required, and its doc says why.
    func testDefaultArgumentsArePassedOnOrExplained() {
        assertMacroExpansion(
            """
            @PluginActions
            enum Action: Codable {
                case go(speed: Int = 1, via: Route = .road, note: String? = nil, at: Stamp = Stamp())
            }
            """,
            expandedSource: """
                enum Action: Codable {
                    case go(speed: Int = 1, via: Route = .road, note: String? = nil, at: Stamp = Stamp())

                    /// Every action, derived from the enum by `@PluginActions`.
                    static var pluginActions: [ActionSchema<Self>] {
                        var all: [ActionSchema<Self>] = []
                        all += [ActionSchema("go", "", [PluginActionSchemas.param((Int).self, label: "speed", default: "1"), PluginActionSchemas.param((Route).self, label: "via", default: "\\"road\\""), PluginActionSchemas.param((String?).self, label: "note", default: "null"), PluginActionSchemas.param((Stamp).self, label: "at", doc: "required: its default `Stamp()` is not a literal storesh can take")])]
                        return all
                    }
                }

                extension Action: PluginActions {
                }
                """,
            macroSpecs: macros
        )
    }

    /// Issue 51: `Shipping`, declared beside the action enum in `Basket`, was not in scope
    /// in an extension at file scope. The schema is a member of the enum now, where the
    /// enum's own cases find it; only the conformance is an extension.
    func testTheSchemaIsAMemberWhereTheEnumsOwnNamesAreInScope() {
        assertMacroExpansion(
            """
            struct Basket {
                enum Shipping: String {
                    case ground
                }
                @PluginActions
                enum Action: Codable {
                    case ship(sku: String, via: Shipping)
                }
            }
            """,
            expandedSource: """
                struct Basket {
                    enum Shipping: String {
                        case ground
                    }
                    enum Action: Codable {
                        case ship(sku: String, via: Shipping)

                        /// Every action, derived from the enum by `@PluginActions`.
                        static var pluginActions: [ActionSchema<Self>] {
                            var all: [ActionSchema<Self>] = []
                            all += [ActionSchema("ship", "", [PluginActionSchemas.param((String).self, label: "sku"), PluginActionSchemas.param((Shipping).self, label: "via")])]
                            return all
                        }
                    }
                }

                extension Basket.Action: PluginActions {
                }
                """,
            macroSpecs: macros
        )
    }

    func testMistakesAreCompileErrorsNamingTheCase() {
        assertMacroExpansion(
            """
            @PluginActions
            struct Action {}
            """,
            expandedSource: """
                struct Action {}
                """,
            diagnostics: [
                DiagnosticSpec(message: "@PluginActions goes on the model's action enum", line: 1, column: 1)
            ],
            macroSpecs: macros
        )
    }
}
