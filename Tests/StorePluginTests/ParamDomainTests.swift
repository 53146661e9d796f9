import PluginActionsExpansion
import StoreValue
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import Testing
import XCTest

@testable import StorePlugin

/// A keypad's actions, whose arguments say the values they take at the end of their docs.
@PluginActions
enum KeypadAction: Codable, Equatable, Sendable {
    /// Presses a key.
    /// - Parameter digit: the key, in 0...9
    case press(digit: Int)
    /// Orders a portion.
    /// - Parameter size: the portion, one of "s", "m", "l".
    case order(size: String = "m")
    /// Sets the volume.
    /// - Parameters:
    ///   - level: how loud (in 0..<100)
    ///   - step: how much a turn changes it, one of 0.5, 1.5
    case volume(level: Int8, step: Double)
    /// Picks a slot, or none.
    /// - Parameter slot: one of 1, 2, 5
    case pick(slot: Int?)
    /// Writes a note.
    /// - Parameter text: in one of the house styles, in plain words
    case note(text: String)
    /// Turns the dial.
    /// - Parameter degrees: one of 0, 90, 180
    case turn(degrees: Double)
    /// Cools down.
    /// - Parameter by: in -10...-1
    case cool(by: Int)
    /// Picks a cup (one of "s", "m", or "l").
    /// - Parameter cup: the cup (one of "s", "m", or "l")
    case cup(cup: String)
    /// - Parameter n: none of 1, 2
    case avoid(n: Int)
    /// - Parameter quote: one of "one of us", "them"
    case say(quote: String)
    /// - Parameter speed: one of "slow", "fast" (an enum: the doc is prose, its cases are its domain)
    case go(speed: Speed)
}

@Suite("argument domains said in a doc comment")
struct ParamDomainTests {
    func param(_ action: String, _ index: Int = 0) -> Param? {
        KeypadAction.pluginActions.first { $0.name == action }?.params[index]
    }

    @Test func aRangeOrASetAtTheEndOfAnArgumentsDocIsItsShape() {
        #expect(param("press")?.shape == .int(range: 0...9))
        #expect(
            param("order")?.shape
                == .choice(name: nil, cases: ["s", "m", "l"].map { TypeShape.Case($0, rawValue: .string($0)) }))
        #expect(param("order")?.defaultValue == "\"m\"", "the default stays")
        #expect(param("volume", 0)?.shape == .int(range: 0...99), "0..<100, of an Int8")
        #expect(
            param("volume", 1)?.shape
                == .choice(name: nil, cases: [0.5, 1.5].map { TypeShape.Case("\($0)", rawValue: .double($0)) }))
        #expect(
            param("pick")?.shape
                == .optional(.choice(name: nil, cases: [1, 2, 5].map { TypeShape.Case("\($0)", rawValue: .int($0)) })),
            "an optional stays optional")
        #expect(param("note")?.shape == nil, "prose that only looks like a domain is none")
        #expect(
            param("turn")?.shape
                == .choice(name: nil, cases: [0.0, 90, 180].map { TypeShape.Case("\($0)", rawValue: .double($0)) }),
            "whole numbers for a Double are numbers")
        #expect(param("cool")?.shape == .int(range: -10...(-1)), "a negative upper bound")
        #expect(
            param("cup")?.shape
                == .choice(name: nil, cases: ["s", "m", "l"].map { TypeShape.Case($0, rawValue: .string($0)) }),
            "in parentheses, the last after 'or'")
        #expect(param("avoid")?.shape == nil, "'none of' is not 'one of'")
        #expect(
            param("say")?.shape
                == .choice(name: nil, cases: ["one of us", "them"].map { TypeShape.Case($0, rawValue: .string($0)) }),
            "'one of' inside quotes is a value")
        #expect(param("go")?.shape == PluginShapes.shape(of: Speed.self), "an enum keeps its own cases")
        #expect(param("press")?.doc == "the key, in 0...9", "the doc is shown as written")
    }

    @Test func theShapesTextCarriesTheDomainToTheHost() throws {
        let shape = try #require(param("press")?.shape)
        #expect(shape.summary == "int 0...9")
        #expect(try TypeShape.parse(shape.text) == shape)
        #expect(throws: ShapeMismatch.self) { try shape.conform(.int(10)) }
        let sizes = try #require(param("order")?.shape)
        #expect(sizes.summary == #""s" | "m" | "l""#)
        #expect(try sizes.conform(.string("l")) == .string("l"))
        #expect(throws: ShapeMismatch.self) { try sizes.conform(.string("xl")) }
    }

    @Test func handWrittenParamsNarrowTheSameWay() {
        #expect(Param.int("n").shaped(.int(range: -128...127)).within(0...300).shape == .int(range: 0...127))
        #expect(Param.int("n").within(1...6).shape == .int(range: 1...6))
        #expect(Param.value("n", shape: .optional(.anyInt)).within(1...6).shape == .optional(.int(range: 1...6)))
        #expect(Param.string("s").oneOf(["a"]).shape == .choice(name: nil, cases: [.init("a", rawValue: .string("a"))]))
    }
}

final class ParamDomainExpansionTests: XCTestCase {
    let macros: [String: MacroSpec] = [
        "PluginActions": MacroSpec(type: PluginActionsMacro.self, conformances: ["PluginActions"])
    ]

    /// A domain that cannot be one is a compile error at the argument, saying why; the
    /// argument is kept, without the domain.
    func testADomainThatCannotBeOneIsAnErrorAtItsArgument() {
        assertMacroExpansion(
            """
            @PluginActions
            enum Action: Codable {
                /// - Parameter name: in 1...4
                case rename(name: String)
                /// - Parameter n: in 4...1
                case set(n: Int)
                /// - Parameter n: one of 1, "a"
                case mix(n: Int)
                /// - Parameter n: one of 1, 1
                case twice(n: Int)
                /// - Parameter n: in 200...300
                case big(n: Int8)
                /// - Parameter n: in 1...4
                case start(n: Int = 0)
            }
            """,
            expandedSource: """
                enum Action: Codable {
                    /// - Parameter name: in 1...4
                    case rename(name: String)
                    /// - Parameter n: in 4...1
                    case set(n: Int)
                    /// - Parameter n: one of 1, "a"
                    case mix(n: Int)
                    /// - Parameter n: one of 1, 1
                    case twice(n: Int)
                    /// - Parameter n: in 200...300
                    case big(n: Int8)
                    /// - Parameter n: in 1...4
                    case start(n: Int = 0)

                    /// Every action, derived from the enum by `@PluginActions`.
                    static var pluginActions: [ActionSchema<Self>] {
                        var all: [ActionSchema<Self>] = []
                        all += [ActionSchema("rename", "", [PluginActionSchemas.param((String).self, label: "name", doc: "in 1...4")])]
                        all += [ActionSchema("set", "", [PluginActionSchemas.param((Int).self, label: "n", doc: "in 4...1")])]
                        all += [ActionSchema("mix", "", [PluginActionSchemas.param((Int).self, label: "n", doc: "one of 1, \\"a\\"")])]
                        all += [ActionSchema("twice", "", [PluginActionSchemas.param((Int).self, label: "n", doc: "one of 1, 1")])]
                        all += [ActionSchema("big", "", [PluginActionSchemas.param((Int8).self, label: "n", doc: "in 200...300")])]
                        all += [ActionSchema("start", "", [PluginActionSchemas.param((Int).self, label: "n", doc: "in 1...4", default: "0")])]
                        return all
                    }
                }

                extension Action: PluginActions {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "the values the doc of 'name' ends with need a whole-number parameter, not String",
                    line: 4, column: 17),
                DiagnosticSpec(
                    message:
                        "the values the doc of 'n' ends with are an empty range (`4...1`): write the lowest value first",
                    line: 6, column: 14),
                DiagnosticSpec(
                    message: "the values the doc of 'n' ends with mix text and numbers (`1, \"a\"`)", line: 8,
                    column: 14),
                DiagnosticSpec(message: "the values the doc of 'n' ends with name a value twice", line: 10, column: 16),
                DiagnosticSpec(
                    message: "the values the doc of 'n' ends with go past what Int8 holds (-128...127)", line: 12,
                    column: 14),
                DiagnosticSpec(
                    message: "the values the doc of 'n' ends with do not hold its default, 0", line: 14, column: 16),
            ],
            macroSpecs: macros
        )
    }

    func testADomainIsAppendedToItsParameter() {
        assertMacroExpansion(
            """
            @PluginActions
            enum Action: Codable {
                /// - Parameters:
                ///   - key: in -1...9
                ///   - size: one of "a, b", "c"
                case press(key: Int?, size: String)
            }
            """,
            expandedSource: """
                enum Action: Codable {
                    /// - Parameters:
                    ///   - key: in -1...9
                    ///   - size: one of "a, b", "c"
                    case press(key: Int?, size: String)

                    /// Every action, derived from the enum by `@PluginActions`.
                    static var pluginActions: [ActionSchema<Self>] {
                        var all: [ActionSchema<Self>] = []
                        all += [ActionSchema("press", "", [PluginActionSchemas.param((Int?).self, label: "key", doc: "in -1...9").within(-1 ... 9), PluginActionSchemas.param((String).self, label: "size", doc: "one of \\"a, b\\", \\"c\\"").oneOf(["a, b", "c"])])]
                        return all
                    }
                }

                extension Action: PluginActions {
                }
                """,
            macroSpecs: macros
        )
    }
}
