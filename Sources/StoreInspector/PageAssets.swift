/// The inspector's page: `Page/index.html` with the style sheet and the scripts put in
/// place of their `{{file.name}}` marks, each `<style>` and `<script>` carrying a nonce that
/// the page's Content-Security-Policy names, so nothing else runs and nothing is fetched
/// from anywhere. The files are in the binary (`Embedded/`, by scripts/embed-inspector-page).
enum PageAssets {
    /// The files put into the page, by name in `Page/`.
    static let parts: [(name: String, text: String)] = [
        ("inspector.css", inspectorCss), ("inspector.js", inspectorJs), ("timeline.js", timelineJs),
        ("state.js", stateJs),
    ]

    /// Every embedded file by its name in `Page/`, for the test that they match.
    static let files: [(name: String, text: String)] = [("index.html", indexHtml)] + parts

    /// The page, with `nonce` in its policy and on its style and scripts.
    static func page(nonce: String) -> InspectorResponse {
        var text = indexHtml
        for part in parts { text = text.replacing("{{\(part.name)}}", with: part.text) }
        text = text.replacing("{{nonce}}", with: nonce)
        let policy =
            "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; connect-src 'self'; img-src 'self' data:; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        return InspectorResponse(
            status: 200, contentType: "text/html; charset=utf-8", headers: ["Content-Security-Policy": policy],
            body: .bytes(Array(text.utf8)))
    }
}
