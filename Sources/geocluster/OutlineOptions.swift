import ArgumentParser
import CommandLineSupport

/// Which points a cluster's outline is drawn around (`hulls`, `map`): all, or only those that
/// belong firmly, so that a few stray members do not stretch a compact cluster's outline.
struct OutlineOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Outline only points whose membership probability (the labels' probability column, HDBSCAN) is at least P, in [0, 1].", valueName: "P"))
    var minProbability: Double?

    @Flag(help: "Outline only core points: is_core = 1 (DBSCAN labels), or probability 1 (HDBSCAN labels).")
    var coreOnly = false

    func validate() throws {
        if let p = minProbability, !(p >= 0 && p <= 1) { throw ValidationError("--min-probability \(p) is invalid: must be within 0…1") }
        if minProbability != nil && coreOnly { throw ValidationError("--min-probability and --core-only both choose the points outlined; give one") }
    }

    /// The labels at `path`, and which points the outlines go around (nil: all).
    /// - Parameter idColumn: the input's `--id-column` (`cluster` writes the ids under it).
    /// - Throws: `.missingFilterColumn` naming the flag when the labels lack the column it needs.
    func labels(_ path: String, idColumn: String? = nil) throws(DatasetError) -> (LabelFile, [Bool]?) {
        guard minProbability != nil || coreOnly else {
            return (try LabelFile.read(path: path, columns: ["label"], option: "--labels", idColumn: idColumn), nil)
        }
        if let p = minProbability {
            let f = try read(path, "probability", for: "--min-probability", idColumn: idColumn)
            return (f, f.values.map { $0 >= p })
        }
        if let f = try? LabelFile.read(path: path, columns: ["label"], option: "--labels", value: "is_core", idColumn: idColumn) {
            return (f, f.values.map { $0 == 1 })
        }
        let f = try read(path, "probability", for: "--core-only", idColumn: idColumn)
        return (f, f.values.map { $0 >= 1 })
    }

    private func read(_ path: String, _ column: String, for flag: String, idColumn: String?) throws(DatasetError) -> LabelFile {
        do {
            return try LabelFile.read(path: path, columns: ["label"], option: "--labels", value: column, idColumn: idColumn)
        } catch .missingColumns(let file, _, let found) {
            throw .missingFilterColumn(path: file, option: flag, wanted: column, found: found)
        }
    }

    /// How the outlines were chosen, for a map's subtitle.
    var description: String? {
        if let p = minProbability { return "members with probability ≥ \(p)" }
        return coreOnly ? "core points" : nil
    }
}
