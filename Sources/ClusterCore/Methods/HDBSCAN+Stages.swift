// HDBSCAN's first stages, each a value in and a value out: group and index, core distances,
// MST. Each stage function takes its input `consuming` and runs under the observer, so what a
// stage no longer needs is released when it returns: peak memory is that of the largest
// stage, not of all of them together.

/// The index stage's output: the k-d tree over the leaves of the hierarchy, which are the
/// distinct locations when points share coordinates (see `Locations`), else the points.
struct IndexedLocations {
    let tree: KDTree
    /// The grouping (nil: every point its own location, of weight 1).
    let locations: Locations?
    /// Points at each tree position (nil: one each).
    let weightAt: [Int32]?
    /// Number of input points.
    let pointCount: Int
}

/// The core-distance stage's output, by tree position: squared core distances and each
/// position's nearest positions (itself included, nearest first; empty when not kept),
/// `listLength` each, of which the first `coreNeighbourCount` are surely within the core
/// distance.
struct NearestNeighbours {
    let core2: [Double]
    var lists: [Int32]
    let listLength: Int
    let coreNeighbourCount: Int
}

extension HDBSCAN {
    /// Groups co-located points into weighted locations (when `grouping` and at least two
    /// locations result) and builds the k-d tree over them; the grouping is timed as part of
    /// the index.
    /// With `sampleWeight` (point counts by row) the locations are always made, each weighing
    /// its rows' weights, unless every row is at one location: then every core distance is 0
    /// whatever the weights, and the points are indexed as they are.
    static func indexStage(
        _ points: consuming PointSet, sampleWeight: [Int32]? = nil, grouping: Bool, canonical: Bool, threads: Int,
        observer: some StageObserver
    ) -> IndexedLocations {
        let input = points
        let n = input.count
        // (The input is released after the stage, outside its time: the tree holds its own
        // copy of the coordinates.)
        let (locations, tree) = withExtendedLifetime(input) {
            observer.run(HDBSCANStage.index) { () -> (Locations?, KDTree) in
                if grouping || sampleWeight != nil,
                   let locations = Locations.group(input, sampleWeight: sampleWeight, threads: threads),
                   locations.count >= 2 {
                    return (locations, KDTree(points: locations.points, threads: threads, canonical: canonical))
                }
                return (nil, KDTree(points: input, threads: threads, canonical: canonical))
            }
        }
        guard let locations else { return IndexedLocations(tree: tree, locations: nil, weightAt: nil, pointCount: n) }
        let weightAt = [Int32].filled(count: locations.count, threads: threads) { locations.weight[Int(tree.index[$0])] }
        return IndexedLocations(tree: tree, locations: locations, weightAt: weightAt, pointCount: n)
    }

    /// Core distances, with the nearest-neighbour lists the MST's first round starts from.
    static func coreDistanceStage(
        _ indexed: IndexedLocations, parameters: HDBSCANParameters, threads: Int, observer: some StageObserver
    ) throws(ClusterCoreError) -> NearestNeighbours {
        let k = parameters.neighbourCount
        let count = indexed.tree.count
        let keep: Bool, extra: Int, listed: Int, coreNeighbourCount: Int
        if indexed.weightAt != nil {
            // The nearest min(k, count) locations hold the core distance; one more, when there
            // is one, lets the MST's first round prove most best edges from the list alone.
            // Only a location's own entry (the first, at distance 0) is surely within its core
            // distance: with weights, the core distance may be reached before the k-th entry.
            listed = min(k, count)
            keep = true
            extra = listed < count ? 1 : 0
            coreNeighbourCount = 1
        } else {
            // One neighbour more than the core distance needs, so the MST's first round can
            // prove most points' best edges from the list alone. With k = 1 (the point itself:
            // every core distance 0, the Euclidean MST) the one extra entry is the nearest other
            // point, the list's farthest, so nothing would be proved: four extra entries let the
            // first round prove most nearest edges and seed later rounds well (more make the
            // k-NN dearer than the rounds they save; see docs/performance.md).
            listed = k
            keep = k + 1 <= count
            extra = !keep ? 0 : (k == 1 && k + 4 <= count ? 4 : 1)
            coreNeighbourCount = k
        }
        return try observer.run(HDBSCANStage.coreDistances) { () throws(ClusterCoreError) in
            let r = try CoreDistances.computeWithNeighbours(
                tree: indexed.tree, minSamples: parameters.effectiveMinSamples,
                convention: parameters.minSamplesConvention, threads: threads,
                keepNeighbours: keep, extra: extra, weights: indexed.weightAt)
            return NearestNeighbours(core2: r.core2, lists: r.neighbours, listLength: listed + extra,
                                     coreNeighbourCount: coreNeighbourCount)
        }
    }

    /// The mutual-reachability MST over the leaves (Borůvka), with each row's core distance.
    static func mstStage(
        _ indexed: consuming IndexedLocations, _ nearest: consuming NearestNeighbours, threads: Int,
        observer: some StageObserver
    ) -> SpanningTree {
        let indexed = indexed
        var lists = nearest.lists
        nearest.lists = []
        let core2 = nearest.core2, listLength = nearest.listLength, coreNeighbourCount = nearest.coreNeighbourCount
        // (The tree is released after the stage, outside its time.)
        return withExtendedLifetime(indexed) { observer.run(HDBSCANStage.mst) {
            // Hand the lists over so the MST can free them as soon as its rounds are done.
            let handed = lists
            lists = []
            let found = MinimumSpanningTree.boruvka(tree: indexed.tree, squaredCoreDistances: core2,
                                                    neighbours: handed, listLength: listLength,
                                                    coreNeighbourCount: coreNeighbourCount, threads: threads)
            return SpanningTree(found, indexed: indexed, core2: core2, threads: threads)
        }}
    }

    /// Group, index, core distances and MST, in order.
    static func spanningTree(
        _ points: consuming PointSet, parameters: HDBSCANParameters, sampleWeight: [Int32]? = nil, grouping: Bool,
        threads: Int, observer: some StageObserver
    ) throws(ClusterCoreError) -> SpanningTree {
        // One at a time, the order of tied merges follows tree positions: those must not depend
        // on the rows' order.
        let indexed = indexStage(consume points, sampleWeight: sampleWeight, grouping: grouping,
                                 canonical: parameters.ties == .oneAtATime, threads: threads, observer: observer)
        let nearest = try coreDistanceStage(indexed, parameters: parameters, threads: threads, observer: observer)
        return mstStage(consume indexed, consume nearest, threads: threads, observer: observer)
    }
}
