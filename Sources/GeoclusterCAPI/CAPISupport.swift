// What every exported function of the C API shares: result codes, the message buffer, reading
// coordinates from caller memory. The C declarations: GeoclusterCHeader's geocluster.h.
import ClusterCore
import GeoclusterCHeader

/// The codes every fitting function returns (`GC_OK` ... in the header).
enum ResultCode: Int32 {
    case ok = 0
    /// A parameter is out of range (the core's `invalidParameter`).
    case invalidParameter = 1
    /// A coordinate is NaN or infinite.
    case nonFiniteCoordinate = 2
    /// Fewer points than the parameters need (for example `min_samples` above `n`).
    case tooFewPoints = 3
    /// A misuse of the C API itself: a null pointer, a negative count, an unknown enum value.
    case invalidArgument = 4
}

/// An error of the C layer: its code and the message written to the caller's buffer.
struct CAPIError: Error {
    let code: ResultCode
    let message: String

    init(_ code: ResultCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The core's error, with its code and its own message (which says what to do).
    init(_ error: ClusterCoreError) {
        switch error {
        case .invalidParameter: code = .invalidParameter
        case .nonFiniteCoordinate: code = .nonFiniteCoordinate
        case .tooFewPoints: code = .tooFewPoints
        case .mismatchedCoordinateCounts: code = .invalidArgument
        }
        message = error.description
    }
}

/// Copies `text` as UTF-8 into `buffer` (at most `capacity - 1` bytes, cut at a character
/// boundary) and terminates it with NUL. Does nothing without a buffer.
func writeMessage(_ text: String, into buffer: UnsafeMutablePointer<CChar>?, capacity: Int64) {
    guard let buffer, capacity > 0 else { return }
    var written = 0
    let limit = Int(capacity) - 1
    for scalar in text.unicodeScalars {
        let bytes = Array(String(scalar).utf8)
        if written + bytes.count > limit { break }
        for b in bytes {
            buffer[written] = CChar(bitPattern: b)
            written += 1
        }
    }
    buffer[written] = 0
}

/// Runs `body`, turning a `CAPIError` into its code and message.
func reportingErrors(
    message: UnsafeMutablePointer<CChar>?, capacity: Int64, _ body: () throws(CAPIError) -> Void
) -> Int32 {
    do {
        try body()
        writeMessage("", into: message, capacity: capacity)
        return ResultCode.ok.rawValue
    } catch {
        writeMessage(error.message, into: message, capacity: capacity)
        return error.code.rawValue
    }
}

/// The n sample weights at `weights` (contiguous), or nil for NULL: every point weighs 1.
func readWeights(_ weights: UnsafePointer<Double>?, n: Int) -> [Double]? {
    guard let weights, n > 0 else { return nil }
    return Array(UnsafeBufferPointer(start: weights, count: n))
}

extension Points {
    /// The caller's `gc_points`, copied once into the core's arrays: coordinate a of point i
    /// at `data[i·row_stride + a·column_stride]`. Euclidean points of 2 dimensions are the
    /// plane (the fast path), of other dimensions `.features`; haversine ones, 2 dimensions
    /// only, are latitude, longitude in radians (scikit-learn's layout), held as degrees.
    init(_ points: UnsafePointer<gc_points>?) throws(CAPIError) {
        guard let points else { throw CAPIError(.invalidArgument, "points must not be null") }
        let p = points.pointee
        try checkShape(p)
        let d = Int(p.dimensions)
        do throws(ClusterCoreError) {
            if p.metric == GC_METRIC_HAVERSINE {
                let degrees = 180 / Double.pi
                self = .sphere(try SpherePoints(longitudes: column(p, 1).map { $0 * degrees },
                                                latitudes: column(p, 0).map { $0 * degrees }))
            } else if d == 2 {
                self = .plane(try PointSet(xs: column(p, 0), ys: column(p, 1)))
            } else {
                self = .features(try FeaturePoints(values: rows(p), dimensions: d))
            }
        } catch {
            throw CAPIError(error)
        }
    }
}

/// Refuses a `gc_points` that cannot be read: an unknown metric, a count, dimension or stride
/// out of range, no data for n > 0, or haversine points of other than 2 dimensions.
private func checkShape(_ p: gc_points) throws(CAPIError) {
    guard p.metric == GC_METRIC_EUCLIDEAN || p.metric == GC_METRIC_HAVERSINE else {
        throw CAPIError(.invalidArgument, "metric = \(p.metric) is invalid: GC_METRIC_EUCLIDEAN (0) or GC_METRIC_HAVERSINE (1)")
    }
    guard p.n >= 0 else { throw CAPIError(.invalidArgument, "n = \(p.n) is invalid: must be at least 0") }
    let most = Int64(GC_MAX_DIMENSIONS)
    guard (1...most).contains(p.dimensions) else {
        throw CAPIError(.invalidParameter, "dimensions = \(p.dimensions) is invalid: must be between 1 and \(most)")
    }
    if p.metric == GC_METRIC_HAVERSINE && p.dimensions != 2 {
        throw CAPIError(.invalidParameter, "dimensions = \(p.dimensions) is invalid with GC_METRIC_HAVERSINE: its points have 2 coordinates, latitude and longitude in radians")
    }
    guard p.row_stride >= 1 else { throw CAPIError(.invalidArgument, "row_stride = \(p.row_stride) is invalid: must be at least 1") }
    guard p.column_stride >= 1 else {
        throw CAPIError(.invalidArgument, "column_stride = \(p.column_stride) is invalid: must be at least 1")
    }
    guard p.n == 0 || p.data != nil else { throw CAPIError(.invalidArgument, "data must not be null when n > 0") }
}

/// Coordinate `axis` of every point (the shape already checked).
private func column(_ p: gc_points, _ axis: Int) -> [Double] {
    let n = Int(p.n), step = Int(p.row_stride), offset = axis &* Int(p.column_stride)
    guard n > 0, let base = p.data else { return [] }
    return [Double](unsafeUninitializedCapacity: n) { buffer, initialized in
        for i in 0..<n { buffer[i] = base[i &* step &+ offset] }
        initialized = n
    }
}

/// Every coordinate, row after row (the shape already checked).
private func rows(_ p: gc_points) -> [Double] {
    let n = Int(p.n), d = Int(p.dimensions), rowStep = Int(p.row_stride), columnStep = Int(p.column_stride)
    guard n > 0, let base = p.data else { return [] }
    return [Double](unsafeUninitializedCapacity: n * d) { buffer, initialized in
        for i in 0..<n {
            for a in 0..<d { buffer[i &* d &+ a] = base[i &* rowStep &+ a &* columnStep] }
        }
        initialized = n * d
    }
}

/// Checks a worker-thread count given by the caller; a count above the library's most workers
/// (`Parallel.maximumWorkers`) runs as that many, as joblib's n_jobs beyond the cores would
/// (the result is the same for any count).
func checkedThreads(_ threads: Int64) throws(CAPIError) -> Int {
    guard threads >= 1 else { throw CAPIError(.invalidArgument, "threads = \(threads) is invalid: must be at least 1") }
    return Int(min(threads, Int64(Parallel.maximumWorkers)))
}
