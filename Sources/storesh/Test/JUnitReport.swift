import Foundation

/// `storesh test --junit FILE`: the results as JUnit XML, the format CI servers (GitLab,
/// Jenkins, GitHub's test reporters) read. One testcase per transcript; a failure carries
/// its problems and diff.
enum JUnitReport {
    static func xml(_ outcomes: [TestOutcome]) -> String {
        let failures = outcomes.filter { !$0.result.passed }.count
        let total = outcomes.reduce(0) { $0 + $1.seconds }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(outcomes.count)\" failures=\"\(failures)\" time=\"\(format(total))\">\n"
        xml +=
            "  <testsuite name=\"storesh transcripts\" tests=\"\(outcomes.count)\" failures=\"\(failures)\" time=\"\(format(total))\">\n"
        for outcome in outcomes {
            let result = outcome.result
            xml +=
                "    <testcase classname=\"storesh\" name=\"\(escape(result.file))\" time=\"\(format(outcome.seconds))\""
            if result.passed {
                xml += "/>\n"
                continue
            }
            let message = result.problems.first ?? "the output differs from the transcript"
            let detail = (result.problems + result.diff).joined(separator: "\n")
            xml += ">\n      <failure message=\"\(escape(message))\">\(escape(detail))</failure>\n    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    private static func format(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }

    /// Text as XML character data or an attribute value: markup characters escaped, and
    /// characters XML 1.0 cannot hold (most controls) replaced by U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
