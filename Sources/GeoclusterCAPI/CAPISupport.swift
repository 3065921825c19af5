// What every exported function of the C API shares: result codes, the message buffer, reading
// coordinates from caller memory. The C declarations are in python/geocluster/_capi.h.
import ClusterCore

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

/// The points of a call: `n` x values at `x[0], x[stride], ...` and y values at
/// `y[0], y[stride], ...` (a C-ordered (n, 2) array is x = base, y = base + 1, stride 2; a
/// Fortran-ordered one x = base, y = base + n, stride 1), copied once into the core's
/// struct of arrays.
/// The n sample weights at `weights` (contiguous), or nil for NULL: every point weighs 1.
func readWeights(_ weights: UnsafePointer<Double>?, n: Int64) -> [Double]? {
    guard let weights, n > 0 else { return nil }
    return Array(UnsafeBufferPointer(start: weights, count: Int(n)))
}

func readPoints(
    x: UnsafePointer<Double>?, y: UnsafePointer<Double>?, n: Int64, stride: Int64
) throws(CAPIError) -> PointSet {
    guard n >= 0 else { throw CAPIError(.invalidArgument, "n = \(n) is invalid: must be at least 0") }
    guard stride >= 1 else { throw CAPIError(.invalidArgument, "stride = \(stride) is invalid: must be at least 1") }
    let count = Int(n), step = Int(stride)
    if count == 0 { return .empty }
    guard let x, let y else { throw CAPIError(.invalidArgument, "x and y must not be null when n > 0") }
    let xs = [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
        for i in 0..<count { buffer[i] = x[i &* step] }
        initialized = count
    }
    let ys = [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
        for i in 0..<count { buffer[i] = y[i &* step] }
        initialized = count
    }
    do throws(ClusterCoreError) {
        return try PointSet(xs: xs, ys: ys)
    } catch {
        throw CAPIError(error)
    }
}

/// Points on the sphere from latitudes and longitudes in radians (scikit-learn's haversine
/// layout, latitude first), as degrees.
func readSpherePoints(
    latitudes: UnsafePointer<Double>?, longitudes: UnsafePointer<Double>?, n: Int64, stride: Int64
) throws(CAPIError) -> SpherePoints {
    let radians = try readPoints(x: latitudes, y: longitudes, n: n, stride: stride)
    let degrees = 180 / Double.pi
    do throws(ClusterCoreError) {
        return try SpherePoints(longitudes: radians.ys.map { $0 * degrees }, latitudes: radians.xs.map { $0 * degrees })
    } catch {
        throw CAPIError(error)
    }
}

/// Checks a worker-thread count given by the caller; a count above the library's most workers
/// (`Parallel.maximumWorkers`) runs as that many, as joblib's n_jobs beyond the cores would
/// (the result is the same for any count).
func checkedThreads(_ threads: Int64) throws(CAPIError) -> Int {
    guard threads >= 1 else { throw CAPIError(.invalidArgument, "threads = \(threads) is invalid: must be at least 1") }
    return Int(min(threads, Int64(Parallel.maximumWorkers)))
}
