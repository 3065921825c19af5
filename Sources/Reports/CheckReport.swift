import Harness
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The formats `geocluster check` writes its verdict in.
public enum CheckReportFormat: String, Sendable, CaseIterable {
    /// A table for a terminal or a CI log.
    case text
    /// GitHub-flavoured Markdown, for a pull request's summary.
    case markdown
    /// Every row and the exit status, for scripts.
    case json
    /// JUnit XML, which CI systems show as test results: one test case per row.
    case junit
}

/// Renders a `CheckVerdict`.
public enum CheckReport {
    public static func render(_ v: CheckVerdict, format: CheckReportFormat) -> String {
        switch format {
        case .text: return text(v)
        case .markdown: return markdown(v)
        case .json: return json(v)
        case .junit: return junit(v)
        }
    }

    static let columns = ["lane", "case", "metric", "baseline", "current", "change", "tolerance", "status"]

    static func cells(_ r: CheckRow) -> [String] {
        [r.lane, r.name, r.metric, r.baseline, r.current, r.change, r.tolerance, r.status.rawValue]
    }

    /// `geocluster check: regression (exit 2; 1 regression, 40 pass)`.
    public static func headline(_ v: CheckVerdict) -> String {
        "geocluster check: \(v.outcome) (exit \(v.exitCode); \(v.tally))"
    }

    /// What to do, one line per row that needs something done.
    public static func actions(_ v: CheckVerdict) -> [String] {
        v.rows.filter { $0.status != .pass && $0.status != .skipped && !$0.advice.isEmpty }
            .map { "[\($0.status.rawValue)] \($0.lane) \($0.name) \($0.metric): \($0.advice)" }
    }

    static func text(_ v: CheckVerdict) -> String {
        var lines = [headline(v), "baseline: \(v.baselineDescription)", "this run: \(v.currentDescription)"]
        lines += v.warnings.map { "warning: \($0)" }
        lines.append("")
        let table = [columns] + v.rows.map(cells)
        var widths = [Int](repeating: 0, count: columns.count)
        for row in table { for (k, c) in row.enumerated() { widths[k] = max(widths[k], c.count) } }
        for row in table {
            var line = ""
            for (k, c) in row.enumerated() {
                line += k == row.count - 1 ? c : c + String(repeating: " ", count: widths[k] - c.count + 2)
            }
            lines.append(line)
        }
        let todo = actions(v)
        if !todo.isEmpty {
            lines.append("")
            lines.append("What to do:")
            lines += todo.map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func markdown(_ v: CheckVerdict) -> String {
        func escape(_ s: String) -> String { s.replacing("|", with: "\\|").replacing("\n", with: " ") }
        func table(_ rows: [CheckRow]) -> [String] {
            ["| " + columns.joined(separator: " | ") + " |", "|" + String(repeating: "---|", count: columns.count)]
                + rows.map { "| " + cells($0).map(escape).joined(separator: " | ") + " |" }
        }
        var lines = ["### " + headline(v), "", "- baseline: \(escape(v.baselineDescription))",
                     "- this run: \(escape(v.currentDescription))"]
        lines += v.warnings.map { "- **warning:** \(escape($0))" }
        let attention = v.rows.filter { $0.status != .pass }
        if !attention.isEmpty {
            lines += ["", "#### Rows that need attention", ""] + table(attention)
            lines += ["", "#### What to do", ""] + actions(v).map { "- " + escape($0) }
        }
        lines += ["", "<details><summary>All \(v.rows.count) rows</summary>", ""] + table(v.rows) + ["", "</details>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The verdict as JSON: outcome, exit status, descriptions, warnings, rows.
    struct JSONVerdict: Encodable {
        var outcome: String
        var exitCode: Int32
        var baseline: String
        var current: String
        var warnings: [String]
        var rows: [CheckRow]
    }

    static func json(_ v: CheckVerdict) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let body = JSONVerdict(outcome: v.outcome, exitCode: v.exitCode, baseline: v.baselineDescription,
                               current: v.currentDescription, warnings: v.warnings, rows: v.rows)
        let data = (try? encoder.encode(body)) ?? Data()  // strings and numbers only: cannot fail
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// JUnit XML: a test suite per lane, a test case per row; regressions and changes are
    /// failures, an out-of-date baseline (improvement, new, removed) a failure of its own type,
    /// skipped rows skipped.
    static func junit(_ v: CheckVerdict) -> String {
        var w = XMLWriter()
        w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        func failing(_ r: CheckRow) -> Bool { r.status != .pass && r.status != .skipped }
        w.open("testsuites", ["name": "geocluster check", "tests": "\(v.rows.count)",
                              "failures": "\(v.rows.filter(failing).count)"])
        var lanes: [String] = []
        for r in v.rows where !lanes.contains(r.lane) { lanes.append(r.lane) }
        for lane in lanes {
            let rows = v.rows.filter { $0.lane == lane }
            w.open("testsuite", ["name": lane, "tests": "\(rows.count)", "failures": "\(rows.filter(failing).count)",
                                 "skipped": "\(rows.filter { $0.status == .skipped }.count)", "errors": "0"])
            for r in rows {
                w.open("testcase", ["classname": "geocluster.check.\(lane)", "name": "\(r.name) — \(r.metric)"])
                let detail = "baseline \(r.baseline); current \(r.current); change \(r.change); tolerance \(r.tolerance). \(r.advice)"
                switch r.status {
                case .pass: break
                case .skipped: w.element("skipped", ["message": r.advice], text: "")
                case .regression, .changed:
                    w.element("failure", ["type": r.status.rawValue, "message": "\(r.status.rawValue): \(r.metric) \(r.change)"], text: detail)
                case .improvement, .new, .removed:
                    w.element("failure", ["type": "baseline-out-of-date", "message": "\(r.status.rawValue): \(r.metric) \(r.change)"], text: detail)
                }
                w.close()
            }
            w.close()
        }
        if !v.warnings.isEmpty {
            // Warnings of the whole run, where CI systems show a suite's output.
            w.open("testsuite", ["name": "warnings", "tests": "0", "failures": "0"])
            w.element("system-out", text: v.warnings.joined(separator: "\n"))
            w.close()
        }
        w.close()
        return w.finish() + "\n"
    }
}
