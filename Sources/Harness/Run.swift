import ClusterCore
import Datasets
import Geo

/// What one run reads: a CSV or GeoJSON file of points, which coordinates to use, the CRS for
/// projecting longitude/latitude, and the rows to keep.
public struct RunInput {
    /// The file, as given on the command line.
    public var path: String
    /// Which coordinate columns to use when a file has both (nil: `x,y` for CSV, the geometry
    /// for GeoJSON).
    public var coordinates: CoordinateKind?
    /// The CRS that longitude/latitude are projected to: an EPSG code PROJ knows or `auto`
    /// (the UTM zone of the data).
    public var crs: String
    /// Rows to keep (nil: all).
    public var filter: ListingFilter?

    public init(path: String, coordinates: CoordinateKind? = nil, crs: String = "auto", filter: ListingFilter? = nil) {
        self.path = path; self.coordinates = coordinates; self.crs = crs; self.filter = filter
    }
}

/// Everything one run produced: the rows it clustered, the labels, the method's own outputs,
/// and the fingerprints the benchmark and the gate compare.
public struct RunRecord: Sendable {
    /// The rows clustered (ids, lines, counts). Its coordinates were handed to the clustering
    /// and are empty here.
    public var file: PointFile
    public var method: Method
    /// Cluster of each kept row, -1 for noise.
    public var labels: [Int32]
    public var clusterCount: Int
    public var noiseCount: Int
    /// HDBSCAN's result (probabilities, outlier scores, kept trees); nil for the baselines.
    public var hdbscan: HDBSCANResult?
    /// DBSCAN's core flags; nil for the other methods.
    public var isCore: [Bool]?
    /// The CRS the points were projected to, when they were longitude/latitude.
    public var projectedCRS: String?
    /// Each stage's wall time in seconds, in order, as the clock had them when the run
    /// returned (reading to labels; a caller that writes times `RunStage.writing` on the same
    /// clock afterwards).
    public var stages: [(name: String, seconds: Double)]
    /// The process's peak resident memory (VmHWM, MB) when the run returned; nil where /proc
    /// does not report it.
    public var peakMegabytes: Double?

    /// HDBSCAN's MST total weight (metres); nil for the baselines.
    public var mstWeight: Double? { hdbscan?.mstWeight }
}

public enum Harness {
    /// Runs `method` on the points of `input`: read (and filter) → project → cluster, each
    /// stage timed by `clock`. Writing is the caller's (see `RunRecord+Writing`), timed on the
    /// same clock as `RunStage.writing`.
    ///
    /// The coordinates are handed from stage to stage rather than copied: at a million points
    /// every array kept alive counts against the memory budget (see README).
    /// - Parameters:
    ///   - threads: worker threads; the output is identical for any value.
    ///   - keeping: which of HDBSCAN's intermediate trees to keep in the record.
    /// - Throws: `HarnessError` naming the file (and line and column where there is one).
    /// - Complexity: that of reading plus the method's (O(n log n) for HDBSCAN on 2-D data).
    public static func run(
        _ input: RunInput, method: Method, threads: Int, keeping: HDBSCANOutputs = [], clock: StageClock
    ) throws(HarnessError) -> RunRecord {
        do {
            try method.validate()
        } catch {
            throw .cluster(path: input.path, error)
        }
        var prepared = try prepare(input, clock: clock)
        // The points move into the clustering: at a million points every copy kept alive
        // counts against the memory budget.
        let points = prepared.points
        prepared.points = PointSet.empty
        return try cluster(points, file: prepared.file, projectedCRS: prepared.projectedCRS, path: input.path,
                           method: method, threads: threads, keeping: keeping, clock: clock)
    }

    /// The points of a run, read (and filtered) and projected, ready for any method.
    public struct PreparedPoints: Sendable {
        /// The rows read; their coordinates were moved into `points` and are empty here.
        public var file: PointFile
        public var points: PointSet
        /// The CRS the points were projected to, when they were longitude/latitude.
        public var projectedCRS: String?
    }

    /// Reads (and filters) the points of `input` and projects longitude/latitude: the `reading`
    /// and `projecting` stages of `run`, for callers that cluster the same points many times
    /// (`geocluster check`'s timed lane).
    /// - Throws: `HarnessError` naming the file (and line and column where there is one).
    public static func prepare(_ input: RunInput, clock: StageClock) throws(HarnessError) -> PreparedPoints {
        var file: PointFile
        do {
            file = try clock.run(RunStage.reading) { () throws(DatasetError) in
                try PointFile.read(path: input.path, prefer: input.coordinates, filter: input.filter)
            }
        } catch {
            throw .dataset(error)
        }
        var projectedCRS: String?
        let xs: [Double], ys: [Double]
        do {
            (xs, ys) = try clock.run(RunStage.projecting) { () throws(GeoError) -> ([Double], [Double]) in
                let c = file.coordinates
                guard c.kind == .lonlat else { return (c.xOrLongitude, c.yOrLatitude) }
                let projection = try Projection(target: Projection.Target(input.crs), fittingLongitudes: c.xOrLongitude,
                                                latitudes: c.yOrLatitude)
                projectedCRS = projection.crs
                let p = try projection.forward(lon: c.xOrLongitude, lat: c.yOrLatitude)
                return (p.x, p.y)
            }
        } catch {
            throw .geo(path: input.path, error)
        }
        file.coordinates.xOrLongitude = []; file.coordinates.yOrLatitude = []
        do {
            return PreparedPoints(file: file, points: try PointSet(xs: consume xs, ys: consume ys), projectedCRS: projectedCRS)
        } catch {
            throw .cluster(path: input.path, error)
        }
    }

    /// Runs `method` on prepared points (the stages from index to labels), timed by `clock`.
    /// - Parameters:
    ///   - file: the rows the points came from (kept in the record).
    ///   - path: the file the points came from, for error messages.
    /// - Throws: `HarnessError.cluster` when the core refuses the points or the parameters.
    public static func cluster(
        _ points: consuming PointSet, file: PointFile, projectedCRS: String?, path: String, method: Method,
        threads: Int, keeping: HDBSCANOutputs = [], clock: StageClock
    ) throws(HarnessError) -> RunRecord {
        var record = RunRecord(file: file, method: method, labels: [], clusterCount: 0, noiseCount: 0,
                               hdbscan: nil, isCore: nil, projectedCRS: projectedCRS, stages: [], peakMegabytes: nil)
        do {
            switch method {
            case let .hdbscan(parameters):
                let result = try HDBSCAN.fit(consume points, parameters: parameters, threads: threads,
                                             keeping: keeping, observer: clock)
                record.labels = result.labeling.labels
                record.clusterCount = result.labeling.clusterCount
                record.hdbscan = result
            case let .dbscan(parameters):
                let result = try DBSCAN.fit(points, parameters: parameters, threads: threads, observer: clock)
                record.labels = result.labels
                record.clusterCount = result.clusterCount
                record.isCore = result.isCore
            case let .grid(parameters):
                let result = try GridClustering.fit(points, parameters: parameters, observer: clock)
                record.labels = result.labels
                record.clusterCount = result.clusterCount
            }
            record.noiseCount = record.labels.reduce(0) { $0 + ($1 < 0 ? 1 : 0) }
            record.stages = clock.stages
            record.peakMegabytes = StageClock.peakResidentMegabytes()
            return record
        } catch {
            throw .cluster(path: path, error)
        }
    }
}
