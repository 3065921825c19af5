import ArgumentParser
import ClusterCore
import Datasets
import Foundation
import Geo

/// The clustering methods `cluster` offers.
enum Algorithm: String, ExpressibleByArgument, CaseIterable {
    case hdbscan
}

extension SelectionMethod: ExpressibleByArgument {}
extension MinSamplesConvention: ExpressibleByArgument {}
extension CoordinateKind: ExpressibleByArgument {}

/// `geocluster cluster`: clusters the points of a CSV file and writes one label per row.
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Cluster the points of a CSV file with HDBSCAN and write id,label,probability,outlier_score.",
        discussion: """
            Output has one row per input row, in input order; label -1 is noise. Probabilities are \
            scikit-learn's membership strengths, outlier scores the hdbscan library's GLOSH scores.
            The result depends only on the points and parameters: the same for any --threads and \
            for any order of the input rows (up to the numbering of clusters).
            """
    )

    @Argument(help: "Input CSV with a header: x,y (metres) or lat,lon (degrees) columns, optional id.")
    var input: String

    @Option(help: "Clustering method.")
    var algorithm: Algorithm = .hdbscan

    @Option(help: "Smallest group that counts as a cluster (at least 2).")
    var minClusterSize: Int = 15

    @Option(help: "Neighbours defining a point's core distance (default: --min-cluster-size).")
    var minSamples: Int?

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

    @Option(help: "Also write the condensed tree as CSV: parent,child,lambda,child_size.")
    var condensedTree: String?

    @Option(help: "Also write the MST as CSV: a,b,weight (input rows, metres).")
    var mst: String?

    @Flag(help: "Print the wall time of every stage to standard error.")
    var timings = false

    func validate() throws {
        if minClusterSize < 2 { throw ValidationError("--min-cluster-size must be at least 2") }
        if let m = minSamples, m < 1 { throw ValidationError("--min-samples must be at least 1") }
        if !(epsilon >= 0 && epsilon.isFinite) { throw ValidationError("--epsilon must be a distance >= 0 in metres") }
        if let m = maxClusterSize, m < 1 { throw ValidationError("--max-cluster-size must be at least 1") }
        if threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        let clock = StageClock(enabled: timings)
        do {
            let file = try clock.run("reading") { try PointFile.read(path: input, prefer: coordinates) }
            let (xs, ys) = try clock.run("projecting") { () throws -> ([Double], [Double]) in
                let c = file.coordinates
                guard c.kind == .lonlat else { return (c.first, c.second) }
                let projection = try Projection(target: Projection.Target(crs), fittingLongitudes: c.first, latitudes: c.second)
                let p = try projection.forward(lon: c.first, lat: c.second)
                return (p.x, p.y)
            }
            let points = try PointSet(xs: xs, ys: ys)
            let parameters = HDBSCANParameters(
                minClusterSize: minClusterSize, minSamples: minSamples,
                minSamplesConvention: minSamplesConvention,
                selection: SelectionOptions(method: selection, epsilon: epsilon,
                                            allowSingleCluster: allowSingleCluster, maxClusterSize: maxClusterSize))
            let result = try HDBSCAN.fit(points, parameters: parameters, threads: threads, observer: clock)
            try clock.run("writing") {
                try writeLabels(file: file, result: result)
                if let path = condensedTree { try AtomicFile.write(Self.condensedTreeCSV(result.condensedTree), to: path) }
                if let path = mst { try AtomicFile.write(Self.mstCSV(result.mst), to: path) }
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
                throw fail("\(input): row \(row): a coordinate became non-finite after projection; check that row")
            }
            throw fail("\(input): \(e)")
        }
    }

    private func writeLabels(file: PointFile, result: HDBSCANResult) throws {
        let l = result.labeling
        var text = "id,label,probability,outlier_score\n"
        text.reserveCapacity(file.count * 32)
        for i in 0..<file.count {
            text += CSV.escape(file.id(i))
            text += ",\(l.labels[i]),\(l.probabilities[i]),\(l.outlierScores[i])\n"
        }
        try AtomicFile.write(text, to: output)
    }

    static func condensedTreeCSV(_ t: CondensedTree) -> String {
        var text = "parent,child,lambda,child_size\n"
        for i in 0..<t.parent.count {
            text += "\(t.parent[i]),\(t.child[i]),\(t.lambda[i]),\(t.childSize[i])\n"
        }
        return text
    }

    static func mstCSV(_ m: MinimumSpanningTree) -> String {
        var text = "a,b,weight\n"
        for i in 0..<m.count { text += "\(m.a[i]),\(m.b[i]),\(m.weight[i])\n" }
        return text
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

    func report() {
        guard enabled else { return }
        let total = stages.reduce(0) { $0 + $1.1 }
        for (name, seconds) in stages {
            note(String(format: "%-20@ %9.4f s", name as NSString, seconds))
        }
        note(String(format: "%-20@ %9.4f s", "total" as NSString, total))
    }
}
