import Datasets
import Harness
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the console shows of a `geocluster bench` run (`BenchRequest.run` in Requests runs the
/// cells and writes the report folder): progress, the summary and pins tables, the closing note.
public enum BenchReport {
    /// What a run leaves for the console.
    public struct Outcome: Sendable {
        /// One row per cell, and the summary made from them.
        public var rows: [RunRow]
        public var summary: [SummaryRow]
        public var figures: [ReportFigure]
        /// The map-pin comparison's rows, when one ran.
        public var pinRows: [PinsRow]?
        /// The report folder.
        public var out: String

        public init(rows: [RunRow], summary: [SummaryRow], figures: [ReportFigure], pinRows: [PinsRow]?, out: String) {
            self.rows = rows; self.summary = summary; self.figures = figures; self.pinRows = pinRows; self.out = out
        }
    }

    /// The console line of a cell starting: a carriage return, the cell and the time spent and
    /// left (cut to 150 characters), and "erase to end of line", so one line updates in place.
    public static func progressLine(_ p: BenchProgress) -> String {
        let left = p.remaining.map { FormatNumber.printf(", ~%.0f s left", [$0]) } ?? ""
        let line = "[\(p.cell)/\(p.cells)] \(p.dataset) \(p.label)  \(FormatNumber.printf("%.0f s", [p.elapsed]))\(left)"
        return "\r" + String(line.prefix(150)) + "\u{1B}[K"
    }

    /// The summary as a console table: a header, then one line per row; `*` marks the best
    /// setting of a sweep (by ARI; without truth by relative validity, `rv`, for HDBSCAN and
    /// by DBCV on a subsample, `db`, for DBSCAN and grid).
    public static func summaryTable(_ summary: [SummaryRow]) -> String {
        func pad(_ text: String, _ width: Int) -> String { ReportFormat.padded(text, to: width) }
        func c(_ format: String, _ value: Double) -> String { FormatNumber.printf(format, [value]) }
        let width = max(17, (summary.map(\.dataset.count).max() ?? 0) + 2)
        var text = pad("dataset", width)
            + "implementation  method        parameters                              fit s (median)  ARI       clusters  status\n"
        for s in summary {
            let fit = s.fitSeconds.map { c("%10.4f", $0.median) } ?? "         –"
            let score = s.ari.map { c("%.3f", $0) } ?? s.relativeValidity.map { c("rv %.3f", $0) }
                ?? s.dbcv.map { c("db %.3f", $0) } ?? "–    "
            let ari = score + (s.bestInSweep ? "*" : "")
            let clusters = s.clusters.map { "\($0)" } ?? "–"
            text += pad(s.dataset, width) + pad(s.implementation, 16) + pad(s.method, 14) + pad(s.parameters, 40)
                + fit + "      " + pad(ari, 10) + pad(clusters, 10)
                + s.status.rawValue + (s.fitScope == .mst ? " (fit s: the MST alone)" : "")
                + (s.error.isEmpty ? "" : ": " + String(s.error.prefix(60))) + "\n"
        }
        return text
    }

    /// The map-pin comparison (`--pins-zooms`) as a console table, after an empty line: one
    /// line per dataset, zoom and implementation; a failed cell shows its status and error.
    public static func pinsTable(_ rows: [PinsRow]) -> String {
        func pad(_ text: String, _ width: Int) -> String { ReportFormat.padded(text, to: width) }
        func c(_ format: String, _ value: Double) -> String { FormatNumber.printf(format, [value]) }
        var text = pad("\ndataset", 18) + "zoom  implementation  pins/viewport  ARI     ARI vs sc  overlap  build s   query p50 ms  p99 ms   peak MB\n"
        for r in rows {
            let head = pad(r.dataset, 17) + pad(String(r.zoom), 6) + pad(r.implementation, 16)
            guard r.status == .ok else {
                text += head + r.status.rawValue + ": " + r.error + "\n"
                continue
            }
            let ari = r.ari.map { c("%.3f", $0) } ?? "–"
            let vsSupercluster = r.ariVsSupercluster.map { c("%.3f", $0) } ?? "–"
            let q = r.queryP50.map { c("%8.3f", $0 * 1e3) + "      " + c("%7.3f", (r.queryP99 ?? 0) * 1e3) } ?? "       –           –"
            text += head + pad(c("%9.1f", r.pinsPerViewport ?? 0), 15) + pad(ari, 8) + pad(vsSupercluster, 11) + pad(c("%6.3f", r.overlap ?? 0), 9)
                + pad(c("%7.3f", r.buildSeconds ?? 0), 10) + q + c("%9.0f", r.peakMegabytes ?? 0) + "\n"
        }
        return text
    }

    /// The run's last console line: how many runs failed, what was drawn, what was written.
    public static func closingNote(_ o: Outcome) -> String {
        let failed = o.rows.filter { $0.status != .ok && $0.status != .skipped && $0.status != .unavailable }.count
        let maps = o.figures.filter { $0.kind == .map }.count, trees = o.figures.filter { $0.kind == .tree }.count
        return "bench: \(o.rows.count) runs (\(failed) failed), \(o.summary.count) summary rows, \(maps) maps, \(trees) tree plots; wrote \(o.out)/index.html, \(o.out)/runs.csv, \(o.out)/summary.csv"
    }
}
