import ArgumentParser
import CommandLineSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `geocluster bench`: every method on every dataset, each cell in its own process, with
/// tables, maps, tree plots and an HTML page as the result.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark the clustering methods (and Python peers) on scenarios or your files: CSV tables, maps, tree plots and an HTML report.",
        discussion: """
            Every cell (dataset × implementation × method × parameters × repeat) runs in a process \
            of its own with a timeout, so a crash, a hang or an out-of-memory becomes a row with its \
            error. Lists sweep: the cross product of --min-cluster-size and --min-samples (hdbscan), \
            --eps and --min-samples (dbscan), --cell-size and --min-points (grid) is run. Defaults: \
            hdbscan min cluster size 30, min samples 15; dbscan eps 100 m, min samples 10; grid \
            250 m cells, min points 10, adjacent dense cells merged.
            Writes OUT/runs.csv (one row per repeat), OUT/summary.csv, OUT/README.md (the columns), \
            OUT/maps/, OUT/trees/, OUT/cells/ and OUT/index.html (with --pins-zooms also OUT/pins.csv, \
            one row per dataset, pin implementation and zoom), built in a temporary folder and \
            moved into place at the end.
            """
    )

    @Option(help: ArgumentHelp("Generated scenarios, comma-separated: \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")) (default seoul; none with --input).", valueName: "list"),
            transform: listOption("--scenarios", "a scenario (\(Scenario.allCases.map(\.rawValue).joined(separator: ", ")))") { Scenario(rawValue: $0) })
    var scenarios: [Scenario]?

    @Option(name: .customLong("input"), help: ArgumentHelp("Your own CSV or GeoJSON file (repeatable, - for standard input); a truth column, if present, is scored against: integers (-1 noise) or text (a state or country), as `score` reads it.", valueName: "file"))
    var inputs: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Scenario sizes, comma-separated: 10k, 100k, 1M, 2.5M or plain numbers.", valueName: "list"),
            transform: listOption("--sizes", "a size such as 10k, 100k or 1M", BenchSizes.parse))
    var sizes: [Int] = [10_000, 100_000]

    @Option(help: ArgumentHelp("Methods, comma-separated: hdbscan, dbscan, grid (default all three; hdbscan alone with --features: DBSCAN's --eps has no default on the features' scale).", valueName: "list"),
            transform: listOption("--methods", "a method (hdbscan, dbscan, grid)") { Algorithm(rawValue: $0) })
    var methods: [Algorithm]?

    /// The methods run: those named, else all of them; with features HDBSCAN alone (grid
    /// cells are a map's, and DBSCAN's default radius is metres).
    private var chosenMethods: [Algorithm] {
        methods ?? (featureOptions.features == nil ? Algorithm.allCases : [.hdbscan])
    }

    @Option(name: .customLong("repeat"), parsing: .unconditional, help: "Repeats of every cell (medians are reported).")
    var repeats: Int = 3

    @Option(parsing: .unconditional, help: "Seed of the generated scenarios.")
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: "Worker threads of each cell (geocluster's and the peers' that take one), 1...\(ThreadsOption.range.upperBound).")
    var threads: Int = ThreadsOption.machineDefault

    @Option(help: ArgumentHelp("Python peers, comma-separated: \(Peer.allCases.map(\.rawValue).joined(separator: ", ")) (install them with scripts/peers/install.sh). On great-circle cells (--metric geodesic, or auto on world-wide data) they get lon/lat: \(Peer.geodesic.map(\.rawValue).joined(separator: ", ")) run there (quitefastmst builds the MST only, timed against geocluster's index + core distances + MST), the others are skipped.", valueName: "list"),
            transform: listOption("--peers", "a peer (\(Peer.allCases.map(\.rawValue).joined(separator: ", ")))") { Peer(rawValue: $0) })
    var peers: [Peer] = []

    @Option(parsing: .unconditional, help: "Seconds a cell may run before it is killed and recorded as a timeout.")
    var timeout: Double = 600

    @Flag(help: "Keep the rows of OUT/runs.csv made from the same dataset contents, parameters and binary; run only the other cells.")
    var resume = false

    @Option(name: .customLong("out"), help: "Folder the report is written to.")
    var out: String = "reports"

    @Option(help: "Folder generated scenarios are cached in.")
    var cache: String = "datasets/cache"

    @Option(parsing: .unconditional, help: ArgumentHelp("The text that means noise in a truth column of text labels (none without it).", valueName: "text"))
    var noiseLabel: String?

    @Option(parsing: .unconditional, help: "scikit-learn's HDBSCAN (quadratic) is skipped above this many points.")
    var sklearnMaxN: Int = 150_000

    @Option(help: "scripts/peers/peer_cell.py (default: found from the working folder or the executable's checkout).")
    var peerScript: String?

    @Option(help: ArgumentHelp("How geocluster's cells measure distance for lat,lon data: auto, planar or geodesic (as in `cluster`; generated scenarios are clustered in their x,y columns).", valueName: "auto|planar|geodesic"))
    var metric: DistanceMetric = .auto

    @Option(help: ArgumentHelp("CRS that geocluster's cells project lat,lon to (as in `cluster`).", valueName: "crs"))
    var crs = "auto"

    @OptionGroup
    var sweep: SweepOptions

    @OptionGroup(title: "Clustering by features (geocluster's cells and the peers alike)")
    var featureOptions: FeatureOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Also compare map pins at these zooms (e.g. 10-18) on every dataset: PinIndex, the supercluster baseline, a 40-pixel grid and pysupercluster (pip package pysupercluster-problematy), each in its own process; pins per 390×844 viewport, ARI against the truth and against supercluster's grouping, overlap rate, build and query times, peak memory in OUT/pins.csv.", valueName: "a-b"),
            transform: ZoomRange.parse)
    var pinsZooms: ZoomRange?

    @Option(help: ArgumentHelp("With --pins-zooms: the privacy mask's secret key file (`geocluster pins-key -o FILE`), or set \(PinsKeyFile.environmentVariable). Every implementation sees displayed positions only, and no output holds the key or a true coordinate.", valueName: "file"))
    var keyFile: String?

    @OptionGroup(title: "Filters (applied to the generated scenarios)")
    var filters: FilterOptions

    func validate() throws {
        if repeats < 1 { throw ValidationError("--repeat must be at least 1") }
        try ThreadsOption.validate(threads)
        if !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout must be a number of seconds > 0") }
        if sklearnMaxN < 0 { throw ValidationError("--sklearn-max-n \(sklearnMaxN): a number of points, at least 0") }
        if inputs.isEmpty && scenarios?.isEmpty == true { throw ValidationError("--scenarios is empty; name a scenario or give --input") }
        if filters.isActive && !inputs.isEmpty {
            throw ValidationError("--category, --area, --deposit, --rent, --bbox and --within filter the generated scenarios only; give --input a file that holds just the rows you want")
        }
        _ = try sweep.methods(chosenMethods)
        try validateFeatures()
        if pinsZooms != nil && keyFile == nil && !PinsKeyFile.environmentHasKey {
            throw ValidationError("--pins-zooms masks the listings: give --key-file FILE (make one with `geocluster pins-key -o pins.key`) or set \(PinsKeyFile.environmentVariable)")
        }
        if pinsZooms == nil && keyFile != nil { throw ValidationError("--key-file goes with --pins-zooms") }
    }

    func run() throws {
        let methods = try sweep.methods(chosenMethods)
        let progress: ((BenchProgress) -> Void)? = isatty(2) == 1 ? { noteInPlace(BenchReport.progressLine($0)) } : nil
        let outcome = try reportingErrors {
            var request = BenchRequest(
                inputs: inputs, scenarios: scenarios, sizes: sizes, seed: seed, cache: cache, filter: try filters.makeFilter(),
                methods: methods, peers: peers, repeats: repeats, threads: threads, timeout: timeout, resume: resume, out: out,
                sklearnMaxPoints: sklearnMaxN, pins: try pinsRequest(), peerScript: peerScript, version: Geocluster.version,
                commandLine: (["geocluster"] + CommandLine.arguments.dropFirst()).joined(separator: " "))
            request.metric = metric
            request.crs = crs
            request.noiseLabel = noiseLabel
            request.features = featureOptions.names
            request.featureScale = featureOptions.effectiveScale
            return try request.run(progress: progress, note: note)
        }
        print(BenchReport.summaryTable(outcome.summary), terminator: "")
        if let pinRows = outcome.pinRows { print(BenchReport.pinsTable(pinRows), terminator: "") }
        note(BenchReport.closingNote(outcome))
    }

    /// `--features` in a benchmark: the peers read the named columns as numbers, so a
    /// position among them must be planar metres already (x,y), and every cell measures in
    /// the features' space.
    private func validateFeatures() throws {
        try featureOptions.check(algorithms: chosenMethods)
        guard featureOptions.features != nil else { return }
        let degrees = Set(ReadOptions.latitudeNames + ReadOptions.longitudeNames)
        if let name = featureOptions.names.first(where: { degrees.contains($0.lowercased()) }) {
            throw ValidationError("--features \(name): in bench the peers read each feature as a number, so a position among them must be planar x,y metres; add them with `geocluster project` and name x,y")
        }
        if metric == .geodesic { throw ValidationError("--features measures in the features' space: --metric geodesic does not apply") }
        if resume { throw ValidationError("--resume matches rows by dataset, method and parameters, which do not record --features: write a --features benchmark to an --out folder of its own, without --resume") }
        if pinsZooms != nil { throw ValidationError("--pins-zooms compares map pins, which have no features; run it without --features") }
    }

    /// The map-pin comparison asked for (`--pins-zooms`), with the mask's key from `--key-file`
    /// or the environment (`validate()` made sure there is one).
    private func pinsRequest() throws -> PinsComparison.Request? {
        guard let zooms = pinsZooms?.zooms else { return nil }
        let key: PinsKey? = try reportingErrors {
            if let keyFile { return try PinsKeyFile.read(path: keyFile) }
            return try PinsKeyFile.fromEnvironment()
        }
        guard let key else { throw ValidationError("--pins-zooms masks the listings: give --key-file FILE or set \(PinsKeyFile.environmentVariable)") }
        return PinsComparison.Request(zooms: zooms, key: key, keyFile: keyFile)
    }
}
