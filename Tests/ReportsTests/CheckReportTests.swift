import Foundation
import Harness
import Reports
import Testing

@Suite("Check verdicts in text, Markdown, JSON and JUnit")
struct CheckReportTests {
    /// A verdict with one row of each kind that matters: a pass, a regression, an improvement,
    /// a changed result with `|`, `<` and `&` in its text, and a skipped row.
    static let verdict = CheckVerdict(
        rows: [
            CheckRow(lane: "quality", name: "seoul-10k hdbscan a=1", metric: "all", baseline: "5 clusters", current: "5 clusters",
                     change: "none", tolerance: "equal", status: .pass, advice: ""),
            CheckRow(lane: "instructions", name: "seoul-10k hdbscan a=1", metric: "MST", baseline: "100", current: "130",
                     change: "+30 %", tolerance: "±1 % or ±20", status: .regression, advice: "MST does +30 % more instructions"),
            CheckRow(lane: "wall", name: "seoul-100k hdbscan a=1", metric: "fit / calibration", baseline: "median 0.5", current: "median 0.3",
                     change: "-40 % (p = 0.001)", tolerance: "±20 % and p < 0.01", status: .improvement, advice: "refresh the baseline"),
            CheckRow(lane: "quality", name: "a|b <c> & d", metric: "partition hash", baseline: "h1", current: "h2",
                     change: "differs", tolerance: "equal", status: .changed, advice: "the result changed"),
            CheckRow(lane: "a/b", name: "x", metric: "fit", baseline: "", current: "", change: "", tolerance: "",
                     status: .skipped, advice: "other machine"),
        ],
        warnings: ["the baseline was measured on another kind of machine"],
        baselineDescription: "geocluster 0.1.0 (abc) on M", currentDescription: "geocluster 0.1.0 (def) on M")

    @Test("text: headline with the exit status, every row in aligned columns, what to do for each failing row")
    func text() {
        let t = CheckReport.render(Self.verdict, format: .text)
        let lines = t.split(separator: "\n").map(String.init)
        #expect(lines[0] == "geocluster check: regression (exit 2; 1 pass, 1 regression, 1 changed, 1 improvement, 1 skipped)")
        #expect(lines.contains("warning: the baseline was measured on another kind of machine"))
        let header = try! #require(lines.first { $0.hasPrefix("lane") })
        let statusColumn = header.range(of: "status")!.lowerBound.utf16Offset(in: header)
        for row in lines where row.hasPrefix("instructions") || row.hasPrefix("wall ") {
            #expect(row.utf16.count > statusColumn)
        }
        #expect(t.contains("[regression] instructions seoul-10k hdbscan a=1 MST: MST does +30 % more instructions"))
        #expect(t.contains("[improvement] wall"))
        #expect(!t.contains("[skipped]"))
    }

    @Test("Markdown: rows that need attention first, pipes escaped, every row in a details block")
    func markdown() {
        let m = CheckReport.render(Self.verdict, format: .markdown)
        #expect(m.hasPrefix("### geocluster check: regression"))
        #expect(m.contains("| quality | a\\|b <c> & d | partition hash |"))
        let attention = m.components(separatedBy: "#### Rows that need attention")[1].components(separatedBy: "#### What to do")[0]
        #expect(attention.split(separator: "\n").filter { $0.hasPrefix("| ") }.count == 1 + 4)  // header + 4 rows
        #expect(m.contains("<details><summary>All 5 rows</summary>"))
    }

    @Test("JSON: outcome, exit status and every row, decodable")
    func json() throws {
        struct Decoded: Decodable { var outcome: String; var exitCode: Int32; var warnings: [String]; var rows: [CheckRow] }
        let d = try JSONDecoder().decode(Decoded.self, from: Data(CheckReport.render(Self.verdict, format: .json).utf8))
        #expect(d.exitCode == 2 && d.outcome == "regression")
        #expect(d.rows == Self.verdict.rows)
        #expect(d.warnings.count == 1)
    }

    @Test("JUnit: well-formed XML, a suite per lane, failures for regressions, changes and an out-of-date baseline")
    func junit() throws {
        let x = CheckReport.render(Self.verdict, format: .junit)
        let doc = try XMLCheck(x)
        let root = try #require(doc.elements.first)
        #expect(root.name == "testsuites" && root.attributes["tests"] == "5" && root.attributes["failures"] == "3")
        let suites = doc.elements.filter { $0.name == "testsuite" }
        #expect(suites.map { $0.attributes["name"] ?? "" } == ["quality", "instructions", "wall", "a/b", "warnings"])
        let failures = doc.elements.filter { $0.name == "failure" }
        #expect(failures.map { $0.attributes["type"] ?? "" } == ["changed", "regression", "baseline-out-of-date"], "grouped by lane")
        #expect(doc.elements.filter { $0.name == "skipped" }.count == 1)
        #expect(doc.elements.contains { $0.name == "testcase" && $0.attributes["name"] == "a|b <c> & d — partition hash" })
    }

    @Test("a passing verdict exits 0 and says pass")
    func passing() {
        let v = CheckVerdict(rows: [Self.verdict.rows[0]], warnings: [], baselineDescription: "b", currentDescription: "c")
        #expect(v.exitCode == 0)
        #expect(CheckReport.render(v, format: .text).hasPrefix("geocluster check: pass (exit 0; 1 pass)"))
        #expect(!CheckReport.render(v, format: .markdown).contains("Rows that need attention"))
    }
}
