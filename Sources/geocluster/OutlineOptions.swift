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

    /// The selection these flags make.
    var selection: OutlineSelection {
        if let p = minProbability { return .minProbability(p) }
        return coreOnly ? .coreOnly : .all
    }
}
