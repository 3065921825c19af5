// HDBSCAN in d dimensions: the sphere's first stages (a k-d tree, k-nearest core distances,
// the shared Borůvka rounds) over d coordinates, then the planar pipeline's hierarchy stages.
// Distances are Euclidean: every MST weight is the square root of the larger of the two
// squared core distances and the squared distance, as the rounds compare them.

extension HDBSCAN {
    /// Runs HDBSCAN on points in d dimensions, by Euclidean distance: the partition of
    /// scikit-learn's `HDBSCAN()` on the same array, ties aside.
    /// - Parameters: as the planar `fit`; prediction data (`HDBSCANOutputs.prediction`) is
    ///   kept for points in the plane and on the sphere only.
    /// - Throws: as the planar `fit`, and `.invalidParameter` when asked for prediction data.
    /// - Complexity: O(n log n) expected at low d; a k-d tree helps less as d grows (every
    ///   query then reaches more leaves). The output is identical for any `threads` and any
    ///   order of the rows.
    public static func fit(
        _ points: FeaturePoints, parameters: HDBSCANParameters, sampleWeight: [Double]? = nil, threads: Int = 1,
        keeping: HDBSCANOutputs = .all, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> HDBSCANResult {
        try parameters.validate()
        if keeping.contains(.prediction) {
            throw .invalidParameter(name: "keeping", value: ".prediction with \(points.dimensions) dimensions",
                                    requirement: "prediction data is kept for points in the plane or on the sphere")
        }
        var effective = parameters, counts: [Int32]? = nil
        if let sampleWeight {
            counts = try SampleWeights.counts(sampleWeight, rows: points.count)
            let oneSpot = points.count > 0 && (0..<points.count).allSatisfy { points.sameCoordinates($0, 0) }
            effective = try weightedParameters(parameters, counts: counts!, oneSpot: oneSpot)
        }
        if points.count < 2 {
            // No distances: the planar pipeline gives the same answer on any coordinates.
            let origin = try PointSet(xs: [Double](repeating: 0, count: points.count),
                                      ys: [Double](repeating: 0, count: points.count))
            return try fit(origin, parameters: effective, sampleWeight: counts.map { $0.map(Double.init) },
                           threads: threads, keeping: keeping, observer: observer)
        }
        let spanning = try featureSpanningTree(points, parameters: effective, sampleWeight: counts, threads: threads,
                                               observer: observer)
        return hierarchy(consume spanning, parameters: effective, threads: threads, keeping: keeping, observer: observer)
    }

    /// Index, core distances and MST in d dimensions, each under its stage's name.
    static func featureSpanningTree(
        _ points: FeaturePoints, parameters: HDBSCANParameters, sampleWeight: [Int32]?, threads: Int,
        observer: some StageObserver
    ) throws(ClusterCoreError) -> SpanningTree {
        let k = parameters.neighbourCount
        guard k <= points.count || sampleWeight != nil else {
            throw .tooFewPoints(count: points.count, required: k,
                reason: "minSamples = \(parameters.effectiveMinSamples) (\(parameters.minSamplesConvention.rawValue) convention) needs \(k) points including the point itself; lower minSamples")
        }
        let indexed = observer.run(HDBSCANStage.index) {
            FeatureLocations(points, sampleWeight: sampleWeight, threads: threads)
        }
        let tree = indexed.tree
        // One neighbour past the core distance (four with k = 1, whose list is the point
        // alone) lets the first round prove most best edges from the lists alone; with weights
        // only a location's own entry is surely within its core distance.
        let extra = k == 1 ? 4 : 1
        let nearest = observer.run(HDBSCANStage.coreDistances) {
            tree.nearestNeighbours(k, extra: extra, weights: indexed.weightAt, threads: threads)
        }
        let withinCore = indexed.weightAt == nil ? Swift.min(k, nearest.listLength) : 1
        return observer.run(HDBSCANStage.mst) {
            let found = tree.read(FeatureMST(nearest: nearest, withinCore: withinCore, threads: threads))
            let core2 = nearest.core2
            return SpanningTree(edges: found.a, found.b, weights: found.weights, index: tree.index,
                                locations: indexed.locations, weightAt: indexed.weightAt, pointCount: indexed.pointCount,
                                inner: [Double].filled(count: tree.count, threads: threads) { core2[$0].squareRoot() },
                                threads: threads)
        }
    }
}

/// The mutual-reachability MST's edges over a view of any width (Borůvka's rounds, the lists
/// settling most of the first), each weighing the square root of the larger of the two squared
/// core distances and the squared distance.
private struct FeatureMST: FeatureViewReader {
    let nearest: FeatureNeighbours
    let withinCore: Int
    let threads: Int

    func read<W: FeatureWidth>(_ v: FeatureView<W>) -> (a: [Int32], b: [Int32], weights: [Double]) {
        let (a, b) = nearest.core2.withUnsafeBufferPointer { core2 in
            nearest.lists.withUnsafeBufferPointer { lists in
                MinimumSpanningTree.rounds(view: v, core2: core2.baseAddress!,
                                           lists: nearest.listLength > withinCore ? lists.baseAddress : nil,
                                           listLength: nearest.listLength, coreNeighbourCount: withinCore,
                                           threads: threads, inspect: nil)
            }
        }
        let core2 = nearest.core2
        let weights = [Double].filled(count: a.count, threads: threads) {
            let p = Int(a[$0]), q = Int(b[$0])
            return Swift.max(core2[p], core2[q], v.distance2(p, q)).squareRoot()
        }
        return (a, b, weights)
    }
}

/// The index stage in d dimensions: identical rows grouped into weighted locations (as the
/// planar pipeline groups co-located points: see `Locations`), always with sample weights,
/// and the k-d tree over the locations, or over the rows when none repeat.
struct FeatureLocations: LocatedIndex {
    let tree: FeatureTree
    let locations: Locations?
    /// Points at each tree position (nil: one each).
    let weightAt: [Int32]?
    let pointCount: Int
    var positions: [Int32] { tree.index }

    init(_ input: FeaturePoints, sampleWeight: [Int32]? = nil, threads: Int) {
        pointCount = input.count
        let order = input.canonicalOrder()
        if let (points, grouped) = input.locations(order: order, sampleWeight: sampleWeight) {
            let tree = FeatureTree(points, order: (0..<Int32(points.count)).map { $0 }, threads: threads)
            self.tree = tree
            locations = grouped
            weightAt = [Int32].filled(count: grouped.count, threads: threads) { grouped.weight[Int(tree.index[$0])] }
        } else {
            tree = FeatureTree(input, order: order, threads: threads)
            locations = nil
            weightAt = nil
        }
    }
}
