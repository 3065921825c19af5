/// The outline of one cluster: its hull in the projected plane and in longitude/latitude,
/// with the measures `hulls` reports and the map draws.
public struct ClusterHull {
    /// The cluster's label (never -1: noise has no hull).
    public let label: Int32
    /// Points in the cluster.
    public let points: Int
    /// Points the hull outlines: all of them, or those that pass `outlining` (for example the
    /// points that belong to the cluster with a probability of at least P).
    public let outlinedPoints: Int
    /// The hull in the projected CRS (metres): a Polygon (or MultiPolygon if a concave hull
    /// splits), or a Point / LineString for coincident or collinear points.
    public let projected: Geometry
    /// `projected` transformed back to longitude/latitude (degrees, x = longitude).
    public let geographic: Geometry
    /// Geodesic area of the hull on the WGS 84 ellipsoid (``Geodesic/area(of:)``), m²,
    /// whatever CRS it was computed in; 0 for a Point or LineString.
    public let area: Double
    /// The hull's area centroid (for a Point or LineString its centre), degrees.
    public let centroidLongitude: Double
    public let centroidLatitude: Double

    /// The hull's rings in longitude/latitude (x = longitude, y = latitude, degrees), for
    /// drawing: every ring of every polygon (exteriors and holes, each closed, first vertex
    /// repeated at the end); for a LineString its vertices (open); for a Point nothing.
    /// - Complexity: O(vertices).
    public func rings() throws(GeoError) -> [Coordinates] {
        switch geographic.type {
        case .polygon, .multiPolygon: return try geographic.polygons().flatMap { $0 }
        case .lineString: return [try geographic.vertices()]
        default: return []
        }
    }
}

extension GeometryContext {
    /// One hull per cluster of a labelled, projected point set, in ascending label order.
    ///
    /// - Parameters:
    ///   - x: eastings, metres (`projection`'s forward transform of the points).
    ///   - y: northings, metres; same count as `x`.
    ///   - labels: one per point; -1 (any negative label) is noise and gets no hull.
    ///   - ratio: concave hull ratio in [0, 1]; 1 gives the convex hull. `hulls` and `map`
    ///     default to ``defaultConcaveRatio``.
    ///   - projection: the projection `x`, `y` came from, to turn the hulls and centroids back
    ///     into longitude/latitude.
    ///   - outlining: which points each hull outlines (nil: all); a cluster keeps its full
    ///     `points` count, and one with no point outlined gets no hull.
    /// - Throws: `.countMismatch` when the arrays differ in length, `.invalidParameter` for a
    ///   ratio outside [0, 1], and the errors of the hull, centroid and inverse transform.
    /// - Complexity: O(n) to group the points plus O(m log m) per cluster of m points (the
    ///   hull's Delaunay triangulation).
    public func clusterHulls(
        x: [Double], y: [Double], labels: [Int32], ratio: Double, projection: Projection, outlining: [Bool]? = nil
    ) throws(GeoError) -> [ClusterHull] {
        try Validation.sameCount(x, "x", y, "y")
        guard labels.count == x.count else {
            throw .countMismatch(first: "x", firstCount: x.count, second: "labels", secondCount: labels.count)
        }
        // Group point indices by label with one counting pass: a slot per distinct label,
        // then each slot's indices in input order (the hull does not depend on the order, but
        // the same input then always builds the same GEOS geometry).
        var slot: [Int32: Int] = [:]
        var counts: [Int] = []
        for l in labels where l >= 0 {
            if let s = slot[l] { counts[s] += 1 } else { slot[l] = counts.count; counts.append(1) }
        }
        var members = counts.map { n in
            var m = [Int]()
            m.reserveCapacity(n)
            return m
        }
        for (i, l) in labels.enumerated() where l >= 0 && outlining?[i] ?? true { members[slot[l]!].append(i) }

        var hulls: [ClusterHull] = []
        hulls.reserveCapacity(slot.count)
        for (label, s) in slot.sorted(by: { $0.key < $1.key }) {
            let idx = members[s]
            if idx.isEmpty { continue }
            let hx = idx.map { x[$0] }, hy = idx.map { y[$0] }
            let hull = ratio >= 1 ? try convexHull(x: hx, y: hy) : try concaveHull(x: hx, y: hy, ratio: ratio)
            let centre = try hull.centroid ?? (x: hx[0], y: hy[0])
            let (lon, lat) = try projection.inverse(x: centre.x, y: centre.y)
            let geographic = try projection.inverse(hull)
            hulls.append(ClusterHull(label: label, points: counts[s], outlinedPoints: idx.count, projected: hull,
                                     geographic: geographic, area: try Geodesic.area(of: geographic),
                                     centroidLongitude: lon, centroidLatitude: lat))
        }
        return hulls
    }

    /// One hull per cluster of labelled longitude/latitude points, computed in the CRS
    /// `target` resolves to for them (`auto`: the UTM zone of their centroid); the hulls as
    /// ``clusterHulls(x:y:labels:ratio:projection:)`` gives them, and the projection used.
    /// - Parameters:
    ///   - longitudes: degrees.
    ///   - latitudes: degrees; same count as `longitudes`.
    ///   - labels: one per point; negative labels are noise.
    ///   - ratio: concave hull ratio in [0, 1]; 1 gives the convex hull.
    ///   - target: the CRS to compute the hulls in.
    /// - Throws: the errors of ``Projection/init(target:fittingLongitudes:latitudes:)``, the
    ///   forward transform and ``clusterHulls(x:y:labels:ratio:projection:)``.
    /// - Complexity: O(n) to project plus the hulls' cost.
    public func clusterHulls(
        longitudes: [Double], latitudes: [Double], labels: [Int32], ratio: Double, crs target: Projection.Target,
        outlining: [Bool]? = nil
    ) throws(GeoError) -> (hulls: [ClusterHull], projection: Projection) {
        let projection = try Projection(target: target, fittingLongitudes: longitudes, latitudes: latitudes)
        let (x, y) = try projection.forward(lon: longitudes, lat: latitudes)
        return (try clusterHulls(x: x, y: y, labels: labels, ratio: ratio, projection: projection, outlining: outlining),
                projection)
    }

    /// The concave hull ratio `hulls` and `map` use unless told otherwise: close enough to
    /// follow a district's outline, loose enough not to cut between neighbouring buildings.
    public static let defaultConcaveRatio = 0.3
}
