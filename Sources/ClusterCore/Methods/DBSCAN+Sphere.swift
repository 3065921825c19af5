// DBSCAN by great-circle distance, as scikit-learn's `DBSCAN(metric="haversine",
// eps=eps/R)` computes it: two points are neighbours when scikit-learn's reduced haversine
// distance sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2) is at most sin²(eps/2R) (its ball tree's leaf
// test). Candidates come by squared chord (4 sin²(θ/2), the same quantity) from a 3-D grid of
// cubes over the unit vectors (DBSCAN+SphereGrid.swift), or from the 3-D tree when eps is too
// small for the grid; the chord decides a pair outside a margin far above rounding, scikit-learn's
// formula inside it, on either path. Core points, clusters
// (components of core neighbours, numbered by their lowest row) and border points (the
// lowest-numbered cluster among their core neighbours') follow the planar DBSCAN's definitions.

extension DBSCAN {
    /// Runs DBSCAN on points on the sphere; `parameters.eps` is a great-circle distance in
    /// metres, at most half the circumference (`SpherePoints.halfCircumference`). With
    /// `sampleWeight` (scikit-learn's meaning, as the planar `fit`) a point is core when the
    /// weights of the points within eps, its own included, add up to `minSamples`; the run
    /// then takes the tree.
    /// - Throws: `.invalidParameter` for an out-of-range parameter, or weights that are not
    ///   finite or not one per row.
    /// - Complexity: O(n) memory. Time: grouping co-located points, a radix sort of the cube
    ///   keys, then per cube that is not already full the points of the cubes around it (as the
    ///   planar DBSCAN). On the tree: O(n log n) plus the neighbours of every point, twice.
    public static func fit(
        _ points: SpherePoints, parameters: DBSCANParameters, sampleWeight: [Double]? = nil, threads: Int = 1,
        observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> DBSCANResult {
        try parameters.validate()
        if let sampleWeight { try SampleWeights.check(sampleWeight, rows: points.count) }
        guard parameters.eps <= SpherePoints.halfCircumference else {
            throw .invalidParameter(name: "eps", value: "\(parameters.eps)",
                                    requirement: "must be at most half the Earth's circumference (\(Int(SpherePoints.halfCircumference)) m)")
        }
        let n = points.count
        if n == 0 { return DBSCANResult(labels: [], isCore: [], clusterCount: 0) }
        // Co-located points share their neighbourhood: the work is done once per location,
        // each weighing its points (see Locations). On the 3-D grid (DBSCAN+SphereGrid.swift)
        // unless eps is too small for the data's extent; then on the tree (SphereLocations,
        // which groups the points again).
        let index = observer.run(DBSCANStage.grid) { () -> SphereDBSCANIndex in
            let test = SphereNeighbourTest(eps: parameters.eps)
            let (at, locations) = SphereLocations.group(points, threads: threads)
            if sampleWeight == nil, let grid = SphereGridWorkspace(at, locations: locations, test: test, minSamples: parameters.minSamples,
                                              threads: threads) {
                return .grid(grid)
            }
            let indexed = SphereLocations(points, threads: threads)
            return .tree(indexed, SphereAngles(indexed.points, order: indexed.tree.index))
        }
        switch index {
        case .grid(let grid): return fit(grid, rows: n, threads: threads, observer: observer)
        case .tree(let indexed, let angles):
            return fit(indexed, angles: angles, parameters: parameters, sampleWeight: sampleWeight, threads: threads,
                       observer: observer)
        }
    }

    /// The stages after the grid's, on the tree.
    private static func fit(
        _ indexed: SphereLocations, angles: SphereAngles, parameters: DBSCANParameters, sampleWeight: [Double]?,
        threads: Int, observer: some StageObserver
    ) -> DBSCANResult {
        let s = ElementaryMath.sin(Swift.min(Double.pi, parameters.eps / SpherePoints.earthRadius) / 2)
        let near = SphereNeighbourhood(tree: indexed.tree, angles: angles, halfChord2: s * s, weights: indexed.weightAt,
                                       sampleWeights: sampleWeight.map { indexed.positionWeights($0) },
                                       firstRow: indexed.firstRows(threads: threads))
        return near.run(minSamples: parameters.minSamples, indexed: indexed, threads: threads, observer: observer)
    }
}

/// The index a DBSCAN run on the sphere works on.
private enum SphereDBSCANIndex {
    case grid(SphereGridWorkspace)
    case tree(SphereLocations, SphereAngles)
}

extension SphereLocations: LocatedIndex {
    var positions: [Int32] { tree.index }
}

/// The neighbour relation of a DBSCAN run on the sphere, by tree position.
private struct SphereNeighbourhood: NeighbourRelation {
    let tree: SphereTree
    let angles: SphereAngles
    /// sin²(eps/2R): the largest reduced haversine distance of two neighbours.
    let halfChord2: Double
    /// Points at each position (nil: one each), and each position's lowest input row.
    let weights: [Int32]?
    /// With sample weights: the weight of each position (its rows' sum); counted instead of
    /// points then.
    let sampleWeights: [Double]?
    let firstRow: [Int32]

    /// Calls `body(q)` for every neighbour q of p (p itself included) until it returns false.
    /// The squared chord is 4·sin²(θ/2), the haversine test's quantity times 4: far from the
    /// threshold (a relative 1e-9, a million times the rounding of either) the chord decides;
    /// near it, scikit-learn's formula does.
    @inline(__always) func forEachNeighbour(_ v: SphereView, of p: Int, _ body: (Int) -> Bool) {
        let outer = 4 * halfChord2 * (1 + 1e-9) + 1e-24, inner = 4 * halfChord2 * (1 - 1e-9)
        let a = angles[p]
        v.forEach(within: outer, of: p) { q, d2 in
            if d2 <= inner || q == p || SpherePoints.halfChord2(a, angles[q]) <= halfChord2 { return body(q) }
            return true
        }
    }

    var count: Int { tree.count }
    func withView<R>(_ body: (SphereView) -> R) -> R { tree.withView(body) }
}
