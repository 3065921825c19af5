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
    /// The caller's `gc_points`, copied once into the core's struct of arrays: `n` first
    /// coordinates at `x[0], x[stride], ...` and second ones at `y[0], y[stride], ...`;
    /// planar x, y, or latitude, longitude in radians (scikit-learn's haversine layout),
    /// held as degrees.
    init(_ points: UnsafePointer<gc_points>?) throws(CAPIError) {
        guard let points else { throw CAPIError(.invalidArgument, "points must not be null") }
        let p = points.pointee
        guard p.metric == GC_METRIC_EUCLIDEAN || p.metric == GC_METRIC_HAVERSINE else {
            throw CAPIError(.invalidArgument, "metric = \(p.metric) is invalid: GC_METRIC_EUCLIDEAN (0) or GC_METRIC_HAVERSINE (1)")
        }
        let first = try column(p.x, n: p.n, stride: p.stride), second = try column(p.y, n: p.n, stride: p.stride)
        do throws(ClusterCoreError) {
            if p.metric == GC_METRIC_EUCLIDEAN {
                self = .plane(try PointSet(xs: first, ys: second))
            } else {
                let degrees = 180 / Double.pi
                self = .sphere(try SpherePoints(longitudes: second.map { $0 * degrees }, latitudes: first.map { $0 * degrees }))
            }
        } catch {
            throw CAPIError(error)
        }
    }
}

/// `n` values at `base[0], base[stride], ...`.
private func column(_ base: UnsafePointer<Double>?, n: Int64, stride: Int64) throws(CAPIError) -> [Double] {
    guard n >= 0 else { throw CAPIError(.invalidArgument, "n = \(n) is invalid: must be at least 0") }
    guard stride >= 1 else { throw CAPIError(.invalidArgument, "stride = \(stride) is invalid: must be at least 1") }
    let count = Int(n), step = Int(stride)
    if count == 0 { return [] }
    guard let base else { throw CAPIError(.invalidArgument, "x and y must not be null when n > 0") }
    return [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
        for i in 0..<count { buffer[i] = base[i &* step] }
        initialized = count
    }
}

/// Checks a worker-thread count given by the caller; a count above the library's most workers
/// (`Parallel.maximumWorkers`) runs as that many, as joblib's n_jobs beyond the cores would
/// (the result is the same for any count).
func checkedThreads(_ threads: Int64) throws(CAPIError) -> Int {
    guard threads >= 1 else { throw CAPIError(.invalidArgument, "threads = \(threads) is invalid: must be at least 1") }
    return Int(min(threads, Int64(Parallel.maximumWorkers)))
}
