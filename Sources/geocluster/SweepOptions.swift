import ArgumentParser
import CommandLineSupport

/// The parameter lists `bench` sweeps: per method the cross product of its lists is run.
struct SweepOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("hdbscan: minimum cluster sizes to sweep (default 30).", valueName: "list"),
            transform: listOption("--min-cluster-size", "a whole number", { Int($0) }))
    var minClusterSize: [Int] = [30]

    @Option(parsing: .unconditional, help: ArgumentHelp("hdbscan and dbscan: min samples to sweep (default 15 for hdbscan, 10 for dbscan).", valueName: "list"),
            transform: listOption("--min-samples", "a whole number", { Int($0) }))
    var minSamples: [Int]?

    @Option(parsing: .unconditional, help: ArgumentHelp("dbscan: radii in metres to sweep (default 100).", valueName: "list"),
            transform: listOption("--eps", "a distance in metres", { Double($0) }))
    var eps: [Double] = [100]

    @Option(parsing: .unconditional, help: ArgumentHelp("grid: cell sizes in metres to sweep (default 250).", valueName: "list"),
            transform: listOption("--cell-size", "a distance in metres", { Double($0) }))
    var cellSize: [Double] = [250]

    @Option(parsing: .unconditional, help: ArgumentHelp("grid: min points to sweep (default 10).", valueName: "list"),
            transform: listOption("--min-points", "a whole number", { Int($0) }))
    var minPoints: [Int] = [10]

    /// Every setting of `algorithms` in the sweep, in order, each checked by the core's
    /// validation (a refused value is a usage mistake naming its flag).
    func methods(_ algorithms: [Algorithm]) throws(ValidationError) -> [Method] {
        var out: [Method] = []
        for algorithm in algorithms {
            switch algorithm {
            case .hdbscan:
                for mcs in minClusterSize {
                    for ms in minSamples ?? [15] { out.append(.hdbscan(HDBSCANParameters(minClusterSize: mcs, minSamples: ms))) }
                }
            case .dbscan:
                for e in eps {
                    for ms in minSamples ?? [10] { out.append(.dbscan(DBSCANParameters(eps: e, minSamples: ms))) }
                }
            case .grid:
                for c in cellSize {
                    for m in minPoints { out.append(.grid(GridParameters(cellSize: c, minPoints: m, mergeAdjacent: true))) }
                }
            }
        }
        for m in out { try validated { () throws(ClusterCoreError) in try m.validate() } }
        return out
    }
}
