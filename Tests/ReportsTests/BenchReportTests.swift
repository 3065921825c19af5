import Foundation
import Harness
import Reports
import Testing
import TestSupport

/// The console text of `geocluster bench` and `geocluster check --update-baseline`, and the
/// verdict delivered to a file: the text the commands print, tested without a process.
@Suite("Bench and check: console text")
struct BenchReportTests {
    static func summaryRow(_ dataset: String, _ method: String, fit: Double?, ari: Double? = nil, rv: Double? = nil,
                           clusters: Int? = nil, best: Bool = false, status: RunStatus = .ok, error: String = "") -> SummaryRow {
        var s = SummaryRow(dataset: dataset, points: 1000, datasetHash: "h", implementation: "geocluster", method: method,
                           parameters: "min_cluster_size=30 min_samples=15", okRepeats: 1, repeats: 1, status: status,
                           error: error, fitSeconds: fit.map { Spread(median: $0, min: $0, max: $0) }, clusters: clusters,
                           ari: ari, bestInSweep: best)
        s.relativeValidity = rv
        return s
    }

    @Test("the summary table: columns padded as before, * on the best setting, rv without truth, – for what is missing")
    func summaryTable() {
        let text = BenchReport.summaryTable([
            Self.summaryRow("seoul-1k", "hdbscan", fit: 0.01234, ari: 0.8766, clusters: 12, best: true),
            Self.summaryRow("a-rather-long-dataset-name", "dbscan", fit: nil, rv: 0.5, status: .error,
                            error: String(repeating: "e", count: 70)),
        ])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[3].isEmpty, "a header, two rows, a final newline")
        // The dataset column is as wide as the longest name plus two (at least 17).
        #expect(lines[0] == "dataset" + String(repeating: " ", count: 21)
            + "implementation  method        parameters                              fit s (median)  ARI       clusters  status")
        #expect(lines[1] == "seoul-1k".padding(toLength: 28, withPad: " ", startingAt: 0) + "geocluster      hdbscan       "
            + "min_cluster_size=30 min_samples=15      " + "    0.0123      0.877*    12        ok")
        #expect(lines[2].hasSuffix("         –      rv 0.500  –         error: " + String(repeating: "e", count: 60)))
    }

    @Test("the pins table: after an empty line, one line per dataset, zoom and implementation; a failed cell names its error")
    func pinsTable() {
        var ok = PinsRow(dataset: "seoul-1k", implementation: "pinindex", zoom: 12)
        ok.pinsPerViewport = 41.25; ok.ari = 0.8474; ok.ariVsSupercluster = 0.9412; ok.overlap = 0; ok.buildSeconds = 0.0123
        ok.queryP50 = 0.000_25; ok.queryP99 = 0.001_5; ok.peakMegabytes = 31.4
        var noQueries = ok
        noQueries.implementation = "grid"; noQueries.queryP50 = nil; noQueries.ari = nil; noQueries.ariVsSupercluster = nil
        let failed = PinsRow(dataset: "seoul-1k", implementation: "pysupercluster", zoom: 12, status: .unavailable)
        var failedWithError = failed
        failedWithError.error = "python3 has no pysupercluster"
        let lines = BenchReport.pinsTable([ok, noQueries, failedWithError]).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6 && lines[0].isEmpty && lines[5].isEmpty, "an empty line, a header, three rows, a final newline")
        #expect(lines[1] == "dataset" + String(repeating: " ", count: 10)
            + "zoom  implementation  pins/viewport  ARI     ARI vs sc  overlap  build s   query p50 ms  p99 ms   peak MB")
        #expect(lines[2] == "seoul-1k         12    pinindex             41.2      0.847   0.941       0.000     0.012      0.250        1.500       31")
        #expect(lines[3].hasSuffix("41.2      –       –           0.000     0.012          –           –       31"))
        #expect(lines[4] == "seoul-1k         12    pysupercluster  unavailable: python3 has no pysupercluster")
    }

    @Test("the progress line rewrites itself in place, cut to 150 characters")
    func progressLine() {
        let p = BenchProgress(cell: 2, cells: 5, dataset: "seoul-1k", label: "geocluster hdbscan p #1", elapsed: 3.4, remaining: 9.6)
        #expect(BenchReport.progressLine(p) == "\r[2/5] seoul-1k geocluster hdbscan p #1  3 s, ~10 s left\u{1B}[K")
        var first = p
        first.remaining = nil
        first.label = String(repeating: "x", count: 200)
        let line = BenchReport.progressLine(first)
        #expect(line.hasPrefix("\r[2/5] seoul-1k xxx") && line.count == 1 + 150 + 3)
    }

    @Test("the closing note counts failed runs (not skipped or unavailable ones), maps and tree plots")
    func closingNote() {
        func row(_ status: RunStatus) -> RunRow {
            RunRow(dataset: "d", points: 1, datasetHash: "h", hasTruth: true, implementation: "geocluster", method: "grid",
                   parameters: "p", repeatIndex: 1, status: status)
        }
        func figure(_ kind: ReportFigure.Kind) -> ReportFigure {
            ReportFigure(kind: kind, dataset: "d", implementation: "geocluster", method: "grid", parameters: "p", title: "t", svg: "<svg/>")
        }
        let o = BenchReport.Outcome(rows: [row(.ok), row(.crashed), row(.skipped), row(.unavailable), row(.timeout)],
                                    summary: [Self.summaryRow("d", "grid", fit: 1)], figures: [figure(.map), figure(.tree), figure(.map)],
                                    pinRows: nil, out: "out")
        #expect(BenchReport.closingNote(o)
            == "bench: 5 runs (2 failed), 1 summary rows, 2 maps, 1 tree plots; wrote out/index.html, out/runs.csv, out/summary.csv")
    }

    @Test("--update-baseline prints what the new baseline holds, or what moved against the old one")
    func baselineUpdate() {
        var b = CheckBaseline(geoclusterVersion: "v", commit: "c", machine: "m", suite: "default")
        b.quality = [QualityResult(name: "q", datasetHash: "d", points: 10, clusters: 2, noise: 1, partitionHash: "h")]
        let first = CheckBaselineUpdate(path: "base.json", written: b, changes: nil, warnings: [])
        #expect(CheckReport.baselineUpdate(first) == "check: wrote base.json (1 quality cases, 0 stage counts, 0 timed cases); commit it\n")

        var moved = b
        moved.quality[0].clusters = 3
        let diff = CheckVerdict.compare(baseline: b, current: CheckMeasurement(results: moved), lanes: [.quality])
        let text = CheckReport.baselineUpdate(CheckBaselineUpdate(path: "base.json", written: moved, changes: diff, warnings: []))
        #expect(text.hasPrefix("check: wrote base.json; against the previous baseline: \(diff.tally)\n  changed: quality q clusters: 2 -> 3 (+1)\n"), "\(text)")
    }

    @Test("a verdict goes to standard output whole, or to --report with the headline and what to do printed")
    func deliver() throws {
        var b = CheckBaseline(geoclusterVersion: "v", commit: "c", machine: "m", suite: "default")
        b.quality = [QualityResult(name: "q", datasetHash: "d", points: 10, clusters: 2, noise: 1, partitionHash: "h")]
        var moved = b
        moved.quality[0].partitionHash = "h2"
        let v = CheckVerdict.compare(baseline: b, current: CheckMeasurement(results: moved), lanes: [.quality])
        #expect(try CheckReport.deliver(v, format: .text, to: nil) == CheckReport.render(v, format: .text))
        try withTemporaryFolder { folder in
            let path = folder.path("verdict.md")
            let printed = try CheckReport.deliver(v, format: .markdown, to: path)
            #expect(try folder.read("verdict.md") == CheckReport.render(v, format: .markdown))
            let expected = ([CheckReport.headline(v)] + CheckReport.actions(v).map { "  " + $0 } + ["verdict: \(path)"])
                .joined(separator: "\n") + "\n"
            #expect(printed == expected)
        }
    }
}
