import ClusterCore
import Datasets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Harness

/// The figures of a benchmark report, drawn from its summary and datasets: one condensed-tree
/// plot per HDBSCAN setting and one map per dataset × method.
public enum BenchFigures {
    /// The file name a figure of `dataset`, `method` and `parameters` gets (no spaces or `=`).
    public static func fileName(dataset: String, method: String, parameters: String) -> String {
        let p = parameters.replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "=", with: "-")
        return "\(dataset)--\(method)--\(p).svg"
    }

    /// One condensed-tree plot per geocluster HDBSCAN row of `summary` that finished, written
    /// into `folder`. The tree is recomputed in this process (HDBSCAN's result depends only on
    /// the points and parameters, so it is the tree of the benchmarked runs).
    /// - Returns: the figures written, in summary order.
    public static func trees(summary: [SummaryRow], datasets: [BenchDataset], threads: Int, folder: String,
                             colours: ([Int32], BenchDataset) -> [Int32: String]) throws(HarnessError) -> [(row: SummaryRow, path: String, svg: String)] {
        var out: [(SummaryRow, String, String)] = []
        for s in summary where s.implementation == "geocluster" && s.method == "hdbscan" && s.status == .ok {
            guard let d = datasets.first(where: { $0.hash == s.datasetHash && $0.name == s.dataset }) else { continue }
            let method = try Method(name: s.method, parameterText: s.parameters)
            let record = try Harness.run(RunInput(path: d.path), method: method, threads: threads,
                                         keeping: [.condensedTree], clock: StageClock())
            guard let result = record.hdbscan, let tree = result.condensedTree else { continue }
            let title = "\(s.dataset): condensed tree, \(s.parameters)"
            let svg = TreePlot.render(tree, selected: result.selectedClusters, colours: colours(record.labels, d),
                                      options: TreePlotOptions(lambdaScale: .logarithmic, title: title))
            let path = folder + "/" + fileName(dataset: s.dataset, method: s.method, parameters: s.parameters)
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try AtomicFile.write(svg, to: path)
            } catch let e as DatasetError {
                throw .dataset(e)
            } catch {
                throw .bench("\(folder): \(error)")
            }
            out.append((s, path, svg))
        }
        return out
    }
}
