import ClusterCore
import Datasets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Geo
import Harness
import Reports

/// The figures of a benchmark report: one map per dataset × geocluster method (the best
/// setting of a sweep, or its only one) and one condensed-tree plot per HDBSCAN setting, a
/// run's map and tree in the same colours.
public enum BenchFigures {
    /// Above this many points a map's outlines are convex hulls instead of concave ones: GEOS's
    /// concave hull of a large cluster takes several times as long as the convex one and would
    /// dominate the report (measured: docs/performance.md).
    public static let concaveHullLimit = 200_000

    /// The file name a figure of `dataset`, `method` and `parameters` gets (no spaces or `=`).
    public static func fileName(dataset: String, method: String, parameters: String) -> String {
        let p = parameters.replacing(" ", with: "_").replacing("=", with: "-")
        return "\(dataset)--\(method)--\(p).svg"
    }

    /// Draws the figures of a finished benchmark into `folder/maps` and `folder/trees` (cells'
    /// labels are read from `folder`'s cells). A dataset without longitude/latitude gets tree
    /// plots but no maps. HDBSCAN's tree is recomputed in this process: its result depends only
    /// on the points and parameters, so it is the tree of the benchmarked runs.
    /// - Returns: the figures, maps first, in summary order.
    /// The membership probability above which a point of an HDBSCAN cluster is inside its
    /// map outline (`geocluster hulls --min-probability`).
    public static let mapMinProbability = 0.5

    /// - Parameter input: how the benchmark's cells read a dataset (`BenchPlan.runInput`), for
    ///   the trees' fits.
    public static func draw(summary: [SummaryRow], rows: [RunRow], datasets: [BenchDataset], threads: Int,
                            input: (String) -> RunInput = { RunInput(path: $0) },
                            folder: String) throws(HarnessError) -> [ReportFigure] {
        var maps: [ReportFigure] = [], trees: [ReportFigure] = []
        for d in datasets {
            let mine = summary.filter { $0.datasetHash == d.hash && $0.dataset == d.name && $0.implementation == "geocluster" && $0.status == .ok }
            guard !mine.isEmpty else { continue }
            let points = try? PointFile.read(path: d.path, prefer: .lonlat)
            for s in mine {
                guard let run = rows.first(where: { $0.datasetHash == s.datasetHash && $0.implementation == s.implementation
                    && $0.method == s.method && $0.parameters == s.parameters && $0.status == .ok }) else { continue }
                let labelsPath = folder + "/" + Bench.cellFolder(dataset: d.name, implementation: s.implementation, method: s.method,
                                                                 parameters: s.parameters, repeatIndex: run.repeatIndex) + "/labels.csv"
                var colours: [Int32: String]?
                if let points {
                    let labels: [Int32]
                    // HDBSCAN's outlines go around the members with probability ≥ mapMinProbability,
                    // so a few stray low-probability members do not stretch a compact cluster.
                    var outlining: [Bool]?
                    do {
                        let file = try LabelFile.read(path: labelsPath, columns: ["label"], option: "labels",
                                                      value: s.method == "hdbscan" ? "probability" : nil)
                        labels = try file.aligned(to: points)
                        if s.method == "hdbscan" { outlining = file.values.map { $0 >= mapMinProbability } }
                    } catch {
                        throw .dataset(error)
                    }
                    let (lon, lat) = (points.coordinates.xOrLongitude, points.coordinates.yOrLatitude)
                    colours = ClusterPalette.colours(labels: labels, longitudes: lon, latitudes: lat)
                    // One map per method: the best setting of its sweep, else its first setting.
                    let mapped = mine.first { $0.method == s.method && $0.bestInSweep } ?? mine.first { $0.method == s.method }
                    if mapped?.parameters == s.parameters {
                        let ratio = points.count > concaveHullLimit ? 1 : GeometryContext.defaultConcaveRatio
                        let hulls: (outlines: [Int32: [Coordinates]], crs: String)
                        do {
                            hulls = try GeometryContext().clusterOutlines(longitudes: lon, latitudes: lat, labels: labels, ratio: ratio,
                                                            outlining: outlining)
                        } catch {
                            throw .geo(path: d.path, error)
                        }
                        let title = "\(d.name) · geocluster \(s.method)"
                        let subtitle = "\(s.parameters)\n" + summaryLine(s)
                            + " · \(ratio == 1 ? "convex" : "concave") hulls"
                            + (outlining == nil ? "" : " of members with probability ≥ \(mapMinProbability)") + " in \(hulls.crs)"
                        let svg = ClusterMap.render(MapData(longitudes: lon, latitudes: lat, labels: labels, outlines: hulls.outlines,
                                                            title: title, subtitle: subtitle),
                                                    options: MapOptions(colours: colours))
                        try write(svg, to: folder + "/maps/" + fileName(dataset: d.name, method: s.method, parameters: s.parameters))
                        maps.append(ReportFigure(kind: .map, dataset: d.name, implementation: s.implementation, method: s.method,
                                                 parameters: s.parameters, title: title, svg: svg))
                    }
                }
                guard s.method == "hdbscan" else { continue }
                let method = try Method(name: s.method, parameterText: s.parameters)
                let fitted = input(d.path)
                let record = try Harness.run(fitted, method: method, threads: threads,
                                             keeping: [.condensedTree], clock: StageClock())
                guard let result = record.hdbscan, let tree = result.condensedTree else { continue }
                let title = "\(d.name) · condensed tree · \(s.parameters)"
                let svg = TreePlot.render(tree, selected: result.selectedClusters,
                                          colours: colours ?? ClusterPalette.colours(labels: record.labels),
                                          options: TreePlotOptions(lambdaScale: .logarithmic,
                                                                   // Features have no metres to label.
                                                                   distanceAxis: fitted.options.features.isEmpty, title: title))
                try write(svg, to: folder + "/trees/" + fileName(dataset: d.name, method: s.method, parameters: s.parameters))
                trees.append(ReportFigure(kind: .tree, dataset: d.name, implementation: s.implementation, method: s.method,
                                          parameters: s.parameters, title: title, svg: svg))
            }
        }
        return maps + trees
    }

    /// `13 clusters · 18.9 % noise · ARI 0.763 · AMI 0.841`.
    static func summaryLine(_ s: SummaryRow) -> String {
        var parts: [String] = []
        if let c = s.clusters { parts.append("\(c) clusters") }
        if let n = s.noiseFraction { parts.append(ReportFormat.percent(n) + " noise") }
        if let a = s.ari { parts.append("ARI " + ReportFormat.fixed(a, decimals: 3)) }
        if let a = s.ami { parts.append("AMI " + ReportFormat.fixed(a, decimals: 3)) }
        return parts.joined(separator: " · ")
    }

    static func write(_ svg: String, to path: String) throws(HarnessError) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .bench("\(folder): cannot create the folder (\(error))")
        }
        do { try AtomicFile.write(svg, to: path) } catch { throw .dataset(error) }
    }
}
