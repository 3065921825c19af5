// HDBSCAN by great-circle distance: the first stages in 3-D chord space (`SphereTree`, the
// planar Borůvka rounds over it), every result distance measured by the haversine formula in metres, then
// the planar pipeline's own hierarchy stages (see SpherePoints.swift for why that is exact).

extension HDBSCAN {
    /// Runs HDBSCAN on points on the sphere, by great-circle distance in metres (on a sphere
    /// of radius `SpherePoints.earthRadius`): the partition of scikit-learn's
    /// `HDBSCAN(metric="haversine")` on the same points, with distances (core distances, MST
    /// weights, `epsilon`) in metres instead of radians.
    /// - Parameters: as the planar `fit`; `parameters.selection.epsilon` is in metres.
    /// - Throws: as the planar `fit`.
    /// - Complexity: O(n log n) expected; the output is identical for any `threads`.
    public static func fit(
        _ points: SpherePoints, parameters: HDBSCANParameters, sampleWeight: [Double]? = nil, threads: Int = 1,
        keeping: HDBSCANOutputs = .all, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> HDBSCANResult {
        try parameters.validate()
        var effective = parameters, counts: [Int32]? = nil
        if let sampleWeight {
            counts = try SampleWeights.counts(sampleWeight, rows: points.count)
            if keeping.contains(.prediction) { throw weightedPrediction }
            let planar = try PointSet(xs: points.longitudes, ys: points.latitudes)
            effective = try weightedParameters(parameters, counts: counts!, points: planar)
            if effective != parameters { counts = nil }
        }
        let predicting = keeping.contains(.prediction)
        let kept = predicting ? keeping.subtracting(.prediction).union(.clusterTree) : keeping
        var result: HDBSCANResult
        if points.count < 2 {
            // No distances: the planar pipeline gives the same answer on any coordinates.
            let origin = try PointSet(xs: points.longitudes.map { _ in 0 }, ys: points.latitudes.map { _ in 0 })
            result = try fit(origin, parameters: effective, threads: threads, keeping: kept, observer: observer)
        } else {
            var model: SphereModelStart? = nil
            let spanning = try sphereSpanningTree(points, parameters: effective, sampleWeight: counts,
                                                  threads: threads, observer: observer, keepingModel: predicting,
                                                  model: &model)
            result = hierarchy(consume spanning, parameters: effective, threads: threads, keeping: kept,
                               observer: observer)
            if let model {
                result.prediction = try model.model(points, result: result, parameters: effective)
                if keeping.isDisjoint(with: [.condensedTree, .clusterTree]) { result.condensedTree = nil }
                return result
            }
        }
        guard predicting else { return result }
        result.prediction = try PredictionModel(points: points, result: result, parameters: effective, threads: threads)
        if keeping.isDisjoint(with: [.condensedTree, .clusterTree]) { result.condensedTree = nil }
        return result
    }

    /// `minimumSpanningTree(_: Points, …)` on the sphere (weights in metres).
    public static func minimumSpanningTree(
        _ points: SpherePoints, minSamples: Int, convention: MinSamplesConvention = .sklearn,
        threads: Int = 1, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> (mst: MinimumSpanningTree, coreDistances: [Double]) {
        try minimumSpanningTree(Points.sphere(points), minSamples: minSamples, convention: convention,
                                threads: threads, observer: observer)
    }

    /// Index, core distances and MST on the sphere, each under its stage's name.
    static func sphereSpanningTree(
        _ points: SpherePoints, parameters: HDBSCANParameters, sampleWeight: [Int32]? = nil, threads: Int,
        observer: some StageObserver
    ) throws(ClusterCoreError) -> SpanningTree {
        var none: SphereModelStart? = nil
        return try sphereSpanningTree(points, parameters: parameters, sampleWeight: sampleWeight, threads: threads,
                                      observer: observer, keepingModel: false, model: &none)
    }

    /// `sphereSpanningTree`, and with `keepingModel` what the prediction model takes from its
    /// stages into `model`.
    static func sphereSpanningTree(
        _ points: SpherePoints, parameters: HDBSCANParameters, sampleWeight: [Int32]?, threads: Int,
        observer: some StageObserver, keepingModel: Bool, model: inout SphereModelStart?
    ) throws(ClusterCoreError) -> SpanningTree {
        let k = parameters.neighbourCount
        guard k <= points.count || sampleWeight != nil else {
            throw .tooFewPoints(count: points.count, required: k,
                reason: "minSamples = \(parameters.effectiveMinSamples) (\(parameters.minSamplesConvention.rawValue) convention) needs \(k) points including the point itself; lower minSamples")
        }
        let indexed = observer.run(HDBSCANStage.index) {
            SphereLocations(points, sampleWeight: sampleWeight, leafSize: SphereTree.hdbscanLeafSize, threads: threads)
        }
        let tree = indexed.tree
        var lists: [Int32] = []
        let (angles, core) = observer.run(HDBSCANStage.coreDistances) { () -> (SphereAngles, SphereCore) in
            let angles = SphereAngles(indexed.points, order: tree.index)
            return (angles, SphereCore(tree: tree, k: k, weights: indexed.weightAt, angles: angles, lists: &lists,
                                       threads: threads))
        }
        if keepingModel {
            let m = PredictionModel.neighbourNumber(parameters)
            model = SphereModelStart(indexed: indexed, angles: angles,
                                             core2: core.siteCore2(lists: lists, m: m, weights: indexed.weightAt, angles: angles)
                                                 ?? SphereSites(tree: tree, angles: angles).core2(
                                                     m: m, weightAt: indexed.weightAt ?? [Int32](repeating: 1, count: tree.count),
                                                     threads: threads))
        }
        return observer.run(HDBSCANStage.mst) {
            let (a, b) = core.spanningEdges(tree: tree, lists: &lists, threads: threads)
            return core.spanningTree(a: a, b: b, indexed: indexed, angles: angles, threads: threads)
        }
    }
}

/// The index stage on the sphere: co-located points grouped into weighted locations (as the
/// planar pipeline groups them: see `Locations`) and the 3-D tree over the locations, or over
/// the points when none share coordinates.
struct SphereLocations {
    let tree: SphereTree
    /// The points the tree holds (the locations', or the input's).
    let points: SpherePoints
    let locations: Locations?
    /// Points at each tree position (nil: one each).
    let weightAt: [Int32]?
    let pointCount: Int

    init(_ input: SpherePoints, sampleWeight: [Int32]? = nil, leafSize: Int = KDTree.defaultLeafSize, threads: Int) {
        pointCount = input.count
        let (at, grouped) = Self.group(input, sampleWeight: sampleWeight, threads: threads)
        if let grouped {
            points = at
            tree = SphereTree(at, leafSize: leafSize, threads: threads)
            locations = grouped
            let tree = tree
            weightAt = [Int32].filled(count: grouped.count, threads: threads) { grouped.weight[Int(tree.index[$0])] }
        } else {
            points = input
            tree = SphereTree(input, leafSize: leafSize, threads: threads)
            locations = nil
            weightAt = nil
        }
    }
}

extension SphereLocations {
    /// The locations of `input` (co-located points grouped) and their points, or the input
    /// and nil when grouping buys nothing.
    static func group(_ input: SpherePoints, sampleWeight: [Int32]? = nil, threads: Int) -> (SpherePoints, Locations?) {
        let grouped = (try? PointSet(xs: input.longitudes, ys: input.latitudes)).flatMap {
            Locations.group($0, sampleWeight: sampleWeight, threads: threads)
        }
        if let grouped, grouped.count >= 2,
           let at = try? SpherePoints(longitudes: grouped.points.xs, latitudes: grouped.points.ys) {
            return (at, grouped)
        }
        return (input, nil)
    }
}

/// Core distances on the sphere, by tree position: squared chords (for the MST's search) and
/// metres (measured by the haversine formula to the same neighbour); and the neighbour lists
/// for the MST's first round (`listLength` positions each, the first `withinCore` of them
/// within the core distance).
struct SphereCore {
    let chord2: [Double]
    let metres: [Double]
    let listLength: Int
    let withinCore: Int

    init(tree: SphereTree, k: Int, weights: [Int32]?, angles: SphereAngles, lists: inout [Int32], threads: Int) {
        // One neighbour past the core distance lets the first round prove most best edges
        // from the lists alone. With weights only a location's own entry is surely within its
        // core distance: the weights may reach k before the k-th entry.
        let found = tree.nearestNeighbours(k, extra: 1, weights: weights, threads: threads)
        chord2 = found.chord2
        listLength = found.listLength
        withinCore = weights == nil ? Swift.min(k, found.listLength) : 1
        lists = found.lists
        let neighbour = found.neighbour
        metres = [Double].filled(count: tree.count, threads: threads) { angles.metres($0, Int(neighbour[$0])) }
    }

    /// The mutual-reachability MST's edges as pairs of tree positions: the planar pipeline's
    /// Borůvka rounds in squared chords, the lists (emptied here) settling most of the first
    /// round. Lists that go no farther than the core distance prove nothing and are not read.
    func spanningEdges(tree: SphereTree, lists: inout [Int32], threads: Int) -> (a: [Int32], b: [Int32]) {
        defer { lists = [] }
        let proving = listLength > withinCore
        return chord2.withUnsafeBufferPointer { core2 in
        lists.withUnsafeBufferPointer { lists in
        tree.withView { v in
            MinimumSpanningTree.rounds(view: v, core2: core2.baseAddress!, lists: proving ? lists.baseAddress : nil,
                                       listLength: listLength, coreNeighbourCount: withinCore, threads: threads,
                                       inspect: nil)
        }}}
    }

    /// The mutual-reachability distance in metres between tree positions p and q: the larger
    /// core distance, or the haversine distance when that is larger. Where the chord lies
    /// clearly inside the larger core chord (by far more than the rounding of either chord or
    /// of the haversine formula, relative and absolute) the distance cannot decide, and the
    /// haversine, most of this stage's arithmetic, is not evaluated.
    @inline(__always)
    private func edgeMetres(_ p: Int, _ q: Int, _ v: SphereView, _ angles: SphereAngles) -> Double {
        let core = Swift.max(metres[p], metres[q]), core2 = Swift.max(chord2[p], chord2[q])
        if v.distance2(q, v.point(p)) < core2 * (1 - 1e-9) - 1e-14 * core2.squareRoot() { return core }
        return Swift.max(core, angles.metres(p, q))
    }

    /// The spanning tree of edges `a[i]`–`b[i]` (tree positions), weighed in metres and sorted
    /// by (weight, smaller position, larger position): a function of the points alone, not of
    /// the order Borůvka found the edges in.
    func spanningTree(a: [Int32], b: [Int32], indexed: SphereLocations, angles: SphereAngles, threads: Int) -> SpanningTree {
        let unsorted = indexed.tree.withView { v in
            [Double].filled(count: a.count, threads: threads) { edgeMetres(Int(a[$0]), Int(b[$0]), v, angles) }
        }
        return SpanningTree(edges: a, b, weights: unsorted, index: indexed.tree.index, locations: indexed.locations,
                            weightAt: indexed.weightAt, pointCount: indexed.pointCount, inner: metres, threads: threads)
    }
}
