import Datasets
import Geo
import Harness

/// `geocluster hulls`: the outline, area and centre of every cluster of a labelled file,
/// written as GeoJSON in longitude/latitude.
public struct HullsRequest {
    /// The clustered file and how to read it (with the filters `cluster` was given).
    public var input: String
    public var read: ReadOptions
    public var filter: ListingFilter?
    /// The labels `cluster` wrote for it.
    public var labels: String
    /// Which members each outline goes around.
    public var outlined: OutlineSelection
    /// Concave hull ratio in [0, 1]; 1 is the convex hull.
    public var ratio: Double
    /// `auto` or one metric CRS for all clusters.
    public var crs: String
    /// The planes: one for all (planar), one per cluster (geodesic), or chosen by the data (auto).
    public var metric: DistanceMetric
    public var threads: Int
    /// The GeoJSON file (or `-`), written whole or not at all.
    public var output: String

    public init(input: String, read: ReadOptions, filter: ListingFilter?, labels: String, outlined: OutlineSelection,
                ratio: Double, crs: String, metric: DistanceMetric, threads: Int, output: String) {
        self.input = input; self.read = read; self.filter = filter; self.labels = labels; self.outlined = outlined
        self.ratio = ratio; self.crs = crs; self.metric = metric; self.threads = threads; self.output = output
    }
}

/// What `HullsRequest.run` computed and wrote.
public struct HullsOutcome {
    /// One row per cluster, in label order.
    public var rows: [ClusterHull]
    /// The plane(s) the hulls were computed in, in words.
    public var crs: String
    /// Points read, and of them noise.
    public var points: Int, noise: Int
    /// With a selection: the clustered points outlined.
    public var outlinedPoints: Int?
    /// Warnings for standard error (skipped rows, a plane that stretches the data).
    public var warnings: [String]
}

extension HullsRequest {
    /// Reads the points and labels, computes the hulls and writes them.
    /// - Parameter progress: told each stage as it starts.
    /// - Throws: `DatasetError` (reading, writing), `GeoError` (projection, located at its point).
    public func run(progress: (String) -> Void = { _ in }) throws -> HullsOutcome {
        try AtomicFile.checkDestination(output)
        progress("reading \(input)")
        let file = try PointFile.read(path: input, prefer: .lonlat, filter: filter, options: read)
        let (labelFile, outlining) = try outlined.labels(labels, idColumn: read.id)
        let label = try labelFile.aligned(to: file)
        let (lon, lat) = (file.coordinates.xOrLongitude, file.coordinates.yOrLatitude)
        let target = metric == .planar
            ? Projection.Target.crs(try Projection.resolve(Projection.Target(crs), longitudes: lon, latitudes: lat))
            : Projection.Target(crs)
        progress("outlining the clusters of \(FormatNumber.grouped(file.count)) points on \(threads) thread\(threads == 1 ? "" : "s")")
        let (rows, used) = try file.locatingProjectionFailures(crs: crs) {
            try GeometryContext().clusterHulls(longitudes: lon, latitudes: lat, labels: label, ratio: ratio, crs: target,
                                               outlining: outlining, localPlanesEverywhere: metric == .geodesic, threads: threads)
        }
        progress("writing \(output)")
        try ClusterHull.writeGeoJSON(rows, to: output)
        let noise = label.filter { $0 < 0 }.count
        let outlinedPoints = outlining.map { o in zip(o, label).filter { $0.0 && $0.1 >= 0 }.count }
        let warnings = [file.skippedWarning, Self.stretchWarning(crs: used, longitudes: lon, latitudes: lat)].compactMap { $0 }
        return HullsOutcome(rows: rows, crs: used, points: file.count, noise: noise, outlinedPoints: outlinedPoints, warnings: warnings)
    }

    /// One plane for all clusters (`--crs`, or `--metric planar`) that does not keep distances
    /// within the ground-scale tolerance over the data distorts the outlines far from its
    /// centre: say so, as `cluster` does. The per-cluster planes need no warning.
    static func stretchWarning(crs used: String, longitudes lon: [Double], latitudes lat: [Double]) -> String? {
        guard used != GeometryContext.localProjectionsDescription, !lon.isEmpty,
              let projection = try? Projection(crs: used),
              let worst = try? projection.worstScale(fittingLongitudes: lon, latitudes: lat,
                                                     stoppingBeyond: GroundScale.tolerance),
              !worst.isGround else { return nil }
        let by = worst.scale.isFinite ? "stretches distances by \(FormatNumber.fixed(worst.scale, decimals: 2))×" : "cannot project"
        return "warning: \(used) \(by) at (\(FormatNumber.fixed(worst.longitude, decimals: 2)), \(FormatNumber.fixed(worst.latitude, decimals: 2))): "
            + "hulls there are outlined in a distorted plane (areas stay geodesic); --metric auto or geodesic gives each cluster a plane of its own"
    }
}

extension PointFile {
    /// Runs `body` (work on this file's points in `crs`) and gives a projection failure the
    /// row and coordinates of the point it concerns.
    func locatingProjectionFailures<R>(crs: String, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as GeoError {
            let c = coordinates
            let name = try? Projection.resolve(Projection.Target(crs), longitudes: c.xOrLongitude, latitudes: c.yOrLatitude)
            throw locating(error, crs: name, clustering: false) ?? error
        }
    }
}
