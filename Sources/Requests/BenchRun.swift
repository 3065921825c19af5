import Datasets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Harness
import Reports

/// A `geocluster bench` run from request to report folder: the datasets and plan (Harness),
/// every cell in its own process (`Bench.run`), then the report (tables, figures, page), all in a
/// staging folder that is moved into place only when all of it is written.
extension BenchRequest {
    /// Runs the benchmark `request` describes and writes its report into `request.out`.
    /// - Parameters:
    ///   - progress: shows a transient console line as each cell starts (nil when standard
    ///     error is not a terminal); the run ends those lines with an empty `note`.
    ///   - note: receives the run's console lines (datasets, missing truth).
    /// - Throws: `HarnessError` or `DatasetError` for what stops the whole run; a failed cell
    ///   is a row. The report folder is then left as it was.
    /// The map pins are compared after the cells when `request.pins` is set.
    public func run(progress: ((BenchProgress) -> Void)?, note: (String) -> Void) throws -> BenchReport.Outcome {
        let request = self
        let datasets = try request.datasets(note: note)
        return try BenchStagingFolder.staged(out: request.out) { folder in
            let previous = request.resume ? BenchTables.readRuns(path: request.out + "/runs.csv") : []
            let plan = try request.plan(datasets: datasets, work: folder.path, previous: previous)
            let rows = try Bench.run(plan) { progress?($0) }
            if progress != nil { note("") }
            for line in BenchRequest.truthNotes(rows: rows, datasets: datasets) + BenchRequest.emptyNotes(rows: rows, datasets: datasets) {
                note(line)
            }
            let pinRows = try request.pins.map { pins in
                try PinsComparison.run(plan: plan, request: pins, timeout: request.timeout, seed: request.seed, note: note)
            }
            let (summary, figures) = try Self.writeReport(rows: rows, pinRows: pinRows, plan: plan, commandLine: request.commandLine)
            return BenchReport.Outcome(rows: rows, summary: summary, figures: figures, pinRows: pinRows, out: request.out)
        }
    }

    /// Writes the report of `rows` into the plan's work folder: pins.csv (when `pinRows` is
    /// given), runs.csv, summary.csv, README.md (what every column means), the maps and tree
    /// plots, and index.html.
    /// - Returns: the summary and the figures drawn.
    static func writeReport(rows: [RunRow], pinRows: [PinsRow]?, plan: BenchPlan,
                             commandLine: String) throws -> (summary: [SummaryRow], figures: [ReportFigure]) {
        let folder = plan.work
        if let pinRows { try BenchTables.write(pinRows, columns: BenchTables.pinsColumns, to: folder + "/pins.csv") }
        let summary = Summary.make(rows)
        try BenchTables.write(rows, columns: BenchTables.runColumns, to: folder + "/runs.csv")
        try BenchTables.write(summary, columns: BenchTables.summaryColumns, to: folder + "/summary.csv")
        try AtomicFile.write(BenchTables.columnsDocument(), to: folder + "/README.md")
        let figures = try BenchFigures.draw(summary: summary, rows: rows, datasets: plan.datasets, threads: plan.threads,
                                             input: plan.runInput, folder: folder)
        let info = ReportInfo(title: "geocluster benchmark", generatedAt: Date.now.formatted(.iso8601),
                              version: plan.version, commit: plan.commit, machine: plan.machine, commandLine: commandLine)
        try AtomicFile.write(HTMLReport.render(summary: summary, figures: figures, info: info), to: folder + "/index.html")
        return (summary, figures)
    }
}
