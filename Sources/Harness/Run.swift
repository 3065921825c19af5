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
    /// Column names, separator and bad-row handling.
    public var options: ReadOptions
    /// The distance option given in metres (`--eps 100`), if any: the run then refuses a CRS
    /// that is not metric at ground scale for the data (``HarnessError/notGroundMetres``).
    public var distanceOption: (flag: String, value: Double)?
    /// How distances are measured for longitude/latitude input (x,y input is always planar).
    public var metric: DistanceMetric
    /// How `options.features` are scaled, when the rows are clustered by features.
    public var featureScale: FeatureScale = .standard

    public init(path: String, coordinates: CoordinateKind? = nil, crs: String = "auto", metric: DistanceMetric = .auto,
                filter: ListingFilter? = nil, options: ReadOptions = ReadOptions()) {
        self.path = path; self.coordinates = coordinates; self.crs = crs; self.filter = filter; self.options = options
        self.metric = metric
    }
}

/// How a run measures distance: `planar` in a projected CRS (metres), `geodesic` along great
/// circles of the sphere of radius `SpherePoints.earthRadius` (metres), or `auto`: planar in
/// the automatic local projection (`--crs auto`, the UTM zone of the data) when it keeps ground
/// distances within 1 % over the whole data (``Projection/worstScale(fittingLongitudes:latitudes:)``),
/// geodesic otherwise; planar in a CRS the user names.
public enum DistanceMetric: String, Sendable, CaseIterable {
    case auto, planar, geodesic
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
    /// How far the projected CRS stretches ground distances at worst over the data (1: true
    /// metres; 1.26 for Web Mercator at Seoul's latitude); nil for planar input.
    public var scaleFactor: Double?
    /// The extent of planar x,y input when it looks like longitude/latitude in degrees (see
    /// ``PlanarExtent/looksLikeDegrees``), which the clustering would take for metres.
    public var degreesLikeExtent: PlanarExtent?
    /// How distances were measured (never `.auto`) and, for `--metric auto`, why.
    public var metric: DistanceMetric = .planar
    public var metricReason: String?
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
    /// every array kept alive counts against the memory budget (docs/performance.md).
    /// - Parameters:
    ///   - threads: worker threads; the output is identical for any value.
    ///   - keeping: which of HDBSCAN's intermediate trees to keep in the record.
    /// - Throws: `HarnessError` naming the file (and line and column where there is one).
    /// - Complexity: that of reading plus the method's (O(n log n) for HDBSCAN on 2-D data).
    public static func run(
        _ input: RunInput, method: Method, threads: Int, keeping: HDBSCANOutputs = [], clock: StageClock
    ) throws(HarnessError) -> RunRecord {
        // The reader's threads too, unless the caller chose them.
        var input = input
        if input.options.threads == nil { input.options.threads = threads }
        var prepared = try prepare(input, clock: clock)
        // The points move into the clustering: at a million points every copy kept alive
        // counts against the memory budget.
        let points = prepared.points
        prepared.points = .plane(.empty)
        return try cluster(points, prepared: prepared, path: input.path, method: method, threads: threads,
                           keeping: keeping, clock: clock)
    }

    /// The points of a run, read (and filtered) and projected, ready for any method.
    public struct PreparedPoints: Sendable {
        /// The rows read; their coordinates were moved into `points` and are empty here.
        public var file: PointFile
        /// The points, planar (projected, or x,y as given) or on the sphere (`metric` geodesic).
        public var points: Points
        /// The CRS the points were projected to, when they were longitude/latitude.
        public var projectedCRS: String?
        /// How far that CRS stretches ground distances at the data's centre (see `RunRecord`).
        public var scaleFactor: Double?
        /// The extent of planar input that looks like degrees (see `RunRecord`).
        public var degreesLikeExtent: PlanarExtent?
        /// How distances are measured (never `.auto`) and, for `--metric auto`, why.
        public var metric: DistanceMetric = .planar
        public var metricReason: String?
        /// The column the rows' sample weights came from (`file.weights`), for messages.
        public var weightColumn: String?
    }

    /// Reads (and filters) the points of `input` and projects longitude/latitude: the `reading`
    /// and `projecting` stages of `run`, for callers that cluster the same points many times
    /// (`geocluster check`'s timed lane).
    /// - Throws: `HarnessError` naming the file (and line and column where there is one).
    public static func prepare(_ input: RunInput, clock: StageClock) throws(HarnessError) -> PreparedPoints {
        var file: PointFile
        do {
            file = try clock.run(RunStage.reading) { () throws(DatasetError) in
                try PointFile.read(path: input.path, prefer: input.coordinates, filter: input.filter, options: input.options)
            }
        } catch {
            throw .dataset(error)
        }
        let placed = try clock.run(RunStage.projecting) { () throws(HarnessError) in
            try PlacedPoints(file.coordinates, crs: input.crs, metric: input.metric, path: input.path) { error, crs in
                file.locating(error, crs: crs, clustering: true)
            }
        }
        if let (flag, value) = input.distanceOption, let scale = placed.scaleFactor, let crs = placed.projectedCRS,
           !GroundScale.isGround(scale) {
            throw .notGroundMetres(path: input.path, crs: crs, scale: scale, option: flag, value: value)
        }
        file.coordinates.xOrLongitude = []; file.coordinates.yOrLatitude = []
        do throws(ClusterCoreError) {
            let points: Points
            if let features = file.features {
                if features.hasCoordinates && placed.metric == .geodesic {
                    throw ClusterCoreError.invalidParameter(
                        name: "--features", value: features.names.joined(separator: ","),
                        requirement: "a position among features is measured in planar metres, but these points are clustered on the sphere (--metric); use --metric planar, or a projected --crs")
                }
                points = try features.points(x: placed.xs, y: placed.ys, scale: input.featureScale)
                file.features?.values = []
            } else {
                points = placed.metric == .geodesic
                    ? .sphere(try SpherePoints(longitudes: placed.xs, latitudes: placed.ys))
                    : .plane(try PointSet(xs: placed.xs, ys: placed.ys))
            }
            return PreparedPoints(file: file, points: points, projectedCRS: placed.projectedCRS,
                                  scaleFactor: placed.scaleFactor, degreesLikeExtent: placed.degreesLikeExtent,
                                  metric: placed.metric, metricReason: placed.reason, weightColumn: input.options.weight)
        } catch {
            throw .cluster(path: input.path, error)
        }
    }

    /// Runs `method` on prepared points (the stages from index to labels), timed by `clock`.
    /// - Parameters:
    ///   - coordinates: the points to cluster (moved in: `prepared.points` may be empty by now).
    ///   - prepared: the rows and projection they came from (kept in the record).
    ///   - path: the file the points came from, for error messages.
    /// - Throws: `HarnessError.cluster` when the core refuses the points or the parameters.
    public static func cluster(
        _ points: consuming Points, prepared: PreparedPoints, path: String, method: Method,
        threads: Int, keeping: HDBSCANOutputs = [], clock: StageClock
    ) throws(HarnessError) -> RunRecord {
        var record = RunRecord(file: prepared.file, method: method, labels: [], clusterCount: 0, noiseCount: 0,
                               hdbscan: nil, isCore: nil, projectedCRS: prepared.projectedCRS,
                               scaleFactor: prepared.scaleFactor, degreesLikeExtent: prepared.degreesLikeExtent,
                               metric: prepared.metric, metricReason: prepared.metricReason, stages: [], peakMegabytes: nil)
        let weights = try sampleWeights(prepared, method: method, path: path)
        do {
            switch method {
            case let .hdbscan(parameters):
                record.take(try HDBSCAN.fit(consume points, parameters: parameters, sampleWeight: weights, threads: threads,
                                            keeping: keeping, observer: clock))
            case let .dbscan(parameters):
                record.take(try DBSCAN.fit(points, parameters: parameters, sampleWeight: weights, threads: threads,
                                           observer: clock))
            case let .grid(parameters):
                record.take(try GridClustering.fit(points, parameters: parameters, observer: clock))
            }
            record.finish(clock: clock)
            return record
        } catch {
            throw .cluster(path: path, error)
        }
    }
}

extension RunRecord {
    /// The labels and outputs of each method's result.
    mutating func take(_ result: HDBSCANResult) {
        labels = result.labeling.labels
        clusterCount = result.labeling.clusterCount
        hdbscan = result
    }

    mutating func take(_ result: DBSCANResult) {
        labels = result.labels
        clusterCount = result.clusterCount
        isCore = result.isCore
    }

    mutating func take(_ result: GridResult) {
        labels = result.labels
        clusterCount = result.clusterCount
    }

    /// Counts the noise and takes the stage times and peak memory: the end of every run.
    mutating func finish(clock: StageClock) {
        noiseCount = labels.reduce(0) { $0 + ($1 < 0 ? 1 : 0) }
        stages = clock.stages
        peakMegabytes = StageClock.peakResidentMegabytes()
    }
}

/// The bounding box of planar coordinates.
public struct PlanarExtent: Sendable, Equatable {
    public var minX = Double.infinity, maxX = -Double.infinity
    public var minY = Double.infinity, maxY = -Double.infinity

    public init(x: [Double], y: [Double]) {
        for v in x { minX = min(minX, v); maxX = max(maxX, v) }
        for v in y { minY = min(minY, v); maxY = max(maxY, v) }
    }

    /// Whether x,y look like longitude/latitude in degrees rather than metres: every x
    /// within ±180, every y within ±90, and the whole extent under 5 units across (a city's
    /// listings span a fraction of a degree; in metres such an extent is a few paces, which no
    /// listing file is).
    public var looksLikeDegrees: Bool {
        minX >= -180 && maxX <= 180 && minY >= -90 && maxY <= 90 && maxX - minX < 5 && maxY - minY < 5
            && (maxX - minX > 0 || maxY - minY > 0)
    }
}

extension Harness {
    /// The rows' sample weights for `method` (nil when none were read), checked against what
    /// the method takes, a bad one named by its file line and column.
    /// - Throws: `HarnessError.dataset(.outOfRange)` for an HDBSCAN weight that is not a whole
    ///   number of at least 1; `.cluster` for weights with a method that takes none.
    static func sampleWeights(_ prepared: PreparedPoints, method: Method, path: String) throws(HarnessError) -> [Double]? {
        guard let weights = prepared.file.weights else { return nil }
        let column = prepared.weightColumn ?? "weight"
        func unsupported(_ why: String) -> HarnessError {
            .cluster(path: path, .invalidParameter(name: "--weight-column", value: column, requirement: why))
        }
        switch method {
        case .hdbscan:
            if let row = weights.firstIndex(where: { !($0 >= 1 && $0.rounded() == $0) }) {
                let zero = weights[row] == 0 ? "; a row of weight 0 stands for no point: leave such rows out (--where \(column)=1..)" : ""
                throw .dataset(.outOfRange(path: path, line: Int(prepared.file.lines[row]), column: column, value: weights[row],
                                           limit: "HDBSCAN counts a row of weight w as w identical rows: a weight must be a whole number of at least 1\(zero)"))
            }
        case .dbscan:
            break
        case .grid:
            throw unsupported("grid clustering takes no weights; use --algorithm hdbscan or dbscan")
        }
        return weights
    }
}
