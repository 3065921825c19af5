// Approximate prediction from a fitted HDBSCAN, with the hdbscan library's semantics
// (`approximate_predict`, `approximate_predict_scores`): a new point is not refitted; it joins
// the fitted point nearest to it by mutual reachability among its 2·minSamples nearest, at
// that distance's lambda, and takes the cluster the condensed tree holds there.
//
// Glossary (see HDBSCAN.swift for the rest)
// - m: the model's minSamples, the hdbscan library's min_samples of the same fit (the fit's
//   neighbour count less the point itself; at least 1): a fitted point's core distance here is
//   the distance to its m-th nearest fitted point, itself included (hdbscan's prediction data
//   counts it so, one short of its fit), and a new point's the distance to its (m+1)-th
//   nearest fitted point.
// - group maximum lambda: the largest lambda among a cluster's own rows (points leaving it and
//   child clusters born from it); hdbscan's `leaf_max_lambdas`.
// - site: a distinct fitted location, standing for every fitted point at those coordinates
//   (all of them fall out of the tree together and have one core distance): the model indexes
//   and stores sites, as the fit does, and answers for points.

/// One new point's answer from `PredictionModel.predict`.
public struct Prediction: Sendable, Equatable, BitwiseCopyable {
    /// The cluster label the point joins (a fitted label), or -1 for noise.
    public var label: Int32
    /// Its membership probability in that cluster (0 for noise).
    public var probability: Double
    /// Its GLOSH outlier score against the fitted tree (hdbscan's `approximate_predict_scores`).
    public var outlierScore: Double
    /// The fitted row it joins (hdbscan's connecting point).
    public var connectingRow: Int32
}

/// What prediction and soft clustering need from a fitted HDBSCAN (hdbscan's `prediction_data_`):
/// the fitted sites and their index, each site's core distance and where it falls out of the
/// condensed tree, the cluster tree and the selected clusters' exemplars.
public struct PredictionModel: Sendable {
    /// The neighbour number m of the rules: the hdbscan library's `min_samples` of the fit.
    public let minSamples: Int
    /// The sites (see the file's header), and the index over them.
    let sites: Sites
    let index: SiteIndex
    /// By site: distance to the m-th nearest fitted point, its own included.
    let core: [Double]
    /// By site: the cluster index (`id - pointCount`) its points fall out of, and the lambda.
    let fallCluster: [Int32]
    let fallLambda: [Double]
    /// By cluster index: parent index (-1 for the root), lambda at birth, depth (root 0).
    let parent: [Int32]
    let birth: [Double]
    let depth: [Int32]
    /// By cluster index: the group maximum lambda, and the largest anywhere in its subtree.
    let groupMaxLambda: [Double]
    let subtreeMaxLambda: [Double]
    /// By cluster index: the label of the selected cluster at or above it, -1 if none.
    let labelOfCluster: [Int32]
    /// By label: its selected cluster's index.
    let selected: [Int32]
    /// By label: the sites of its exemplars.
    let exemplarSites: [[Int32]]

    /// The number of fitted clusters (labels 0 ..< clusterCount).
    public var clusterCount: Int { selected.count }
    /// The number of fitted points.
    public var pointCount: Int { sites.siteOfRow.count }

    /// By label, the fitted rows of its exemplars (hdbscan's `exemplars_`: in each leaf
    /// cluster under it, the points that fall out at the leaf's largest lambda), ascending.
    public var exemplarRows: [[Int32]] {
        var labelOfSite = [Int32](repeating: -1, count: sites.weight.count)
        for (label, list) in exemplarSites.enumerated() { for site in list { labelOfSite[Int(site)] = Int32(label) } }
        var rows = [[Int32]](repeating: [], count: clusterCount)
        for (row, site) in sites.siteOfRow.enumerated() where labelOfSite[Int(site)] >= 0 {
            rows[Int(labelOfSite[Int(site)])].append(Int32(row))
        }
        return rows
    }

    /// The model of a fit.
    /// - Parameters:
    ///   - points: the points `result` was fitted on, in the same rows.
    ///   - result: the fit; it must hold its condensed tree (`HDBSCANOutputs.condensedTree` or
    ///     `.clusterTree`).
    ///   - parameters: the fit's parameters.
    ///   - threads: workers for the index and the core distances; the model is the same for any.
    /// - Throws: `.invalidParameter` when the result has no condensed tree or another number
    ///   of points.
    /// - Complexity: O(n log n): an index and a k-NN pass over the fitted sites (the fit's
    ///   `HDBSCANOutputs.prediction` reuses its own).
    public init(points: PointSet, result: HDBSCANResult, parameters: HDBSCANParameters,
                threads: Int = 1) throws(ClusterCoreError) {
        let sites = Sites(Locations.group(points, threads: threads), points: points)
        let tree = KDTree(points: sites.points, threads: threads)
        let m = Self.neighbourNumber(parameters)
        let byPosition = try CoreDistances.computeWithNeighbours(
            tree: tree, minSamples: min(m, points.count), convention: .sklearn, threads: threads, keepNeighbours: false,
            extra: 0, weights: tree.index.map { sites.weight[Int($0)] }).core2
        try self.init(sites: sites, index: .plane(tree), core2ByPosition: byPosition, result: result,
                      parameters: parameters)
    }

    /// The model of a fit over `index` (the index of `sites.points`), given each index
    /// position's squared core distance (k = m, weighted), in the model's unit: the fit's
    /// lambdas times `lambdaScale`.
    init(sites: Sites, index: SiteIndex, core2ByPosition: [Double], result: HDBSCANResult,
         parameters: HDBSCANParameters, lambdaScale: Double = 1) throws(ClusterCoreError) {
        guard let condensed = result.condensedTree else {
            throw .invalidParameter(name: "result", value: "a fit without its condensed tree",
                                    requirement: "must keep .condensedTree or .clusterTree")
        }
        guard condensed.pointCount == sites.siteOfRow.count else {
            throw .invalidParameter(name: "points", value: "\(sites.siteOfRow.count) points",
                                    requirement: "must be the \(condensed.pointCount) points of the fit")
        }
        let order = index.order
        var core = [Double](repeating: 0, count: order.count)
        for p in order.indices { core[Int(order[p])] = core2ByPosition[p].squareRoot() }
        let (cluster, lambda) = condensed.fallingOut()
        let n = Int32(condensed.pointCount), first = sites.firstRow
        let parts = Parts(
            minSamples: Self.neighbourNumber(parameters), sites: sites, core: core,
            fallCluster: first.map { cluster[Int($0)] - n }, fallLambda: first.map { lambda[Int($0)] * lambdaScale },
            parent: condensed.clusterParent.map { $0 < 0 ? -1 : $0 - n }, birth: condensed.clusterBirth.map { $0 * lambdaScale },
            selected: result.selectedClusters.map { $0 - n })
        self.init(parts, index: index)
    }

    /// Each tree position's squared distance to its m-th nearest fitted point (its own
    /// included), read off the fit's neighbour lists where they reach that far (they hold the
    /// fit's neighbour count, m + 1 points or more), else computed.
    static func siteCore2(_ indexed: IndexedLocations, _ nearest: NearestNeighbours, m: Int,
                          threads: Int) throws(ClusterCoreError) -> [Double] {
        let tree = indexed.tree, length = nearest.listLength, lists = nearest.lists
        let weights = indexed.weightAt
        if lists.count == tree.count * length && length > 0 {
            var core2 = [Double](repeating: -1, count: tree.count)
            for p in 0..<tree.count {
                var counted = 0
                for j in 0..<length {
                    let q = Int(lists[p * length + j])
                    counted += weights.map { Int($0[q]) } ?? 1
                    if counted >= m {
                        let dx = tree.xs[q] - tree.xs[p], dy = tree.ys[q] - tree.ys[p]
                        core2[p] = dx * dx + dy * dy
                        break
                    }
                }
            }
            if !core2.contains(-1) { return core2 }
        }
        let pointCount = weights.map { $0.reduce(0) { $0 + Int($1) } } ?? tree.count
        return try CoreDistances.computeWithNeighbours(
            tree: tree, minSamples: min(m, pointCount), convention: .sklearn, threads: threads, keepNeighbours: false,
            extra: 0, weights: weights).core2
    }

    /// m: the fit's neighbour count less the point itself, at least 1.
    static func neighbourNumber(_ parameters: HDBSCANParameters) -> Int {
        max(1, parameters.neighbourCount - 1)
    }

    /// What a model is made of; the rest is derived from it (`init(_:index:)`).
    struct Parts {
        var minSamples: Int
        var sites: Sites
        var core: [Double]
        var fallCluster: [Int32]
        var fallLambda: [Double]
        /// By cluster index: parent index (-1 for the root), lambda at birth.
        var parent: [Int32]
        var birth: [Double]
        /// By label: the selected cluster's index.
        var selected: [Int32]
    }

    /// The model of `parts`, over `index` (the index of `parts.sites.points`).
    init(_ parts: Parts, index: SiteIndex) {
        minSamples = parts.minSamples
        sites = parts.sites
        self.index = index
        core = parts.core
        (fallCluster, fallLambda) = (parts.fallCluster, parts.fallLambda)
        let shape = ClusterShape(parent: parts.parent, birth: parts.birth, fallCluster: fallCluster, fallLambda: fallLambda)
        (parent, birth, depth) = (shape.parent, shape.birth, shape.depth)
        (groupMaxLambda, subtreeMaxLambda) = (shape.groupMax, shape.subtreeMax)
        selected = parts.selected
        labelOfCluster = shape.labels(selected: selected)
        exemplarSites = shape.exemplars(selected: selected, fallCluster: fallCluster, fallLambda: fallLambda)
    }

    /// The parts this model was made of.
    var parts: Parts {
        Parts(minSamples: minSamples, sites: sites, core: core, fallCluster: fallCluster, fallLambda: fallLambda,
              parent: parent, birth: birth, selected: selected)
    }
}

/// The distinct locations of the fitted points (each point its own when none share
/// coordinates): their coordinates, and which site each row is at.
struct Sites {
    let points: PointSet
    let siteOfRow: [Int32]
    /// By site: its number of points, and its smallest row.
    let weight: [Int32]
    let firstRow: [Int32]

    /// The sites of a fit's grouping (nil: every point a site of its own).
    init(_ locations: Locations?, points: PointSet) {
        guard let locations else {
            self.init(points: points, siteOfRow: (0..<Int32(points.count)).map { $0 })
            return
        }
        var siteOfRow = [Int32](repeating: 0, count: points.count)
        for l in 0..<locations.count {
            for k in Int(locations.start[l])..<Int(locations.start[l + 1]) { siteOfRow[Int(locations.rows[k])] = Int32(l) }
        }
        self.init(points: locations.points, siteOfRow: siteOfRow)
    }

    /// The rows of each site: site s's at `rows[start[s] ..< start[s + 1]]`, ascending.
    func rowsBySite() -> (start: [Int32], rows: [Int32]) {
        var start = [Int32](repeating: 0, count: weight.count + 1)
        for s in weight.indices { start[s + 1] = start[s] + weight[s] }
        var next = start, rows = [Int32](repeating: 0, count: siteOfRow.count)
        for (row, site) in siteOfRow.enumerated() {
            rows[Int(next[Int(site)])] = Int32(row)
            next[Int(site)] += 1
        }
        return (start, rows)
    }

    /// Sites with these coordinates, and the site of each row (every site holding a row).
    init(points: PointSet, siteOfRow: [Int32]) {
        self.points = points
        self.siteOfRow = siteOfRow
        var weight = [Int32](repeating: 0, count: points.count), firstRow = [Int32](repeating: -1, count: points.count)
        for (row, site) in siteOfRow.enumerated().reversed() {
            weight[Int(site)] += 1
            firstRow[Int(site)] = Int32(row)
        }
        self.weight = weight
        self.firstRow = firstRow
    }
}

extension PredictionModel {
    /// Predicts every point of `newPoints` (hdbscan's `approximate_predict` and
    /// `approximate_predict_scores`, and its connecting points).
    /// - Parameters:
    ///   - newPoints: the points, in the fit's coordinates (a model of a fit on the sphere
    ///     takes `SpherePoints`).
    ///   - threads: workers for the queries; the answers are the same for any value.
    /// - Complexity: O(q (log n + m + depth)) for q new points.
    public func predict(_ newPoints: PointSet, threads: Int = 1) -> [Prediction] {
        precondition(!isOnSphere, "a model fitted on the sphere predicts SpherePoints")
        return predict(xs: newPoints.xs, ys: newPoints.ys, threads: threads)
    }

    /// Predicts every point of `newPoints` on a model fitted on the sphere (distances in
    /// metres along great circles, as the fit's).
    /// - Parameters:
    ///   - newPoints: the points.
    ///   - threads: workers for the queries; the answers are the same for any value.
    public func predict(_ newPoints: SpherePoints, threads: Int = 1) -> [Prediction] {
        precondition(isOnSphere, "a model of a planar fit predicts a PointSet")
        return predict(xs: newPoints.longitudes, ys: newPoints.latitudes, threads: threads)
    }

    /// Whether the model is of a fit on the sphere (`HDBSCAN.fit` of `SpherePoints`): its
    /// points are then longitude (x) and latitude (y) in degrees.
    public var isOnSphere: Bool {
        if case .sphere = index { return true }
        return false
    }

    /// `predict` of the points (xs[i], ys[i]).
    private func predict(xs: [Double], ys: [Double], threads: Int) -> [Prediction] {
        guard pointCount > 0 else { return [Prediction](repeating: Self.blank, count: xs.count) }
        let order = SpatialOrder.zOrder(xs: xs, ys: ys)
        return [Prediction].initialized(count: xs.count) { base in
            let out = SharedBuffer(base: base)
            Parallel.forEachChunk(count: xs.count, grain: 4096, threads: threads) { chunk, _ in
                var buffer = queryBuffer()
                for j in chunk {
                    let i = Int(order[j])
                    out[i] = predict(x: xs[i], y: ys[i], buffer: &buffer)
                }
            }
        }
    }

    /// Scratch for `predict(x:y:buffer:)` and `membershipVector(x:y:buffer:)`.
    public func queryBuffer() -> KNNBuffer {
        let k = max(1, min(2 * minSamples, index.order.count))
        switch index {
        case let .plane(tree): return KNNBuffer(k: k, tree: tree)
        case let .sphere(sphere): return KNNBuffer(k: k, nodeCount: sphere.tree.nodeCount)
        }
    }

    /// The answer when nothing was fitted: noise, joining no row.
    static let blank = Prediction(label: -1, probability: 0, outlierScore: 1, connectingRow: -1)

    /// One point's answer; `buffer` is scratch from `queryBuffer()`, reused across calls. On a
    /// model fitted on the sphere x is the longitude and y the latitude, in degrees.
    public func predict(x: Double, y: Double, buffer: inout KNNBuffer) -> Prediction {
        guard pointCount > 0 else { return Self.blank }
        let join = joining(x: x, y: y, buffer: &buffer)
        let site = Int(join.site)
        let cluster = clusterAt(site: site, lambda: join.lambda)
        let label = labelOfCluster[cluster]
        var probability = 0.0
        if label >= 0 {
            let top = groupMaxLambda[Int(selected[Int(label)])]
            probability = top > 0 ? min(top, join.lambda) / top : 1
        }
        let lambda = join.nearestDistance == 0 ? fallLambda[site] : join.lambda
        return Prediction(label: label, probability: probability,
                          outlierScore: Self.outlierScore(death: subtreeMaxLambda[Int(fallCluster[site])], lambda: lambda),
                          connectingRow: sites.firstRow[site])
    }

    /// The fitted site a new point joins, the lambda at which it does, and the distance to its
    /// nearest fitted point. The neighbours are the 2m nearest fitted points, sites counting
    /// for as many points as they hold, at equal distance in row order; the first of equally
    /// reachable neighbours wins (hdbscan takes its tree's order).
    func joining(x: Double, y: Double, buffer: inout KNNBuffer) -> (site: Int32, lambda: Double, nearestDistance: Double) {
        switch index {
        case let .plane(tree): tree.nearest(x: x, y: y, into: &buffer)
        case let .sphere(sphere): sphere.nearest(longitude: x, latitude: y, into: &buffer)
        }
        let found = buffer.found, m = minSamples
        return buffer.squaredDistances.withUnsafeMutableBufferPointer { d2 in
        buffer.positions.withUnsafeMutableBufferPointer { position in
        sites.firstRow.withUnsafeBufferPointer { first in
        sites.weight.withUnsafeBufferPointer { weight in
        core.withUnsafeBufferPointer { core in
        self.index.order.withUnsafeBufferPointer { index in
            // By distance (the query's order), equal distances by first row.
            func site(_ i: Int) -> Int { Int(index[Int(position[i])]) }
            for i in 1..<max(found, 1) {
                var j = i
                while j > 0 && d2[j - 1] == d2[j] && first[site(j - 1)] > first[site(j)] {
                    d2.swapAt(j - 1, j); position.swapAt(j - 1, j); j -= 1
                }
            }
            // The new point's core distance: the (m+1)-th nearest fitted point's (the last there
            // is when fewer points were fitted).
            var own = d2[found - 1], counted = 0
            for i in 0..<found {
                counted += Int(weight[site(i)])
                if counted > m { own = d2[i]; break }
            }
            own = own.squareRoot()
            var best = Double.infinity, bestSite = -1, before = 0
            for i in 0..<found where before < 2 * m {
                let reach = max(core[site(i)], own, d2[i].squareRoot())
                if reach < best { (best, bestSite) = (reach, site(i)) }
                before += Int(weight[site(i)])
            }
            let lambda = best > 0 ? 1 / best : Double.greatestFiniteMagnitude
            return (Int32(bestSite), lambda, d2[0].squareRoot())
        }}}}}}
    }

    /// The cluster index a point joining `site` at `lambda` lands in: where the site falls out,
    /// or, when the new point joins at a lower lambda, the highest ancestor born at or after it.
    func clusterAt(site: Int, lambda: Double) -> Int {
        var cluster = Int(fallCluster[site])
        guard fallLambda[site] > lambda else { return cluster }
        while cluster > 0 && birth[cluster] >= lambda { cluster = Int(parent[cluster]) }
        return cluster
    }

    /// GLOSH against the largest lambda below where the point joins. Where that lambda is
    /// infinite (points coinciding at least m times) hdbscan returns NaN; here a point at
    /// infinite lambda scores 0 and any other 1, as in the fit's own scores.
    static func outlierScore(death: Double, lambda: Double) -> Double {
        if death.isInfinite { return lambda >= Double.greatestFiniteMagnitude ? 0 : 1 }
        return death > 0 ? (death - lambda) / death : 0
    }
}
