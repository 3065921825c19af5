/// The outline of one cluster: its hull in the plane it was computed in and in
/// longitude/latitude, with the measures `hulls` reports and the map draws.
public struct ClusterHull {
    /// The cluster's label (never -1: noise has no hull).
    public let label: Int32
    /// Points in the cluster.
    public let points: Int
    /// Points the hull outlines: all of them, or those that pass `outlining` (for example the
    /// points that belong to the cluster with a probability of at least P).
    public let outlinedPoints: Int
    /// The CRS the hull was computed in: a PROJ definition of the azimuthal equidistant
    /// projection centred on the cluster, or the CRS the caller chose.
    public let crs: String
    /// The hull in `crs` (metres): a Polygon (or MultiPolygon if a concave hull splits), or a
    /// Point / LineString for coincident or collinear points.
    public let projected: Geometry
    /// The hull in longitude/latitude (degrees, x = longitude) as RFC 7946 §3.1.9 wants it:
    /// every longitude in [-180, 180], and a hull that crosses ±180° cut there into a
    /// MultiPolygon (MultiLineString) whose parts meet at ±180° exactly.
    public let geographic: Geometry
    /// The hull in longitude/latitude, uncut: longitudes continuous along every ring, so a
    /// hull across ±180° runs past it (e.g. 178…182) and one around a pole spans a whole
    /// turn, closed over the pole. For drawing a shape whole; ``geographic`` for files.
    public let continuous: Geometry
    /// Geodesic area of the hull on the WGS 84 ellipsoid (``Geodesic/area(of:)`` of
    /// ``continuous``), m², whatever CRS it was computed in; 0 for a Point or LineString.
    public let area: Double
    /// The hull's area centroid (for a Point or LineString its centre), degrees.
    public let centroidLongitude: Double
    public let centroidLatitude: Double
    /// The hull's bounding box, degrees, in RFC 7946 §5.2's sense: `west > east` when the
    /// hull crosses ±180°; -180…180 when it surrounds a pole.
    public let west: Double, south: Double, east: Double, north: Double

    /// Whether the hull crosses the antimeridian (``geographic`` is then cut there).
    public var crossesAntimeridian: Bool { west > east }

    /// The hull's rings in longitude/latitude (x = longitude, y = latitude, degrees), for
    /// drawing: every ring of every polygon of ``geographic`` (exteriors and holes, each
    /// closed, first vertex repeated at the end; the parts of a hull cut at ±180° as separate
    /// rings); for a LineString its vertices (open), for a MultiLineString each part; for a
    /// Point nothing. ``continuousRings()`` gives the same outline uncut.
    /// - Complexity: O(vertices).
    public func rings() throws(GeoError) -> [Coordinates] { try Self.rings(of: geographic) }

    /// The rings of ``continuous``, as ``rings()`` gives those of ``geographic``: one ring per
    /// polygon ring, its longitudes continuous (beyond ±180° for a hull across it).
    /// - Complexity: O(vertices).
    public func continuousRings() throws(GeoError) -> [Coordinates] { try Self.rings(of: continuous) }

    private static func rings(of geometry: Geometry) throws(GeoError) -> [Coordinates] {
        switch geometry.type {
        case .polygon, .multiPolygon: return try geometry.polygons().flatMap { $0 }
        case .lineString, .multiLineString: return try geometry.lines()
        default: return []
        }
    }
}

extension GeometryContext {
    /// One hull per cluster of labelled longitude/latitude points, in ascending label order,
    /// each computed in a plane local to its cluster: with `target` `.auto`, the data's UTM
    /// zone when it keeps distances within 1 % over the whole data (as `cluster --metric
    /// auto` decides), else the azimuthal equidistant projection centred at each cluster's
    /// spherical centroid (``Projection/sphericalCentre(longitudes:latitudes:indices:)``), so a
    /// cluster across ±180° or near a pole is outlined as truly as one anywhere else; with a
    /// named CRS, that CRS for every cluster. The hulls are then unprojected, cut at ±180° where they cross it
    /// (``ClusterHull/geographic``) and measured on the ellipsoid.
    /// - Parameters:
    ///   - longitudes: degrees.
    ///   - latitudes: degrees; same count as `longitudes`.
    ///   - labels: one per point; negative labels are noise and get no hull.
    ///   - ratio: concave hull ratio in [0, 1]; 1 gives the convex hull. `hulls` and `map`
    ///     default to ``defaultConcaveRatio``.
    ///   - target: `.auto` (the data's zone, or a local projection per cluster) or the CRS to
    ///     compute every hull in.
    ///   - outlining: which points each hull outlines (nil: all); a cluster keeps its full
    ///     `points` count, and one with no point outlined gets no hull.
    ///   - localPlanesEverywhere: with `.auto`, a plane per cluster even for local data
    ///     (`hulls --metric geodesic`).
    /// - Returns: the hulls, and the CRS they were computed in for messages: the named CRS,
    ///   or a description of the local projections.
    /// - Throws: `.countMismatch` when the arrays differ in length, `.invalidParameter` for a
    ///   ratio outside [0, 1]; the errors of the projections, the hulls and the transforms.
    /// - Complexity: O(n) to group and project the points plus O(m log m) per cluster of m
    ///   points (the hull's Delaunay triangulation).
    public func clusterHulls(
        longitudes: [Double], latitudes: [Double], labels: [Int32], ratio: Double, crs target: Projection.Target,
        outlining: [Bool]? = nil, localPlanesEverywhere: Bool = false, only: Set<Int32>? = nil, threads: Int = 1
    ) throws(GeoError) -> (hulls: [ClusterHull], crs: String) {
        try Validation.lonLat(longitudes, latitudes)
        guard labels.count == longitudes.count else {
            throw .countMismatch(first: "longitudes", firstCount: longitudes.count, second: "labels", secondCount: labels.count)
        }
        guard ratio >= 0, ratio <= 1 else { throw .invalidParameter(name: "concave hull ratio", value: ratio, expected: "in [0, 1]") }
        let groups = Self.clusterMembers(labels: labels, outlining: outlining, only: only)
        switch target {
        case .auto:
            // Local data (its UTM zone within 1 % over all of it, the rule of `cluster
            // --metric auto`) is drawn in that zone, one projection for all; elsewhere each
            // cluster gets a plane of its own.
            if !localPlanesEverywhere,
               let zone = try? Projection(target: .auto, fittingLongitudes: longitudes, latitudes: latitudes),
               let worst = try? zone.worstScale(fittingLongitudes: longitudes, latitudes: latitudes,
                                                stoppingBeyond: GroundScale.tolerance),
               worst.isGround {
                return try clusterHulls(longitudes: longitudes, latitudes: latitudes, labels: labels, ratio: ratio,
                                        crs: .crs(zone.crs), outlining: outlining, only: only, threads: threads)
            }
            let hulls = try perCluster(groups, threads: threads, plane: { _ in () }) { context, _, group throws(GeoError) in
                let (label, count, idx) = group
                let centre = Projection.sphericalCentre(longitudes: longitudes, latitudes: latitudes, indices: idx)
                let plane = AzimuthalPlane(latitude: centre.latitude, longitude: centre.longitude)
                let (hx, hy) = plane.forward(longitudes: idx.map { longitudes[$0] }, latitudes: idx.map { latitudes[$0] })
                return try context.clusterHull(label: label, points: count, x: hx, y: hy, ratio: ratio, plane: plane, centre: centre)
            }
            return (hulls, Self.localProjectionsDescription)
        case .crs:
            let projection = try Projection(target: target, fittingLongitudes: longitudes, latitudes: latitudes)
            let (x, y) = try projection.forward(lon: longitudes, lat: latitudes)
            // A PROJ object serves one thread at a time: the other workers make their own.
            let hulls = try perCluster(groups, threads: threads, plane: { worker throws(GeoError) in
                worker == 0 ? projection : try Projection(crs: projection.crs)
            }) { context, plane, group throws(GeoError) in
                let (label, count, idx) = group
                let centre = Projection.sphericalCentre(longitudes: longitudes, latitudes: latitudes, indices: idx)
                return try context.clusterHull(label: label, points: count, x: idx.map { x[$0] }, y: idx.map { y[$0] },
                                               ratio: ratio, plane: plane, centre: centre)
            }
            return (hulls, projection.crs)
        }
    }

    /// One cluster's points: its label, its full size and the indices of its outlined points.
    typealias Members = (label: Int32, count: Int, indices: [Int])

    /// `hull` for every group, on up to `threads` workers, each with a GEOS context of its own
    /// (worker 0 this one) and the `plane` made for it; the hulls in the groups' order, and the
    /// error of the first group (in that order) that failed, so any thread count gives the same.
    private func perCluster<Plane>(
        _ groups: [Members], threads: Int, plane: (_ worker: Int) throws(GeoError) -> Plane,
        _ hull: (GeometryContext, Plane, Members) throws(GeoError) -> ClusterHull
    ) throws(GeoError) -> [ClusterHull] {
        let workers = max(1, min(threads, groups.count))
        var results = [Result<ClusterHull, GeoError>?](repeating: nil, count: groups.count)
        results.withUnsafeMutableBufferPointer { slots in
            WorkerPool.run(workers: workers, items: groups.count) { worker, next in
                let tools: Result<(GeometryContext, Plane), GeoError> = Result { () throws(GeoError) in
                    (worker == 0 ? self : try GeometryContext(), try plane(worker))
                }
                while let i = next() {
                    slots[i] = tools.flatMap { (context, plane) in Result { () throws(GeoError) in try hull(context, plane, groups[i]) } }
                }
            }
        }
        return try results.map { result throws(GeoError) in try result!.get() }
    }

    /// How `hulls` and `map` name the planes of `--crs auto` in their messages.
    public static let localProjectionsDescription = "a local azimuthal equidistant projection per cluster"

    /// The hull of one cluster's points (`x`, `y` in `projection`'s metres), unprojected,
    /// made continuous around the cluster's `centre` and cut at ±180°.
    func clusterHull(label: Int32, points: Int, x: [Double], y: [Double], ratio: Double, plane: some HullPlane,
                     centre: (longitude: Double, latitude: Double)) throws(GeoError) -> ClusterHull {
        let hull = try (ratio >= 1 ? try convexHull(x: x, y: y) : try concaveHull(x: x, y: y, ratio: ratio)).madeValid()
        let planarCentre = try hull.centroid ?? (x: x[0], y: y[0])
        let (lon, lat) = try plane.inverse(x: planarCentre.x, y: planarCentre.y)
        let unprojected = try plane.inverse(hull)
        let pole = centre.latitude >= 0 ? 90.0 : -90.0
        var continuous: Geometry, geographic: Geometry
        switch unprojected.type {
        case .polygon, .multiPolygon:
            let given = try unprojected.polygons()
            let parts = try given.map { rings throws(GeoError) in
                try Antimeridian.continuous(rings, around: centre.longitude, pole: pole)
                    .map { ring throws(GeoError) in try Antimeridian.withCrossings(ring) }
            }
            // Unprojected vertex by vertex, edges that nearly touch in the plane can cross, and
            // vertices that fall together (towns at one position) pinch a ring: GEOS repairs
            // both before the outline is cut at ±180°.
            let whole = try (parts.count == 1 ? polygon(exterior: parts[0][0], holes: Array(parts[0].dropFirst()))
                             : multiPolygon(parts)).madeValid()
            let repaired = whole.type == .polygon || whole.type == .multiPolygon ? try whole.polygons() : nil
            if parts == given && repaired == given {
                // Already continuous, valid and within ±180°: nothing to cut.
                (continuous, geographic) = (unprojected, unprojected)
            } else if let repaired {
                (continuous, geographic) = (whole, try splitAtAntimeridian(polygons: repaired))
            } else {
                (continuous, geographic) = (whole, whole)
            }
        case .lineString:
            let line = try Antimeridian.withCrossings(Antimeridian.unwrapped(try unprojected.vertices(), around: centre.longitude))
            continuous = try lineString(x: line.x, y: line.y)
            geographic = try splitAtAntimeridian(line: line)
        default:
            (continuous, geographic) = (unprojected, unprojected)
        }
        geographic = try geographic.validAsWritten(decimals: Geometry.writtenDecimals)
        // The box and the area of the outline as written (rounding is monotonic, so the rounded
        // box holds the rounded vertices).
        let all = try continuous.rounded(toDecimals: Geometry.writtenDecimals).vertices()
        let (west, east) = Antimeridian.lonBounds(lo: all.x.min() ?? lon, hi: all.x.max() ?? lon)
        return ClusterHull(label: label, points: points, outlinedPoints: x.count, crs: plane.crs, projected: hull,
                           geographic: geographic, continuous: continuous, area: try Geodesic.area(of: geographic),
                           centroidLongitude: lon, centroidLatitude: lat,
                           west: west, south: all.y.min() ?? lat, east: east, north: all.y.max() ?? lat)
    }

    /// The indices of each cluster's outlined points, in ascending label order, with the
    /// cluster's full size; clusters with no point outlined are left out. The indices keep
    /// the input order, so the same input always builds the same GEOS geometry.
    /// - Complexity: O(n) plus O(k log k) for k clusters.
    static func clusterMembers(labels: [Int32], outlining: [Bool]?, only: Set<Int32>? = nil) -> [Members] {
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
        for (i, l) in labels.enumerated() where l >= 0 && outlining?[i] ?? true && only?.contains(l) ?? true {
            members[slot[l]!].append(i)
        }
        return slot.sorted { $0.key < $1.key }.compactMap { label, s in
            members[s].isEmpty ? nil : (label, counts[s], members[s])
        }
    }

    /// The concave hull ratio `hulls` and `map` use unless told otherwise: close enough to
    /// follow a district's outline, loose enough not to cut between neighbouring buildings.
    public static let defaultConcaveRatio = 0.3
}

extension GeometryContext {
    /// Each cluster's outline in longitude/latitude (what a map draws): GEOS hulls
    /// (`GeometryContext.clusterHulls`; concave with `ratio`, convex at 1) computed in `crs`
    /// (`.auto`: a local azimuthal equidistant projection per cluster, so shapes are true on
    /// the ground anywhere; hulls across ±180° come as their parts, cut there), with the CRS used;
    /// with `outlining`, each hull goes around the points marked true only.
    public func clusterOutlines(longitudes: [Double], latitudes: [Double], labels: [Int32], ratio: Double,
                                crs: Projection.Target = .auto, outlining: [Bool]? = nil, only: Set<Int32>? = nil,
                                threads: Int = 1) throws(GeoError) -> (outlines: [Int32: [Coordinates]], crs: String) {
        let (hulls, used) = try clusterHulls(longitudes: longitudes, latitudes: latitudes,
                                                               labels: labels, ratio: ratio, crs: crs, outlining: outlining,
                                                               only: only, threads: threads)
        var out: [Int32: [Coordinates]] = [:]
        for h in hulls { out[h.label] = try h.rings() }
        return (out, used)
    }
}
