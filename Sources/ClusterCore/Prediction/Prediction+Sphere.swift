// Prediction and soft clustering for a fit on the sphere: the same rules as the planar model's,
// with great-circle distances: sites indexed in 3-D chord space by a `SphereTree` (the chord
// orders points as the angle does), every distance that reaches an answer measured by the
// haversine formula, as the fit measures its own (SpherePoints.swift).
//
// The model holds angles (radians) and their inverses, not the fit's metres: the hdbscan library
// fitted with metric="haversine" works in radians, and its soft clustering adds constants
// (1e-8) to lambdas, so its memberships depend on the unit; in radians they are its numbers.
// Labels, probabilities and outlier scores do not depend on the unit.

/// The index over a model's sites: planar, or on the sphere.
enum SiteIndex: Sendable {
    case plane(KDTree)
    case sphere(SphereSites)

    /// The site at each index position.
    var order: [Int32] {
        switch self {
        case let .plane(tree): tree.index
        case let .sphere(sphere): sphere.tree.index
        }
    }
}

/// The sites of a model fitted on the sphere (longitude x, latitude y, degrees): the 3-D tree
/// over their unit vectors, and their radians by tree position.
struct SphereSites: Sendable {
    let tree: SphereTree
    let angles: SphereAngles
    /// By tree position, the cosine of the site's latitude, which every haversine measurement
    /// of a query against it takes.
    let cosLatitudes: [Double]

    /// The index of `sites` (longitude, latitude in degrees), with the fit's leaf size.
    /// - Throws: `.invalidParameter` for a latitude beyond the poles.
    init(_ sites: PointSet, threads: Int) throws(ClusterCoreError) {
        let points = try SpherePoints(longitudes: sites.xs, latitudes: sites.ys)
        let tree = SphereTree(points, leafSize: SphereTree.hdbscanLeafSize, threads: threads)
        self.init(tree: tree, angles: SphereAngles(points, order: tree.index))
    }

    init(tree: SphereTree, angles: SphereAngles) {
        self.tree = tree
        self.angles = angles
        cosLatitudes = (0..<tree.count).map { ElementaryMath.cos(angles[$0].lat) }
    }

    /// The k nearest sites of the point at (longitude, latitude) into `buffer`: tree positions
    /// and squared angles (radians), ascending (equal distances by position). The k are
    /// the nearest by chord, each then measured by the haversine formula.
    func nearest(longitude: Double, latitude: Double, into buffer: inout KNNBuffer) {
        let k = buffer.k, d = Double.pi / 180
        let phi = ElementaryMath.sinCos(latitude * d), lambda = ElementaryMath.sinCos(longitude * d)
        let q = (phi.cos * lambda.cos, phi.cos * lambda.sin, phi.sin)
        let point = SphereAngles.Point(degrees: (longitude, latitude)), cosLatitude = ElementaryMath.cos(point.lat)
        var found = 0
        buffer.squaredDistances.withUnsafeMutableBufferPointer { dist in
        buffer.positions.withUnsafeMutableBufferPointer { pos in
        buffer.stack.withUnsafeMutableBufferPointer { stack in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: SphereKNNList.scratchSize) { scratch in
                tree.withView { v in
                    var list = SphereKNNList(dist: dist.baseAddress!, pos: pos.baseAddress!, k: k,
                                             scratch: scratch.baseAddress!)
                    v.searchSubtree(0, q, &list, stack.baseAddress!)
                    found = list.found
                }
            }
            for i in 0..<found {
                let p = Int(pos[i])
                let angle = SpherePoints.angle(point, angles[p], cosines: (cosLatitude, cosLatitudes[p]))
                dist[i] = angle * angle
                var j = i
                while j > 0 && (dist[j - 1] > dist[j] || (dist[j - 1] == dist[j] && pos[j - 1] > pos[j])) {
                    dist.swapAt(j - 1, j); pos.swapAt(j - 1, j); j -= 1
                }
            }
        }}}
        buffer.found = found
    }

    /// By tree position, the squared angle (radians) to the m-th nearest fitted point (its own
    /// included), sites weighing their points (`weightAt`, by tree position).
    func core2(m: Int, weightAt: [Int32], threads: Int) -> [Double] {
        let points = weightAt.reduce(0) { $0 + Int($1) }
        guard points > 0 else { return [] }
        let weighted = weightAt.contains { $0 != 1 }
        let found = tree.nearestNeighbours(min(m, points), extra: 0, weights: weighted ? weightAt : nil, threads: threads)
        return [Double].filled(count: tree.count, threads: threads) { p in
            let angle = SpherePoints.angle(angles[p], angles[Int(found.neighbour[p])])
            return angle * angle
        }
    }
}

/// What a fit on the sphere hands the prediction model: its index over the sites (the fit's
/// locations) and each tree position's squared core angle (k = m, weighted).
struct SphereModelStart {
    let indexed: SphereLocations
    let angles: SphereAngles
    let core2: [Double]

    /// The model of the fit `result` of `points`.
    func model(_ points: SpherePoints, result: HDBSCANResult,
               parameters: HDBSCANParameters) throws(ClusterCoreError) -> PredictionModel {
        let sites = Sites(indexed.locations, points: try PointSet(xs: points.longitudes, ys: points.latitudes))
        return try PredictionModel(sites: sites, index: .sphere(SphereSites(tree: indexed.tree, angles: angles)),
                                   core2ByPosition: core2, result: result, parameters: parameters,
                                   lambdaScale: SpherePoints.earthRadius)
    }
}

extension SphereCore {
    /// Each tree position's squared angle to its m-th nearest point (weighted), read off the
    /// fit's neighbour lists (nearest first, by chord); nil when a list does not reach it.
    func siteCore2(lists: [Int32], m: Int, weights: [Int32]?, angles: SphereAngles) -> [Double]? {
        let length = listLength, count = chord2.count
        guard length > 0, lists.count == count * length else { return nil }
        var core2 = [Double](repeating: 0, count: count)
        for p in 0..<count {
            var counted = 0, reached = false
            for j in 0..<length {
                let q = Int(lists[p * length + j])
                counted += weights.map { Int($0[q]) } ?? 1
                if counted >= m {
                    let angle = SpherePoints.angle(angles[p], angles[q])
                    core2[p] = angle * angle
                    reached = true
                    break
                }
            }
            if !reached { return nil }
        }
        return core2
    }
}

extension SphereAngles.Point {
    /// The point at (longitude, latitude) in degrees.
    init(degrees: (longitude: Double, latitude: Double)) {
        let d = Double.pi / 180
        self.init(lat: degrees.latitude * d, lon: degrees.longitude * d)
    }
}

extension KNNBuffer {
    /// Scratch for queries of `k` neighbours on a tree of `nodeCount` nodes in heap order.
    init(k: Int, nodeCount: Int) {
        precondition(k >= 1, "KNNBuffer needs k >= 1")
        self.k = k
        squaredDistances = [Double](repeating: .infinity, count: k)
        positions = [Int32](repeating: -1, count: k)
        stack = [Int32](repeating: 0, count: 2 * (KDTree.depth(ofNodeCount: nodeCount) + 2))
        boxes = [Double](repeating: 0, count: stack.count)
    }
}

extension PredictionModel {
    /// The model of a fit on the sphere.
    /// - Parameters:
    ///   - points: the points `result` was fitted on, in the same rows.
    ///   - result: the fit (`HDBSCAN.fit` of `points`); it must hold its condensed tree.
    ///   - parameters: the fit's parameters.
    ///   - threads: workers for the index and the core distances; the model is the same for any.
    /// - Throws: `.invalidParameter` when the result has no condensed tree or another number
    ///   of points.
    public init(points: SpherePoints, result: HDBSCANResult, parameters: HDBSCANParameters,
                threads: Int = 1) throws(ClusterCoreError) {
        let locations = SphereLocations.group(points, threads: threads).1
        let sites = Sites(locations, points: try PointSet(xs: points.longitudes, ys: points.latitudes))
        let index = try SphereSites(sites.points, threads: threads)
        let core2 = index.core2(m: Self.neighbourNumber(parameters),
                                weightAt: index.tree.index.map { sites.weight[Int($0)] }, threads: threads)
        // The fit's lambdas are inverse metres; the model's inverse radians.
        try self.init(sites: sites, index: .sphere(index), core2ByPosition: core2, result: result, parameters: parameters,
                      lambdaScale: SpherePoints.earthRadius)
    }

    /// The angle (radians) from `point` to the nearest of `exemplars` (the largest double
    /// when there are none): the haversine of the least sin²(θ/2), the angle rising with it.
    static func nearestAngle(_ exemplars: UnsafeBufferPointer<SphereAngles.Point>, to point: SphereAngles.Point) -> Double {
        var least = Double.infinity
        for e in exemplars { least = min(least, SpherePoints.halfChord2(point, e)) }
        return least == .infinity ? Double.greatestFiniteMagnitude
            : 2 * ElementaryMath.asin(min(1, least.squareRoot()))
    }
}

/// `ExemplarDistances` on the sphere: groups of the sites' 3-D tree; a label's candidates for a
/// group are its exemplars whose chord to the group's box is within the smallest farthest-corner
/// chord of any of them (with a margin far above the rounding of unit vectors and of the
/// haversine formula), each then measured by the haversine formula.
struct SphereExemplarDistances: ExemplarDistances {
    let sites: SphereSites
    let context: SoftContext
    /// By label, its exemplars' unit vectors.
    let vectors: [(x: [Double], y: [Double], z: [Double])]

    init(sites: SphereSites, context: SoftContext) {
        self.sites = sites
        self.context = context
        vectors = zip(context.exemplarXs, context.exemplarYs).map { xs, ys in
            (try? SpherePoints(longitudes: xs, latitudes: ys))?.unitVectors(threads: 1) ?? ([], [], [])
        }
    }

    var groups: [Int] { KDTree.groups(start: sites.tree.start, end: sites.tree.end, ofAtMost: 64) }

    func forEachGroup(threads: Int, _ body: (_ positions: Range<Int>, _ candidates: Candidates) -> Void) {
        let groups = groups
        Parallel.forEachChunk(count: groups.count, grain: 1, threads: threads) { chunk, _ in
            for g in chunk {
                body(Int(sites.tree.start[groups[g]])..<Int(sites.tree.end[groups[g]]), candidates(groups[g]))
            }
        }
    }

    /// Label j's candidates at `points[labelStart[j] ..< labelStart[j + 1]]`.
    typealias Candidates = (labelStart: [Int], points: [SphereAngles.Point])

    func candidates(_ node: Int) -> Candidates {
        let b = Array(sites.tree.box[(6 * node)..<(6 * node + 6)])
        var labelStart = [0], points: [SphereAngles.Point] = []
        for j in vectors.indices {
            let (xs, ys, zs) = vectors[j]
            var upper = Double.infinity
            for k in xs.indices {
                let dx = max(xs[k] - b[0], b[1] - xs[k]), dy = max(ys[k] - b[2], b[3] - ys[k])
                let dz = max(zs[k] - b[4], b[5] - zs[k])
                upper = min(upper, dx * dx + dy * dy + dz * dz)
            }
            let reach = upper.squareRoot() * (1 + 1e-9) + 1e-12, limit = reach * reach
            for k in xs.indices {
                let dx = max(0, b[0] - xs[k], xs[k] - b[1]), dy = max(0, b[2] - ys[k], ys[k] - b[3])
                let dz = max(0, b[4] - zs[k], zs[k] - b[5])
                if dx * dx + dy * dy + dz * dz <= limit { points.append(context.exemplarAngles[j][k]) }
            }
            labelStart.append(points.count)
        }
        return (labelStart, points)
    }

    func distances(site i: Int, _ near: (labelStart: [Int], points: [SphereAngles.Point]),
                   into out: UnsafeMutablePointer<Double>) {
        let point = SphereAngles.Point(degrees: (context.model.sites.points.xs[i], context.model.sites.points.ys[i]))
        near.points.withUnsafeBufferPointer { all in
            for j in 0..<(near.labelStart.count - 1) {
                let slice = UnsafeBufferPointer(rebasing: all[near.labelStart[j]..<near.labelStart[j + 1]])
                out[j] = PredictionModel.nearestAngle(slice, to: point)
            }
        }
    }
}
