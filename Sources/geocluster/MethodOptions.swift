import ArgumentParser
import CommandLineSupport

/// The clustering methods the commands offer.
enum Algorithm: String, ExpressibleByArgument, CaseIterable {
    case hdbscan
    /// scikit-learn's DBSCAN: --eps, --min-samples; writes id,label,is_core.
    case dbscan
    /// Square-cell grid clustering: --cell-size, --min-points, --grid-merge; writes id,label.
    case grid
}

extension SelectionMethod: ExpressibleByArgument {}
extension MinSamplesConvention: ExpressibleByArgument {}
extension TieRule: ExpressibleByArgument {}

// Numeric options are parsed `.unconditional`ly: the next argument is their value even when it
// starts with "-", so `--epsilon -3` is reported as an invalid distance, not as a missing value.

/// The command-line flag of each core parameter, so that the core's own `validate()` is the
/// one rule and its messages name what the user typed.
func flag(forParameter name: String) -> String {
    switch name {
    case "minClusterSize": return "--min-cluster-size"
    case "minSamples": return "--min-samples"
    case "epsilon": return "--epsilon"
    case "maxClusterSize": return "--max-cluster-size"
    case "eps": return "--eps"
    case "cellSize": return "--cell-size"
    case "minPoints": return "--min-points"
    default: return name
    }
}

/// Runs the core's validation and reports a bad value as a usage mistake naming the flag.
func validated<T>(_ body: () throws(ClusterCoreError) -> T) throws(ValidationError) -> T {
    do {
        return try body()
    } catch {
        if case let .invalidParameter(name, value, requirement) = error {
            throw ValidationError("\(flag(forParameter: name)) \(value) is invalid: \(requirement)")
        }
        throw ValidationError(error.description)
    }
}

/// HDBSCAN's options. Every one is optional so that one given to another algorithm can be
/// refused; unset ones take the command line's defaults (`--min-cluster-size` 15, the library's
/// is 5) or the core's.
struct HDBSCANOptions: ParsableArguments {
    /// The command line's default minimum cluster size (the library's table, for listings).
    static let defaultMinClusterSize = HDBSCANParameters.listingMinClusterSize

    @Option(parsing: .unconditional, help: "Smallest group that counts as a cluster (at least 2; default \(defaultMinClusterSize)).")
    var minClusterSize: Int?

    @Option(parsing: .unconditional, help: "Neighbours defining a point's core distance (default: --min-cluster-size); with dbscan, neighbours within --eps that make a point core, itself included (default \(DBSCANParameters.defaultMinSamples)).")
    var minSamples: Int?

    @Option(help: "Meaning of --min-samples: sklearn (the point itself counts; default) or hdbscan (it does not).")
    var minSamplesConvention: MinSamplesConvention?

    @Option(help: "Cluster selection: eom (excess of mass; default) or leaf.")
    var selection: SelectionMethod?

    @Option(help: "Merges at one distance: all-at-once (HDBSCAN*'s definition; default) or one-at-a-time (scikit-learn's and hdbscan's rule, less noise where ties decide).")
    var ties: TieRule?

    @Option(parsing: .unconditional, help: "Merge clusters born below this distance, in metres (default 0: off).")
    var epsilon: Double?

    @Flag(help: "Allow the whole data set to be one cluster.")
    var allowSingleCluster = false

    @Option(parsing: .unconditional, help: "Excess of mass never selects a cluster larger than this.")
    var maxClusterSize: Int?

    /// The HDBSCAN-only flags that were given (`--min-samples` is shared with DBSCAN).
    var givenFlags: [String] {
        var flags: [String] = []
        if minClusterSize != nil { flags.append("--min-cluster-size") }
        if minSamplesConvention != nil { flags.append("--min-samples-convention") }
        if selection != nil { flags.append("--selection") }
        if ties != nil { flags.append("--ties") }
        if epsilon != nil { flags.append("--epsilon") }
        if allowSingleCluster { flags.append("--allow-single-cluster") }
        if maxClusterSize != nil { flags.append("--max-cluster-size") }
        return flags
    }

    /// The parameters the flags give, unchecked: the command checks them once, with the
    /// core's rule (`MethodOptions.validate`, `tree`'s `validate`).
    var parameters: HDBSCANParameters {
        let d = HDBSCANParameters.defaults
        return HDBSCANParameters(
            minClusterSize: minClusterSize ?? Self.defaultMinClusterSize, minSamples: minSamples ?? d.minSamples,
            minSamplesConvention: minSamplesConvention ?? d.minSamplesConvention,
            selection: SelectionOptions(method: selection ?? d.selection.method, epsilon: epsilon ?? d.selection.epsilon,
                                        allowSingleCluster: allowSingleCluster || d.selection.allowSingleCluster,
                                        maxClusterSize: maxClusterSize ?? d.selection.maxClusterSize),
            ties: ties ?? d.ties)
    }
}

/// DBSCAN's own option (`--min-samples` is shared with HDBSCAN).
struct DBSCANOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "dbscan: neighbourhood radius in metres, inclusive (required).")
    var eps: Double?

    var givenFlags: [String] { eps == nil ? [] : ["--eps"] }

    /// The parameters the flags give (the core's default `minSamples` when none is
    /// given), unchecked but for the required radius: `MethodOptions.validate` checks them.
    func parameters(minSamples: Int?) throws(ValidationError) -> DBSCANParameters {
        guard let eps else { throw ValidationError("--algorithm dbscan needs --eps METRES") }
        var p = DBSCANParameters(eps: eps)
        if let minSamples { p.minSamples = minSamples }
        return p
    }
}

/// Grid clustering's options.
struct GridOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "grid: cell side in metres; cells are anchored at x = 0, y = 0 of the projected plane (required).")
    var cellSize: Double?

    @Option(parsing: .unconditional, help: "grid: points that make a cell a cluster (default \(GridParameters.defaultMinPoints)).")
    var minPoints: Int?

    @Flag(help: "grid: join 8-adjacent dense cells into one cluster.")
    var gridMerge = false

    var givenFlags: [String] {
        var flags: [String] = []
        if cellSize != nil { flags.append("--cell-size") }
        if minPoints != nil { flags.append("--min-points") }
        if gridMerge { flags.append("--grid-merge") }
        return flags
    }

    /// The parameters the flags give (the core's default `minPoints`), unchecked but for the
    /// required cell size: `MethodOptions.validate` checks them.
    func parameters() throws(ValidationError) -> GridParameters {
        guard let cellSize else { throw ValidationError("--algorithm grid needs --cell-size METRES") }
        var p = GridParameters(cellSize: cellSize)
        if let minPoints { p.minPoints = minPoints }
        p.mergeAdjacent = gridMerge
        return p
    }
}

/// `--algorithm` and every method's options: one `Method`, or a usage error naming the flag.
struct MethodOptions: ParsableArguments {
    @Option(help: "Clustering method: hdbscan, or the baselines dbscan and grid.")
    var algorithm: Algorithm = .hdbscan

    @OptionGroup(title: "HDBSCAN")
    var hdbscan: HDBSCANOptions

    @OptionGroup(title: "DBSCAN (--algorithm dbscan; also --min-samples)")
    var dbscan: DBSCANOptions

    @OptionGroup(title: "Grid (--algorithm grid)")
    var grid: GridOptions

    /// The method, refusing any option the chosen algorithm does not use; its parameters are
    /// checked by `validate`, once.
    func method() throws(ValidationError) -> Method {
        var foreign: [String]
        switch algorithm {
        case .hdbscan: foreign = dbscan.givenFlags + grid.givenFlags
        case .dbscan: foreign = hdbscan.givenFlags + grid.givenFlags
        case .grid: foreign = hdbscan.givenFlags + dbscan.givenFlags + (hdbscan.minSamples == nil ? [] : ["--min-samples"])
        }
        if let first = foreign.first {
            let hint: String
            switch first {
            case "--eps" where algorithm == .hdbscan: hint = " (HDBSCAN's merge distance is --epsilon)"
            case "--min-samples" where algorithm == .grid: hint = " (grid's count is --min-points)"
            default: hint = ""
            }
            let list = foreign.count == 1 ? first : foreign.joined(separator: ", ")
            throw ValidationError("\(list) \(foreign.count == 1 ? "is" : "are") not used by --algorithm \(algorithm.rawValue)\(hint); drop \(foreign.count == 1 ? "it" : "them") or choose the algorithm that uses \(foreign.count == 1 ? "it" : "them")")
        }
        switch algorithm {
        case .hdbscan: return .hdbscan(hdbscan.parameters)
        case .dbscan: return .dbscan(try dbscan.parameters(minSamples: hdbscan.minSamples))
        case .grid: return .grid(try grid.parameters())
        }
    }

    /// The one check of the method's parameters on their way from the flags to the core: the
    /// core's own rule (`Method.validate`), before any file is read, its error naming the flag.
    func validate() throws {
        let method = try method()
        try validated { () throws(ClusterCoreError) in try method.validate() }
    }

    /// The distance in metres the user gave for the chosen algorithm (`--epsilon` above 0,
    /// `--eps`, `--cell-size`), which must be ground metres.
    var distanceOption: (flag: String, value: Double)? {
        switch algorithm {
        case .hdbscan: return hdbscan.epsilon.flatMap { $0 > 0 ? ("--epsilon", $0) : nil }
        case .dbscan: return dbscan.eps.map { ("--eps", $0) }
        case .grid: return grid.cellSize.map { ("--cell-size", $0) }
        }
    }
}

extension HDBSCANOptions {
    /// The core's "too few points" in the flags the user typed: without `--min-samples`,
    /// `--min-cluster-size` sets the neighbour count too, which is what a large one runs into.
    func explain(_ error: HarnessError) -> String {
        guard case let .cluster(path, .tooFewPoints(count, required, _)) = error else { return error.description }
        let size = minClusterSize ?? Self.defaultMinClusterSize
        if let minSamples {
            return "\(path): \(count) points, but --min-samples \(minSamples) needs at least \(required) "
                + "(the point itself counts\(minSamplesConvention == .hdbscan ? " under --min-samples-convention hdbscan, plus one" : "")); "
                + "give a --min-samples below \(count)"
        }
        return "\(path): \(count) points, but --min-cluster-size \(size) also sets the neighbour count (--min-samples, "
            + "not given, defaults to it), which needs at least \(required) points; lower --min-cluster-size below \(count + 1), "
            + "or give --min-samples below \(count) (with fewer points than --min-cluster-size every point is noise)"
    }
}

/// How a run reads and computes: the coordinate columns, the CRS for longitude/latitude and the
/// worker threads (`cluster`, `tree`).
struct RunOptions: ParsableArguments {
    @Option(help: "Coordinate columns to use when a file has both: xy or lonlat.")
    var coordinates: CoordinateKind?

    @Option(help: "CRS for projecting lat,lon: auto (the UTM zone of the data) or a local metric CRS PROJ knows, e.g. EPSG:5179 for Korea; distances (--eps, --cell-size, --epsilon) must be ground metres in it.")
    var crs: String = "auto"

    @Option(help: ArgumentHelp("How distances are measured for lat,lon input: planar (in the --crs projection), geodesic (great-circle metres on a sphere of radius 6,371,008.8 m, scikit-learn's haversine times that radius), or auto: planar in the data's UTM zone when it keeps distances within 1 % over the whole data, else geodesic (said on standard error).", valueName: "auto|planar|geodesic"))
    var metric: DistanceMetric = .auto

    @Option(parsing: .unconditional, help: "Worker threads, 1...\(ThreadsOption.range.upperBound) (output is identical for any value).")
    var threads: Int = ThreadsOption.machineDefault

    func validate() throws {
        try ThreadsOption.validate(threads)
        if metric == .geodesic && crs.lowercased() != "auto" {
            throw ValidationError("--metric geodesic measures on the sphere and projects nothing; drop --crs \(crs) (or give --metric planar)")
        }
    }
}

extension DistanceMetric: ExpressibleByArgument {}
