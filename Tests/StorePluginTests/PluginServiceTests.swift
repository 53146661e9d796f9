import PluginActionsExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

/// `@PluginService`: the C signature, the thunk and the typed caller all come from the
/// function's Swift types, and a type a C signature cannot carry does not build.
final class PluginServiceExpansionTests: XCTestCase {
    let macros: [String: any Macro.Type] = ["PluginService": PluginServiceMacro.self]

    func testSignatureThunkAndCallerComeFromTheTypes() {
        assertMacroExpansion(
            """
            /// The price of a product.
            @PluginService
            func price(sku: String, _ count: Int) -> Bool { true }
            """,
            expandedSource: """
                /// The price of a product.
                func price(sku: String, _ count: Int) -> Bool { true }

                /// `price` as a plugin service: list `priceService.declaration` in the
                /// model's services, and give its environment `environment.caller(priceService)`.
                let priceService = PluginService<@Sendable (String, Int) async throws -> Bool>(
                    ServiceDeclaration("price", "The price of a product.", signature: "si>b", implementation: { (c0: UnsafePointer<CChar>?, c1: Int64) -> Bool in
                            price(sku: ServiceValues.string(c0), Int(c1))
                        } as @convention(c) (UnsafePointer<CChar>?, Int64) -> Bool),
                    caller: { call in
                        { (sku: String, a1: Int) async throws -> Bool in
                            try await call { (function: @convention(c) (UnsafePointer<CChar>?, Int64) -> Bool) in
                                sku.withCString { s0 in
                                    function(s0, Int64(a1))
                                }
                            }
                        }
                    }
                )
                """,
            macros: macros
        )
    }

    func testTypesACSignatureCannotCarryDoNotBuild() {
        for (source, message, column) in [
            (
                "func f(x: [Int]) -> Bool { true }",
                "a service parameter must be Int, Int64, Double, Bool or String, not [Int]: storesh passes it through a C signature",
                11
            ),
            (
                "func g() -> [String] { [] }",
                "a service returns Int, Int64, Double, Bool, String or nothing, not [String]: storesh passes it through a C signature",
                13
            ),
            (
                "func h() async -> Int { 0 }",
                "a service is a plain C function: it cannot be async or throw (its callers await it and get a stub's failure as an error)",
                6
            ),
        ] {
            assertMacroExpansion(
                "@PluginService\n" + source,
                expandedSource: source,
                diagnostics: [DiagnosticSpec(message: message, line: 2, column: column)],
                macros: macros
            )
        }
    }
}
