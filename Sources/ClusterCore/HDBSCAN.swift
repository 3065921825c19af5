// HDBSCAN: hierarchical density-based clustering (Campello, Moulavi & Sander 2013; McInnes &
// Healy 2017), the stages in order.
//
// Glossary
// - minSamples: how many nearest points (the point itself included, scikit-learn's
//   convention; see MinSamplesConvention) define a point's core distance.
// - coreDistance: distance to that minSamples-th nearest point; small in dense areas.
// - mutualReachability(a, b) = max(coreDistance(a), coreDistance(b), distance(a, b)).
// - MST: the minimum spanning tree of the mutual-reachability graph.
// - single-linkage tree: the MST's edges merged in ascending weight (scipy's linkage form).
// - lambda = 1 / distance: "density" at which a point or cluster leaves its parent.
// - condensedTree: the single-linkage tree with parts smaller than minClusterSize dropped.
// - stability: Σ over a cluster's points of (lambda at which it leaves − lambda at birth).
// - .excessOfMass / .leaf: how flat clusters are picked from the condensed tree.

/// The parameters of HDBSCAN, with scikit-learn's names and meanings.
public struct HDBSCANParameters: Sendable, Equatable {
    /// The smallest group that counts as a cluster (at least 2).
    public var minClusterSize: Int
    /// Neighbours defining the core distance; nil means `minClusterSize`.
    public var minSamples: Int?
    /// Which library's meaning `minSamples` has (scikit-learn's by default).
    public var minSamplesConvention: MinSamplesConvention
    /// Cluster selection: method, epsilon (metres), single cluster, maximum size.
    public var selection: SelectionOptions

    public init(minClusterSize: Int = 5, minSamples: Int? = nil,
                minSamplesConvention: MinSamplesConvention = .sklearn,
                selection: SelectionOptions = SelectionOptions()) {
        self.minClusterSize = minClusterSize
        self.minSamples = minSamples
        self.minSamplesConvention = minSamplesConvention
        self.selection = selection
    }

    /// `minSamples`, or `minClusterSize` when unset.
    public var effectiveMinSamples: Int { minSamples ?? minClusterSize }

    /// Checks every parameter's range.
    public func validate() throws(ClusterCoreError) {
        if minClusterSize < 2 {
            throw .invalidParameter(name: "minClusterSize", value: "\(minClusterSize)", requirement: "must be at least 2")
        }
        if let m = minSamples, m < 1 {
            throw .invalidParameter(name: "minSamples", value: "\(m)", requirement: "must be at least 1")
        }
        if !(selection.epsilon >= 0 && selection.epsilon.isFinite) {
            throw .invalidParameter(name: "epsilon", value: "\(selection.epsilon)", requirement: "must be a finite distance >= 0")
        }
        if let m = selection.maxClusterSize, m < 1 {
            throw .invalidParameter(name: "maxClusterSize", value: "\(m)", requirement: "must be at least 1")
        }
    }
}

/// Everything one HDBSCAN run produces.
public struct HDBSCANResult: Sendable {
    public var labeling: Labeling
    /// Core distance of each input row.
    public var coreDistances: [Double]
    /// The intermediate trees, each nil unless `fit` was asked to keep it (see
    /// `HDBSCANOutputs`).
    public var mst: MinimumSpanningTree?
    /// The MST's total weight (metres), summed in ascending order of weight, kept whether or
    /// not the tree is: a fingerprint of the run (the MST is unique up to ties, its weight is not).
    public var mstWeight: Double
    public var linkage: SingleLinkageTree?
    public var condensedTree: CondensedTree?
    /// Selected cluster ids in the condensed tree, ascending (label i ↔ selectedClusters[i]).
    public var selectedClusters: [Int32]
}

/// Which intermediate trees `HDBSCAN.fit` keeps in its result. Each is freed as soon as the
/// next stage is done with it unless kept: at a million points the three take about 70 MB,
/// which is the difference between fitting the memory budget or not (see README).
public struct HDBSCANOutputs: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let mst = HDBSCANOutputs(rawValue: 1)
    public static let linkage = HDBSCANOutputs(rawValue: 2)
    public static let condensedTree = HDBSCANOutputs(rawValue: 4)
    public static let all: HDBSCANOutputs = [.mst, .linkage, .condensedTree]
}

public enum HDBSCAN {
    /// What the first three stages give: over the points, core distances by input row, the
    /// MST and its edges' ends as tree positions (with the rows of the positions); or the same
    /// over distinct locations.
    enum Spanning {
        case points([Double], MinimumSpanningTree, positionA: [Int32], positionB: [Int32], rowOf: [Int32])
        case locations(LocatedMST)
    }

    /// Index, core distances and MST.
    private static func indexAndMST(
        _ points: consuming PointSet, parameters: HDBSCANParameters, threads: Int, observer: some StageObserver,
        groupLocations: Bool
    ) throws(ClusterCoreError) -> Spanning {
        let n = points.count
        // Co-located points become one weighted location each (see `Locations`): the grouping
        // is timed as part of the index, which is then built over the locations.
        let input = points
        let (located, tree) = observer.run(HDBSCANStage.index) { () -> (Locations?, KDTree) in
            if groupLocations, let locations = Locations.group(input, threads: threads), locations.count >= 2 {
                return (locations, KDTree(points: locations.points, threads: threads))
            }
            return (nil, KDTree(points: input, threads: threads))
        }
        if let located {
            _ = consume input
            _ = consume points
            return .locations(try locatedMST(located, tree: tree, pointCount: n, parameters: parameters,
                                             threads: threads, observer: observer))
        }
        // The tree holds its own copy of the coordinates; let the input's go.
        _ = consume input
        _ = consume points
        // One neighbour more than the core distance needs, so the MST's first round can prove
        // most points' best edges from the list alone. With k = 1 (the point itself: every core
        // distance 0, the Euclidean MST) the one extra entry is the nearest other point, the
        // list's farthest, so nothing would be proved. Four extra entries let the first round
        // prove most nearest edges and pass A seed later rounds well: at 225k map locations
        // (seoul 1M, masked) index + k-NN + MST took 0.39 s with one extra, 0.38 with two,
        // 0.35 with four and 0.39 with eight (the k-NN dearer than the rounds it saves).
        let k = parameters.minSamplesConvention.neighbourCount(minSamples: parameters.effectiveMinSamples)
        let keep = k + 1 <= n
        let extra = !keep ? 0 : (k == 1 && k + 4 <= n ? 4 : 1)
        let (core2, neighbours, listLength) = try observer.run(HDBSCANStage.coreDistances) { () throws(ClusterCoreError) in
            let r = try CoreDistances.computeWithNeighbours(
                tree: tree, minSamples: parameters.effectiveMinSamples,
                convention: parameters.minSamplesConvention, threads: threads,
                keepNeighbours: keep, extra: extra)
            return (r.core2, r.neighbours, r.k + extra)
        }
        var lists = neighbours
        _ = consume neighbours
        let mst = observer.run(HDBSCANStage.mst) {
            // Hand the lists over so the MST can free them as soon as its rounds are done.
            let handed = lists
            lists = []
            return MinimumSpanningTree.boruvka(tree: tree, squaredCoreDistances: core2,
                                               neighbours: handed, listLength: listLength,
                                               coreNeighbourCount: k, threads: threads)
        }
        let coreByRow = [Double].initialized(count: n) { out in
            let rows = SharedBuffer(base: out)  // tree.index is a permutation: each row once
            Parallel.forEachChunk(count: n, grain: 1 << 16, threads: threads) { chunk, _ in
                for p in chunk { rows[Int(tree.index[p])] = core2[p].squareRoot() }
            }
        }
        return .points(coreByRow, mst.mst, positionA: mst.positionA, positionB: mst.positionB, rowOf: tree.index)
    }

    /// The first three stages alone (index, core distances, MST): the mutual-reachability
    /// minimum spanning tree over input rows, sorted by weight, and each row's core distance.
    /// `minSamples = 1` (scikit-learn's convention) makes every core distance 0, so the tree is
    /// the Euclidean MST and its single-linkage hierarchy that of plain single linkage (the
    /// Pins module cuts its zoom levels from it).
    /// - Throws: `.invalidParameter` if `minSamples < 1`; `.tooFewPoints` if there are fewer
    ///   points than the neighbour count.
    /// - Complexity: O(n log n) expected on 2-D data; the output is identical for any `threads`.
    public static func minimumSpanningTree(
        _ points: consuming PointSet, minSamples: Int, convention: MinSamplesConvention = .sklearn,
        threads: Int = 1, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> (mst: MinimumSpanningTree, coreDistances: [Double]) {
        let parameters = HDBSCANParameters(minClusterSize: 2, minSamples: minSamples, minSamplesConvention: convention)
        try parameters.validate()
        if points.count < 2 {
            return (MinimumSpanningTree(a: [], b: [], weight: []), [Double](repeating: 0, count: points.count))
        }
        switch try indexAndMST(consume points, parameters: parameters, threads: threads, observer: observer,
                               groupLocations: true) {
        case let .points(core, mst, _, _, _): return (mst, core)
        case let .locations(located): return (located.expanded().mst, located.coreByRow)
        }
    }

    /// Runs HDBSCAN on planar points.
    ///
    /// Fewer points than `minClusterSize` give all noise (unless `allowSingleCluster` lets the
    /// root keep its densest points, as in scikit-learn). A neighbour count (`minSamples`,
    /// after the convention) larger than the number of points is an error, as in
    /// scikit-learn; no points give empty results.
    /// - Parameters:
    ///   - threads: worker threads for the index, the k-NN queries, the MST rounds and the
    ///     labelling; the output is identical for any value.
    ///   - keeping: which intermediate trees to return (all by default).
    /// - Complexity: O(n log n) expected on 2-D data.
    public static func fit(
        _ points: consuming PointSet, parameters: HDBSCANParameters, threads: Int = 1,
        keeping: HDBSCANOutputs = .all, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> HDBSCANResult {
        try fit(consume points, parameters: parameters, threads: threads, keeping: keeping, observer: observer,
                groupLocations: true)
    }

    /// `fit`, with the grouping of co-located points switchable (tests compare both paths).
    static func fit(
        _ points: consuming PointSet, parameters: HDBSCANParameters, threads: Int = 1,
        keeping: HDBSCANOutputs = .all, observer: some StageObserver = NoStageObserver(), groupLocations: Bool
    ) throws(ClusterCoreError) -> HDBSCANResult {
        try parameters.validate()
        let n = points.count
        // The stages run in a nested function so that the index, the neighbour lists and
        // every intermediate array are released as soon as the next stage no longer needs
        // them: peak memory is that of the largest stage, not of all of them together.
        // The linkage is built on tree positions (see SingleLinkageTree); the position
        // arrays die with this stage.
        var spanning: Spanning? = try indexAndMST(consume points, parameters: parameters, threads: threads, observer: observer,
                                       groupLocations: groupLocations)
        let coreByRow: [Double], mstWeight: Double
        var mst: MinimumSpanningTree?
        var linkage: SingleLinkageTree?
        var condensed: CondensedTree?
        // Over locations without the condensed tree's point rows: the leaf of each row.
        var leafOfRow: [Int32]?
        switch spanning! {
        case let .locations(located) where !keeping.contains(.linkage):
            // Linkage and condensed tree over the locations; the tree over the points is only
            // put together when asked for.
            coreByRow = located.coreByRow
            mstWeight = located.totalWeight
            if keeping.contains(.mst) { mst = located.expanded().mst }
            let tree = observer.run(HDBSCANStage.linkage) {
                SingleLinkageTree(locatedWeights: located.weight, positionA: located.positionA,
                                  positionB: located.positionB, leafWeight: located.leaves.weight, threads: threads)
            }
            let pointRows = keeping.contains(.condensedTree)
            condensed = observer.run(HDBSCANStage.condense) {
                CondensedTree(locatedLinkage: tree, leaves: located.leaves, minClusterSize: parameters.minClusterSize,
                              pointRows: pointRows, threads: threads)
            }
            if !pointRows { leafOfRow = located.leafOfRow(threads: threads) }
            spanning = nil
        default:
            let builtMST: MinimumSpanningTree, positionA: [Int32], positionB: [Int32], rowOf: [Int32]
            switch spanning! {
            case let .points(core, m, a, b, r):
                coreByRow = core; builtMST = m; positionA = a; positionB = b; rowOf = r
            case let .locations(located):
                coreByRow = located.coreByRow
                (builtMST, positionA, positionB, rowOf) = located.expanded()
            }
            // The stage's arrays now live only in the locals above (and die with the linkage).
            spanning = nil
            mstWeight = builtMST.totalWeight
            mst = builtMST
            _ = consume builtMST
            linkage = observer.run(HDBSCANStage.linkage) {
                SingleLinkageTree(mst: mst!, positionA: positionA, positionB: positionB, rowOf: rowOf,
                                  pointCount: n, threads: threads)
            }
            if !keeping.contains(.mst) { mst = nil }
            // Without the condensed tree in the result, its point rows are not written: the
            // labelling reads where each point falls out by point instead.
            condensed = observer.run(HDBSCANStage.condense) {
                CondensedTree(linkage: linkage!, minClusterSize: parameters.minClusterSize,
                              pointRows: keeping.contains(.condensedTree), threads: threads)
            }
        }
        if !keeping.contains(.linkage) { linkage = nil }
        let selected = observer.run(HDBSCANStage.select) { ClusterSelection.select(condensed!, options: parameters.selection) }
        let labeling = observer.run(HDBSCANStage.label) {
            if let leafOfRow {
                Labeling(locatedTree: condensed!, selected: selected,
                         allowSingleCluster: parameters.selection.allowSingleCluster,
                         epsilon: parameters.selection.epsilon, leafOfRow: leafOfRow, threads: threads)
            } else {
                Labeling(tree: condensed!, selected: selected,
                         allowSingleCluster: parameters.selection.allowSingleCluster,
                         epsilon: parameters.selection.epsilon, threads: threads)
            }
        }
        if !keeping.contains(.condensedTree) { condensed = nil }
        return HDBSCANResult(labeling: labeling, coreDistances: coreByRow, mst: mst, mstWeight: mstWeight, linkage: linkage,
                             condensedTree: condensed, selectedClusters: selected)
    }
}
