/// What the generator could not do, where: printed as compilers print, so SwiftPM and
/// editors show it at the place (`path:line:col: error: message`).
package struct GlueDiagnostic: Equatable, CustomStringConvertible, Sendable {
    package struct Place: Equatable, Sendable {
        package let file: String
        package let line: Int
        package let column: Int
    }

    package enum Severity: String, Sendable { case error, warning }

    package let place: Place
    package let severity: Severity
    package let message: String

    package var description: String {
        "\(place.file):\(place.line):\(place.column): \(severity.rawValue): \(message)"
    }
}

/// The generated file's text and what went wrong; any error means the text is not to be used.
package struct GlueOutput: Sendable {
    package let text: String
    package let diagnostics: [GlueDiagnostic]
    package var failed: Bool { diagnostics.contains { $0.severity == .error } }
}
