import Harness
import Reports

/// A `geocluster bench` run from request to report folder: the datasets and plan (Harness),
/// every cell in its own process (`Bench.run`), then the report (`BenchReport.write`), all in a
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
            let (summary, figures) = try BenchReport.write(rows: rows, pinRows: pinRows, plan: plan, commandLine: request.commandLine)
            return BenchReport.Outcome(rows: rows, summary: summary, figures: figures, pinRows: pinRows, out: request.out)
        }
    }
}
