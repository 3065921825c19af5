import ClusterCore
import Datasets
import Harness
import Reports

/// `geocluster tree`: an HDBSCAN fit's condensed tree drawn as an SVG icicle plot, the
/// selected clusters in the colours `geocluster map` gives the same labels.
public struct TreeRequest {
    /// What to read and how, as `cluster` takes it.
    public var input: RunInput
    public var parameters: HDBSCANParameters
    public var threads: Int
    /// The plot; its title nil: the input file and the parameters.
    public var plot: TreePlotOptions
    /// The SVG file, written whole or not at all.
    public var output: String

    public init(input: RunInput, parameters: HDBSCANParameters, threads: Int, plot: TreePlotOptions, output: String) {
        self.input = input; self.parameters = parameters; self.threads = threads; self.plot = plot; self.output = output
    }
}

/// What `TreeRequest.draw` drew.
public struct TreeSummary {
    /// The run (its file, labels and warnings for the console).
    public var record: RunRecord
    /// Clusters in the condensed tree (the root aside), and of them selected.
    public var clusters: Int, selected: Int
}

extension TreeRequest {
    /// Fits HDBSCAN keeping the condensed tree, draws it and writes the SVG.
    /// - Throws: `HarnessError` (the run: reading, projecting, clustering), `DatasetError`
    ///   (writing).
    public func draw(clock: StageClock = StageClock()) throws -> TreeSummary {
        try AtomicFile.checkDestination(output)
        let record = try Harness.run(input, method: .hdbscan(parameters), threads: threads, keeping: [.condensedTree], clock: clock)
        guard let result = record.hdbscan, let tree = result.condensedTree else {
            preconditionFailure("an HDBSCAN run asked to keep the condensed tree returns it")
        }
        var plot = self.plot
        if plot.title == nil { plot.title = heading }
        let svg = TreePlot.render(tree, selected: result.selectedClusters, colours: colours(record.labels), options: plot)
        try AtomicFile.write(svg, to: output)
        return TreeSummary(record: record, clusters: tree.clusterCount - 1, selected: result.selectedClusters.count)
    }

    /// The default title: the file and the parameters.
    var heading: String {
        let s = parameters.selection
        return "\(input.path): condensed tree, min cluster size \(parameters.minClusterSize), min samples "
            + "\(parameters.effectiveMinSamples), \(s.method.rawValue)" + (s.epsilon > 0 ? ", epsilon \(s.epsilon) m" : "")
    }

    /// The map's colours (`geocluster map` of the same labels), which need the points'
    /// longitude/latitude; a file in x,y only gets colours by label number.
    func colours(_ labels: [Int32]) -> [Int32: String] {
        if let points = try? PointFile.read(path: input.path, prefer: .lonlat, options: input.options), points.count == labels.count {
            return ClusterPalette.colours(labels: labels, longitudes: points.coordinates.xOrLongitude,
                                          latitudes: points.coordinates.yOrLatitude)
        }
        return ClusterPalette.colours(labels: labels)
    }
}
