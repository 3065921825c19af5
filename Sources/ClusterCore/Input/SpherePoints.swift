// Points on the sphere, for clustering by great-circle distance.
//
// Distances are along great circles of a sphere of radius `SpherePoints.earthRadius`
// (6,371,008.8 m, the mean Earth radius R₁ of the IUGG): scikit-learn's `metric="haversine"`
// (radians, on [latitude, longitude] in radians) times that radius is the same distance.
//
// The work is done on unit vectors: the chord c between two unit vectors and the angle θ
// between them are tied by c = 2 sin(θ/2), increasing on [0, π], so nearest neighbours, core
// distances and the mutual-reachability minimum spanning tree are the same in 3-D chord space
// as on the sphere. Each distance that reaches a result is then measured again with the
// haversine formula scikit-learn uses, so weights, core distances and stabilities come out as
// its do.

/// Points given by longitude and latitude in degrees, with their unit vectors.
///
/// Construction validates that every coordinate is finite and every latitude within ±90°;
/// longitudes are periodic (any finite value; 190 and −170 are the same meridian).
public struct SpherePoints: Sendable, Equatable {
    /// The sphere's radius in metres: the mean Earth radius (IUGG R₁), the radius that turns
    /// scikit-learn's haversine distances (radians) into metres.
    public static let earthRadius = 6_371_008.8

    /// Longitude of each point, degrees.
    public let longitudes: [Double]
    /// Latitude of each point, degrees.
    public let latitudes: [Double]

    /// The number of points.
    public var count: Int { longitudes.count }

    /// Creates a point set, rejecting mismatched arrays, non-finite coordinates and latitudes
    /// beyond the poles.
    /// - Throws: `.mismatchedCoordinateCounts`, `.nonFiniteCoordinate(row:)`, or
    ///   `.invalidParameter` naming the first latitude outside ±90.
    public init(longitudes: [Double], latitudes: [Double]) throws(ClusterCoreError) {
        guard longitudes.count == latitudes.count else {
            throw .mismatchedCoordinateCounts(xs: longitudes.count, ys: latitudes.count)
        }
        for i in 0..<longitudes.count {
            guard longitudes[i].isFinite && latitudes[i].isFinite else { throw .nonFiniteCoordinate(row: i) }
            guard abs(latitudes[i]) <= 90 else {
                throw .invalidParameter(name: "latitude (row \(i))", value: "\(latitudes[i])",
                                        requirement: "must be within ±90 degrees")
            }
        }
        self.longitudes = longitudes
        self.latitudes = latitudes
    }

    /// The great-circle distance in metres between two points (degrees), by the haversine
    /// formula as scikit-learn evaluates it.
    public static func distance(lon1: Double, lat1: Double, lon2: Double, lat2: Double) -> Double {
        let d = Double.pi / 180
        return angle(SphereAngles.Point(lat: lat1 * d, lon: lon1 * d),
                     SphereAngles.Point(lat: lat2 * d, lon: lon2 * d)) * earthRadius
    }

    /// The angle (radians) of a great-circle distance in metres.
    static func angle(ofDistance metres: Double) -> Double { metres / earthRadius }

    /// The largest distance between two points of the sphere: half its circumference, metres.
    public static var halfCircumference: Double { Double.pi * earthRadius }

    /// scikit-learn's haversine distance (radians) between two points in radians.
    @inline(__always)
    static func angle(_ a: SphereAngles.Point, _ b: SphereAngles.Point) -> Double {
        angle(a, b, cosines: (ElementaryMath.cos(a.lat), ElementaryMath.cos(b.lat)))
    }

    /// `angle(a, b)` given the cosines of their latitudes (the same bits).
    @inline(__always)
    static func angle(_ a: SphereAngles.Point, _ b: SphereAngles.Point, cosines: (a: Double, b: Double)) -> Double {
        2 * ElementaryMath.asin(min(1, halfChord2(a, b, cosines: cosines).squareRoot()))
    }

    /// sin²(θ/2) for the angle θ between two points, in scikit-learn's arithmetic (its
    /// "reduced distance": latitude first).
    @inline(__always)
    static func halfChord2(_ a: SphereAngles.Point, _ b: SphereAngles.Point) -> Double {
        halfChord2(a, b, cosines: (ElementaryMath.cos(a.lat), ElementaryMath.cos(b.lat)))
    }

    /// `halfChord2(a, b)` given the cosines of their latitudes.
    @inline(__always)
    static func halfChord2(_ a: SphereAngles.Point, _ b: SphereAngles.Point, cosines: (a: Double, b: Double)) -> Double {
        let s0 = ElementaryMath.sin(0.5 * (a.lat - b.lat)), s1 = ElementaryMath.sin(0.5 * (a.lon - b.lon))
        return s0 * s0 + cosines.a * cosines.b * s1 * s1
    }
}

/// Latitudes and longitudes in radians, by some order of the points (a tree's), for the
/// haversine measurements that give results their exact values. Read through the order from
/// the points' own degrees, not copied: a copy (16 bytes a point) would be held through the
/// MST stage, at its peak of memory.
struct SphereAngles: Sendable {
    struct Point { let lat: Double; let lon: Double }
    let latitudes: [Double]
    let longitudes: [Double]
    let order: [Int32]

    /// The angles of `points`, in the order `order` gives (order[i] is the row of entry i).
    init(_ points: SpherePoints, order: [Int32]) {
        latitudes = points.latitudes
        longitudes = points.longitudes
        self.order = order
    }

    @inline(__always) subscript(i: Int) -> Point {
        let r = Int(order[i]), d = Double.pi / 180
        return Point(lat: latitudes[r] * d, lon: longitudes[r] * d)
    }

    /// The great-circle distance in metres between entries i and j.
    @inline(__always) func metres(_ i: Int, _ j: Int) -> Double {
        SpherePoints.angle(self[i], self[j]) * SpherePoints.earthRadius
    }
}

extension SpherePoints {
    /// The unit vector of each point, (cos φ cos λ, cos φ sin λ, sin φ).
    func unitVectors(threads: Int) -> (x: [Double], y: [Double], z: [Double]) {
        let n = count
        var y: [Double] = [], z: [Double] = []
        let x = [Double](unsafeUninitializedCapacity: n) { bx, cx in
        y = [Double](unsafeUninitializedCapacity: n) { by, cy in
        z = [Double](unsafeUninitializedCapacity: n) { bz, cz in
            if n > 0 {
                let (ox, oy, oz) = (SharedBuffer(base: bx.baseAddress!), SharedBuffer(base: by.baseAddress!),
                                    SharedBuffer(base: bz.baseAddress!))
                Parallel.forEachChunk(count: n, grain: 1 << 16, threads: threads) { chunk, _ in
                    for i in chunk { (ox[i], oy[i], oz[i]) = unitVector(i) }
                }
            }
            cz = n }; cy = n }; cx = n
        }
        return (x, y, z)
    }

    /// The unit vector of row `i`.
    @inline(__always) func unitVector(_ i: Int) -> (x: Double, y: Double, z: Double) {
        let d = Double.pi / 180
        let phi = ElementaryMath.sinCos(latitudes[i] * d), lambda = ElementaryMath.sinCos(longitudes[i] * d)
        return (phi.cos * lambda.cos, phi.cos * lambda.sin, phi.sin)
    }

    /// The squared chord of a great-circle distance in metres (a distance beyond half the
    /// circumference gives the diameter's, 4).
    static func chord2(ofDistance metres: Double) -> Double {
        let s = ElementaryMath.sin(min(Double.pi, angle(ofDistance: metres)) / 2)
        return 4 * s * s
    }
}
