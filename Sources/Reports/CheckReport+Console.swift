import Datasets
import Harness

extension CheckReport {
    /// What `check --update-baseline` prints: the file written, then what moved against the
    /// previous baseline (one line per row that did not pass), or what the new one holds.
    public static func baselineUpdate(_ u: CheckBaselineUpdate) -> String {
        guard let diff = u.changes else {
            let b = u.written
            return "check: wrote \(u.path) (\(b.quality.count) quality cases, \(b.counts.count) stage counts, \(b.wall.count) timed cases); commit it\n"
        }
        var text = "check: wrote \(u.path); against the previous baseline: \(diff.tally)\n"
        for r in diff.rows where r.status != .pass && r.status != .skipped {
            text += "  \(r.status.rawValue): \(r.lane) \(r.name) \(r.metric): \(r.baseline) -> \(r.current) (\(r.change))\n"
        }
        return text
    }

    /// Delivers a verdict in `format`. Without `report`, returns the whole verdict for standard
    /// output; with it, writes the verdict there and returns the headline, the warnings, what
    /// to do and where the verdict is.
    /// - Throws: `DatasetError` when `report` cannot be written.
    public static func deliver(_ v: CheckVerdict, format: CheckReportFormat, to report: String?) throws(DatasetError) -> String {
        let rendered = render(v, format: format)
        guard let report else { return rendered }
        try AtomicFile.write(rendered, to: report)
        var text = headline(v) + "\n"
        for w in v.warnings { text += "warning: \(w)\n" }
        for line in actions(v) { text += "  " + line + "\n" }
        return text + "verdict: \(report)\n"
    }
}
