import Datasets
import Geo
import Harness
import Reports

/// `geocluster map --labels`: an SVG map of a labelled file, points coloured by cluster, with
/// outlines and pins.
public struct ClusterMapRequest {
    /// How each cluster is outlined.
    public enum Outline: Sendable, Equatable {
        /// A concave hull of this ratio in [0, 1].
        case concave(ratio: Double)
        case convex
        case none
    }

    /// The clustered file and how to read it.
    public var input: String
    public var read: ReadOptions
    /// The labels `cluster` wrote for it.
    public var labels: String
    /// Which members each outline goes around.
    public var outlined: OutlineSelection
    public var outline: Outline
    /// `auto` (a plane per cluster) or one metric CRS for all outlines.
    public var crs: String
    /// The outlines' worker threads.
    public var threads: Int
    /// Pins, the part shown, the centre.
    public var options: MapOptions
    /// The map's title (default: the input's file name).
    public var title: String?
    /// The SVG file, written whole or not at all.
    public var output: String

    public init(input: String, read: ReadOptions, labels: String, outlined: OutlineSelection, outline: Outline, crs: String,
                threads: Int, options: MapOptions, title: String?, output: String) {
        self.input = input; self.read = read; self.labels = labels; self.outlined = outlined; self.outline = outline
        self.crs = crs; self.threads = threads; self.options = options; self.title = title; self.output = output
    }
}

/// What `ClusterMapRequest.draw` drew.
public struct ClusterMapSummary: Sendable, Equatable {
    public var points: Int, clusters: Int, noise: Int
    /// The SVG's size in bytes.
    public var bytes: Int
    /// Warnings for standard error (skipped rows).
    public var warnings: [String]
}

extension ClusterMapRequest {
    /// Reads the points and labels, outlines the clusters drawn, renders and writes the map.
    /// - Parameter progress: told each stage as it starts.
    /// - Throws: `DatasetError` (reading, writing), `GeoError` (outlining, located at its point).
    public func draw(progress: (String) -> Void = { _ in }) throws -> ClusterMapSummary {
        try AtomicFile.checkDestination(output)
        progress("reading \(input)")
        let file = try PointFile.read(path: input, prefer: .lonlat, options: read)
        let (labelFile, outlining) = try outlined.labels(labels, idColumn: read.id)
        let label = try labelFile.aligned(to: file)
        let (lon, lat) = (file.coordinates.xOrLongitude, file.coordinates.yOrLatitude)
        let shown = MapPoints(longitudes: lon, latitudes: lat, labels: label, options: options)
        let (outlines, hullNote) = try self.outlines(file, label, outlining, shown, progress: progress)
        let noise = label.reduce(0) { $0 + ($1 < 0 ? 1 : 0) }
        let clusters = Set(label.lazy.filter { $0 >= 0 }).count
        let name = title ?? (input.split(separator: "/").last.map(String.init) ?? input)
        let subtitle = "\(file.count) points · \(clusters) clusters · \(noise) noise · labels \(labels) · \(hullNote)"
        let data = MapData(longitudes: lon, latitudes: lat, labels: label, outlines: outlines, title: name, subtitle: subtitle)
        progress("drawing \(FormatNumber.grouped(file.count)) points")
        let svg = ClusterMap.render(data, options: options, shown: shown)
        progress("writing \(output)")
        try AtomicFile.write(svg, to: output)
        return ClusterMapSummary(points: file.count, clusters: clusters, noise: noise, bytes: svg.utf8.count,
                                 warnings: [file.skippedWarning].compactMap { $0 })
    }

    /// The outlines of the clusters the map draws, and the subtitle's words for them.
    private func outlines(_ file: PointFile, _ label: [Int32], _ outlining: [Bool]?, _ shown: MapPoints,
                          progress: (String) -> Void) throws -> ([Int32: [Coordinates]], String) {
        let ratio: Double
        switch outline {
        case .none: return ([:], "no hulls")
        case .convex: ratio = 1
        case .concave(let r): ratio = r
        }
        let drawn = shown.outlined(options)
        progress("outlining \(FormatNumber.grouped(drawn.count)) clusters on \(threads) thread\(threads == 1 ? "" : "s")")
        let (lon, lat) = (file.coordinates.xOrLongitude, file.coordinates.yOrLatitude)
        let computed = try file.locatingProjectionFailures(crs: crs) {
            try GeometryContext().clusterOutlines(longitudes: lon, latitudes: lat, labels: label, ratio: ratio, crs: Projection.Target(crs),
                                    outlining: outlining, only: drawn, threads: threads)
        }
        var note = outline == .convex ? "convex hulls" : "concave hulls (ratio \(ratio))"
        note += (outlined.description.map { " of \($0)" } ?? "") + " computed in \(computed.crs)"
        return (computed.outlines, note)
    }
}
