import ArgumentParser
import ClusterCore
import Datasets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Geo

/// The clustering methods `cluster` offers.
enum Algorithm: String, ExpressibleByArgument, CaseIterable {
    case hdbscan
    /// scikit-learn's DBSCAN: --eps, --min-samples; writes id,label,is_core.
    case dbscan
    /// Square-cell grid clustering: --cell-size, --min-points, --grid-merge; writes id,label.
    case grid
}

extension SelectionMethod: ExpressibleByArgument {}
extension MinSamplesConvention: ExpressibleByArgument {}
extension CoordinateKind: ExpressibleByArgument {}

/// `geocluster cluster`: clusters the points of a CSV file and writes one label per row.
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Cluster the points of a CSV file with HDBSCAN (or DBSCAN, or a grid) and write one label per row.",
        discussion: """
            Output has one row per input row, in input order; label -1 is noise. Probabilities are \
            scikit-learn's membership strengths, outlier scores the hdbscan library's GLOSH scores.
            --algorithm dbscan (--eps, --min-samples) writes id,label,is_core (is_core 1 or 0), \
            exactly as scikit-learn's DBSCAN (clusters numbered by their first row; as there, a border \
            point within --eps of two clusters joins the lower-numbered, so row order can move it); \
            --algorithm grid (--cell-size, --min-points, --grid-merge) writes id,label.
            The result depends only on the points and parameters: the same for any --threads and \
            for any order of the input rows (up to the numbering of clusters).
            """
    )

    @Argument(help: "Input CSV with a header: x,y (metres) or lat,lon (degrees) columns, optional id; or a GeoJSON FeatureCollection of Points (.geojson).")
    var input: String

    @Option(help: "Clustering method.")
    var algorithm: Algorithm = .hdbscan

    @Option(help: "Smallest group that counts as a cluster (at least 2).")
    var minClusterSize: Int = 15

    @Option(help: "Neighbours defining a point's core distance (default: --min-cluster-size); with dbscan, neighbours within --eps that make a point core, itself included (default 5).")
    var minSamples: Int?

    @Option(help: "dbscan: neighbourhood radius in metres, inclusive (required).")
    var eps: Double?

    @Option(help: "grid: cell side in metres; cells are anchored at x = 0, y = 0 of the projected plane (required).")
    var cellSize: Double?

    @Option(help: "grid: points that make a cell a cluster (default 2).")
    var minPoints: Int?

    @Flag(help: "grid: join 8-adjacent dense cells into one cluster.")
    var gridMerge = false

    @Option(help: "Meaning of --min-samples: sklearn (the point itself counts) or hdbscan (it does not).")
    var minSamplesConvention: MinSamplesConvention = .sklearn

    @Option(help: "Cluster selection: eom (excess of mass) or leaf.")
    var selection: SelectionMethod = .excessOfMass

    @Option(help: "Merge clusters born below this distance, in metres (0: off).")
    var epsilon: Double = 0

    @Flag(help: "Allow the whole data set to be one cluster.")
    var allowSingleCluster = false

    @Option(help: "Excess of mass never selects a cluster larger than this.")
    var maxClusterSize: Int?

    @Option(help: "Coordinate columns to use when a file has both: xy or lonlat.")
    var coordinates: CoordinateKind?

    @Option(help: "CRS for projecting lat,lon: an EPSG code PROJ knows, or auto (UTM zone of the data).")
    var crs: String = "auto"

    @Option(help: "Worker threads (output is identical for any value).")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .shortAndLong, help: "Output CSV: id,label,probability,outlier_score.")
    var output: String

    @Option(help: "Also write the condensed tree as CSV: parent,child,lambda,child_size (points are 0-based rows after filters; clusters start at the point count).")
    var condensedTree: String?

    @Option(help: "Also write the MST as CSV: a,b,weight (a, b: 0-based rows of the clustered points, after filters; metres).")
    var mst: String?

    @Flag(help: "Print the wall time of every stage and the peak memory to standard error.")
    var timings = false

    @OptionGroup(title: "Filters (rows that fail them are absent from every output)")
    var filters: FilterOptions

    func validate() throws {
        try validateBaselineOptions()
        if minClusterSize < 2 { throw ValidationError("--min-cluster-size must be at least 2") }
        if let m = minSamples, m < 1 { throw ValidationError("--min-samples must be at least 1") }
        if !(epsilon >= 0 && epsilon.isFinite) { throw ValidationError("--epsilon must be a distance >= 0 in metres") }
        if let m = maxClusterSize, m < 1 { throw ValidationError("--max-cluster-size must be at least 1") }
        if threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        let clock = StageClock(enabled: timings)
        do {
            // Refuse a bad destination before any work, so no output is written when another
            // one could not be.
            for path in [output, condensedTree, mst].compactMap({ $0 }) { try AtomicFile.checkDestination(path) }
            let filter = try filters.makeFilter()
            Geocluster.keepFreedMemoryIfSmall(input: input)
            var file = try clock.run("reading") { try PointFile.read(path: input, prefer: coordinates, filter: filter) }
            if filter != nil { note("kept \(file.count) of \(file.totalRows) rows") }
            let (xs, ys) = try clock.run("projecting") { () throws -> ([Double], [Double]) in
                let c = file.coordinates
                guard c.kind == .lonlat else { return (c.first, c.second) }
                let projection = try Projection(target: Projection.Target(crs), fittingLongitudes: c.first, latitudes: c.second)
                let p = try projection.forward(lon: c.first, lat: c.second)
                return (p.x, p.y)
            }
            // Hand the coordinates over instead of keeping copies: at a million points every
            // array kept alive counts against the memory budget (see README).
            file.coordinates.first = []; file.coordinates.second = []
            let points = try PointSet(xs: consume xs, ys: consume ys)
            if algorithm != .hdbscan {
                try runBaseline(file: file, points: points, clock: clock)
                return
            }
            let parameters = HDBSCANParameters(
                minClusterSize: minClusterSize, minSamples: minSamples,
                minSamplesConvention: minSamplesConvention,
                selection: SelectionOptions(method: selection, epsilon: epsilon,
                                            allowSingleCluster: allowSingleCluster, maxClusterSize: maxClusterSize))
            // Keep only the trees that are written: the others are freed stage by stage.
            var keeping: HDBSCANOutputs = []
            if mst != nil { keeping.insert(.mst) }
            if condensedTree != nil { keeping.insert(.condensedTree) }
            let result = try HDBSCAN.fit(consume points, parameters: parameters, threads: threads,
                                         keeping: keeping, observer: clock)
            try clock.run("writing") {
                try writeLabels(file: file, result: result)
                if let path = condensedTree, let t = result.condensedTree { try Self.writeCondensedTree(t, to: path) }
                if let path = mst, let m = result.mst { try Self.writeMST(m, to: path) }
            }
            let noise = result.labeling.labels.reduce(0) { $0 + ($1 < 0 ? 1 : 0) }
            note("\(file.count) points: \(result.labeling.clusterCount) clusters, \(noise) noise; wrote \(output)")
            clock.report()
        } catch let e as DatasetError {
            throw fail(e)
        } catch let e as GeoError {
            throw fail("\(input): \(e)")
        } catch let e as ClusterCoreError {
            if case let .nonFiniteCoordinate(row) = e {
                throw fail("\(input): row \(row + 1) of the points read: a coordinate became non-finite after projection; check that row")
            }
            throw fail("\(input): \(e)")
        }
    }

    /// Probabilities and outlier scores are written with 10 decimals (see README).
    private func writeLabels(file: PointFile, result: HDBSCANResult) throws {
        let l = result.labeling
        var out = try CSVWriter(path: output)
        try out.header(["id", "label", "probability", "outlier_score"])
        try out.writeRows(count: file.count, threads: threads) { out, i in
            if file.hasIDColumn { file.withIDBytes(i) { out.field(bytes: $0) } } else { out.field(i) }
            out.field(Int(l.labels[i]))
            out.field(unitInterval: l.probabilities[i])
            out.field(unitInterval: l.outlierScores[i])
        }
        try out.commit()
    }

    static func writeCondensedTree(_ t: CondensedTree, to path: String) throws {
        var out = try CSVWriter(path: path)
        try out.header(["parent", "child", "lambda", "child_size"])
        for i in 0..<t.parent.count {
            out.field(Int(t.parent[i])); out.field(Int(t.child[i]))
            out.field(t.lambda[i]); out.field(Int(t.childSize[i]))
            try out.endRow()
        }
        try out.commit()
    }

    static func writeMST(_ m: MinimumSpanningTree, to path: String) throws {
        var out = try CSVWriter(path: path)
        try out.header(["a", "b", "weight"])
        for i in 0..<m.count {
            out.field(Int(m.a[i])); out.field(Int(m.b[i])); out.field(m.weight[i])
            try out.endRow()
        }
        try out.commit()
    }
}

/// Times each stage with a monotonic clock, for `--timings`.
final class StageClock: StageObserver {
    private let enabled: Bool
    private var stages: [(String, Double)] = []

    init(enabled: Bool) { self.enabled = enabled }

    func run<T>(_ stage: String, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try body()
        stages.append((stage, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
        return value
    }

    /// The process's peak resident memory (VmHWM), where /proc reports it (Linux).
    static func peakResidentMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kb = Double(line.dropFirst(6).trimmingWhitespace().split(separator: " ")[0])
        else { return nil }
        return kb / 1024
    }

    func report() {
        guard enabled else { return }
        let total = stages.reduce(0) { $0 + $1.1 }
        func line(_ name: String, _ seconds: Double) -> String {
            name.padded(to: 20) + cFormat("%9.4f s", seconds)
        }
        for (name, seconds) in stages { note(line(name, seconds)) }
        note(line("total", total))
        if let peak = Self.peakResidentMegabytes() {
            note("peak memory".padded(to: 20) + cFormat("%9.1f MB", peak))
        }
    }
}

// MARK: - DBSCAN and grid clustering

extension ClusterCommand {
    /// Rejects options that mean nothing for the chosen algorithm, and missing required ones.
    func validateBaselineOptions() throws {
        if algorithm != .dbscan && eps != nil {
            throw ValidationError("--eps is the DBSCAN radius; use it with --algorithm dbscan (HDBSCAN's merge distance is --epsilon)")
        }
        if algorithm != .grid && (cellSize != nil || minPoints != nil || gridMerge) {
            throw ValidationError("--cell-size, --min-points and --grid-merge need --algorithm grid")
        }
        if algorithm == .hdbscan { return }
        if epsilon != 0 || allowSingleCluster || maxClusterSize != nil || condensedTree != nil || mst != nil {
            throw ValidationError("--epsilon, --allow-single-cluster, --max-cluster-size, --condensed-tree and --mst are HDBSCAN options; drop them with --algorithm \(algorithm.rawValue)")
        }
        switch algorithm {
        case .dbscan:
            guard let eps else { throw ValidationError("--algorithm dbscan needs --eps METRES") }
            if !(eps > 0 && eps.isFinite) { throw ValidationError("--eps must be a distance > 0 in metres") }
        case .grid:
            guard let cellSize else { throw ValidationError("--algorithm grid needs --cell-size METRES") }
            if !(cellSize > 0 && cellSize.isFinite) { throw ValidationError("--cell-size must be a distance > 0 in metres") }
            if let m = minPoints, m < 1 { throw ValidationError("--min-points must be at least 1") }
            if minSamples != nil { throw ValidationError("--min-samples is not a grid option; use --min-points") }
        case .hdbscan:
            break
        }
    }

    /// Runs DBSCAN or grid clustering and writes its output.
    func runBaseline(file: PointFile, points: PointSet, clock: StageClock) throws {
        let labels: [Int32], clusters: Int
        switch algorithm {
        case .dbscan:
            let parameters = DBSCANParameters(eps: eps ?? 0, minSamples: minSamples ?? 5)
            let result = try DBSCAN.fit(points, parameters: parameters, threads: threads, observer: clock)
            try clock.run("writing") { try writeBaselineLabels(file: file, labels: result.labels, isCore: result.isCore) }
            (labels, clusters) = (result.labels, result.clusterCount)
        case .grid:
            let parameters = GridParameters(cellSize: cellSize ?? 0, minPoints: minPoints ?? 2, mergeAdjacent: gridMerge)
            let result = try clock.run("grid") { try GridClustering.fit(points, parameters: parameters) }
            try clock.run("writing") { try writeBaselineLabels(file: file, labels: result.labels, isCore: nil) }
            (labels, clusters) = (result.labels, result.clusterCount)
        case .hdbscan:
            preconditionFailure("HDBSCAN is not a baseline")
        }
        let noise = labels.reduce(0) { $0 + ($1 < 0 ? 1 : 0) }
        note("\(file.count) points: \(clusters) clusters, \(noise) noise; wrote \(output)")
        clock.report()
    }

    /// `id,label,is_core` (DBSCAN; is_core 1 or 0) or `id,label` (grid).
    private func writeBaselineLabels(file: PointFile, labels: [Int32], isCore: [Bool]?) throws {
        var out = try CSVWriter(path: output)
        try out.header(isCore == nil ? ["id", "label"] : ["id", "label", "is_core"])
        try out.writeRows(count: file.count, threads: threads) { out, i in
            if file.hasIDColumn { file.withIDBytes(i) { out.field(bytes: $0) } } else { out.field(i) }
            out.field(Int(labels[i]))
            if let isCore { out.field(isCore[i] ? 1 : 0) }
        }
        try out.commit()
    }
}
