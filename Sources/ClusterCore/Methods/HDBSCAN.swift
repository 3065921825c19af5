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
    /// How merges at one distance are condensed (`TieRule`).
    public var ties: TieRule

    /// The defaults, in one place: scikit-learn's, which `HDBSCANParameters()` holds and the C
    /// API's `gc_hdbscan_defaults()` (so Python's estimator) reads.
    public static let defaults = HDBSCANParameters()

    /// The minimum cluster size for listings, the command line's default: scikit-learn's 5
    /// makes clusters of a building's few flats; real-estate maps group streets and blocks.
    /// Every other parameter keeps `defaults`.
    public static let listingMinClusterSize = 15

    /// Parameters with scikit-learn's defaults; each sets the property of its name,
    /// `validate()` checks them.
    public init(minClusterSize: Int = 5, minSamples: Int? = nil,
                minSamplesConvention: MinSamplesConvention = .sklearn,
                selection: SelectionOptions = SelectionOptions(), ties: TieRule = .allAtOnce) {
        self.minClusterSize = minClusterSize
        self.minSamples = minSamples
        self.minSamplesConvention = minSamplesConvention
        self.selection = selection
        self.ties = ties
    }

    /// `minSamples`, or `minClusterSize` when unset.
    public var effectiveMinSamples: Int { minSamples ?? minClusterSize }

    /// k: the number of nearest points, the point itself included, whose farthest defines a
    /// core distance (`effectiveMinSamples` in `minSamplesConvention`'s meaning). Every stage
    /// and caller that needs the neighbour count reads it here.
    public var neighbourCount: Int { minSamplesConvention.neighbourCount(minSamples: effectiveMinSamples) }

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
    /// Labels, membership probabilities and outlier scores, by input row.
    public var labeling: Labeling
    /// Core distance of each input row.
    public var coreDistances: [Double]
    /// The intermediate trees, each nil unless `fit` was asked to keep it (see
    /// `HDBSCANOutputs`).
    public var mst: MinimumSpanningTree?
    /// The MST's total weight (metres), summed in ascending order of weight, kept whether or
    /// not the tree is: a fingerprint of the run (the MST is unique up to ties, its weight is not).
    public var mstWeight: Double
    /// The single-linkage tree over input rows, when kept (`HDBSCANOutputs.linkage`).
    public var linkage: SingleLinkageTree?
    /// The condensed tree, when kept (`HDBSCANOutputs.condensedTree`, or `.clusterTree`
    /// without its point rows).
    public var condensedTree: CondensedTree?
    /// Selected cluster ids in the condensed tree, ascending (label i ↔ selectedClusters[i]).
    public var selectedClusters: [Int32]
    /// What prediction and soft clustering need, when kept (`HDBSCANOutputs.prediction`).
    public var prediction: PredictionModel? = nil
}

/// Which intermediate trees `HDBSCAN.fit` keeps in its result. Each is freed as soon as the
/// next stage is done with it unless kept: over many points the three are a large share of
/// the memory budget (see docs/performance.md).
public struct HDBSCANOutputs: OptionSet, Sendable {
    /// The option bits.
    public let rawValue: Int
    /// The options of these bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Keep the minimum spanning tree (`HDBSCANResult.mst`).
    public static let mst = HDBSCANOutputs(rawValue: 1)
    /// Keep the single-linkage tree (`HDBSCANResult.linkage`).
    public static let linkage = HDBSCANOutputs(rawValue: 2)
    /// Keep the condensed tree (`HDBSCANResult.condensedTree`).
    public static let condensedTree = HDBSCANOutputs(rawValue: 4)
    /// Keep the condensed tree without its point rows (`CondensedTree.hasPointRows` false):
    /// `CondensedTree.fallingOut()` gives them on demand, at no cost to the fit.
    public static let clusterTree = HDBSCANOutputs(rawValue: 8)
    /// Keep what prediction and soft clustering need (`HDBSCANResult.prediction`): the fitted
    /// points, their index and where they fall out of the tree. Costs a
    /// second index and k-NN pass over the points.
    public static let prediction = HDBSCANOutputs(rawValue: 16)
    /// Keep all three trees.
    public static let all: HDBSCANOutputs = [.mst, .linkage, .condensedTree]
}

/// HDBSCAN's pipeline: `fit` runs every stage; `minimumSpanningTree` the first three.
public enum HDBSCAN: Sendable {
    /// `minimumSpanningTree(_: Points, …)` of planar points (distances in their unit).
    public static func minimumSpanningTree(
        _ points: consuming PointSet, minSamples: Int, convention: MinSamplesConvention = .sklearn,
        threads: Int = 1, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> (mst: MinimumSpanningTree, coreDistances: [Double]) {
        try minimumSpanningTree(Points.plane(consume points), minSamples: minSamples, convention: convention,
                                threads: threads, observer: observer)
    }

    /// Runs HDBSCAN on planar points.
    ///
    /// Fewer points than `minClusterSize` give all noise (unless `allowSingleCluster` lets the
    /// root keep its densest points, as in scikit-learn). A neighbour count (`minSamples`,
    /// after the convention) larger than the number of points is an error, as in
    /// scikit-learn; no points give empty results.
    /// With `sampleWeight`, a row of weight w counts as w identical rows (fast_hdbscan's
    /// meaning): core distances, cluster sizes and stabilities count weight, and every label,
    /// probability and outlier score is that of the data with each row repeated w times.
    /// - Parameters:
    ///   - points: the points, in metres (consumed: pass `consume points` to free them early).
    ///   - parameters: scikit-learn's parameters (`HDBSCANParameters`), validated first.
    ///   - sampleWeight: by row, whole numbers of at least 1; nil weighs every row 1.
    ///   - threads: worker threads for the index, the k-NN queries, the MST rounds and the
    ///     labelling; the output is identical for any value.
    ///   - keeping: which intermediate trees to return (all by default).
    ///   - observer: sees each stage (`HDBSCANStage`) run.
    /// - Throws: `ClusterCoreError.invalidParameter` for a parameter out of range, or weights
    ///   that are not whole numbers of at least 1 (or with `.prediction`: a weighted model is
    ///   not supported); `.tooFewPoints` for fewer points (weights) than the neighbour count.
    /// - Complexity: O(n log n) expected on 2-D data.
    public static func fit(
        _ points: consuming PointSet, parameters: HDBSCANParameters, sampleWeight: [Double]? = nil, threads: Int = 1,
        keeping: HDBSCANOutputs = .all, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> HDBSCANResult {
        guard let sampleWeight else {
            return try fit(consume points, parameters: parameters, threads: threads, keeping: keeping,
                           observer: observer, groupLocations: true)
        }
        try parameters.validate()
        let counts = try SampleWeights.counts(sampleWeight, rows: points.count)
        if keeping.contains(.prediction) { throw weightedPrediction }
        let input = points
        let effective = try weightedParameters(parameters, counts: counts, points: input)
        if input.count < 2 {
            return try fit(input, parameters: effective, threads: threads, keeping: keeping, observer: observer,
                           groupLocations: true)
        }
        let spanning = try spanningTree(input, parameters: effective, sampleWeight: counts, grouping: true,
                                        threads: threads, observer: observer)
        return hierarchy(consume spanning, parameters: effective, threads: threads, keeping: keeping,
                         observer: observer)
    }

    /// The refusal of prediction data for a weighted fit.
    static let weightedPrediction = ClusterCoreError.invalidParameter(
        name: "keeping", value: ".prediction with sample weights", requirement: "prediction data is kept for unweighted fits only")

    /// The parameters a weighted fit runs with: the neighbour count checked against the total
    /// weight; when every row is at one place, `minSamples` 1 (every core distance is 0 then,
    /// whatever the weights, and the points are indexed unweighted).
    static func weightedParameters(
        _ parameters: HDBSCANParameters, counts: [Int32], points: PointSet
    ) throws(ClusterCoreError) -> HDBSCANParameters {
        let oneSpot = points.count > 0 && points.xs.allSatisfy { $0 == points.xs[0] } && points.ys.allSatisfy { $0 == points.ys[0] }
        return try weightedParameters(parameters, counts: counts, oneSpot: oneSpot)
    }

    /// `weightedParameters` given whether every row is at one place.
    static func weightedParameters(
        _ parameters: HDBSCANParameters, counts: [Int32], oneSpot: Bool
    ) throws(ClusterCoreError) -> HDBSCANParameters {
        let k = parameters.neighbourCount
        let total = counts.reduce(0) { $0 + Int($1) }
        guard k <= total || counts.isEmpty else {
            throw .tooFewPoints(count: total, required: k,
                reason: "minSamples = \(parameters.effectiveMinSamples) (\(parameters.minSamplesConvention.rawValue) convention) needs a total weight of \(k) including the point itself; lower minSamples")
        }
        guard oneSpot else { return parameters }
        var effective = parameters
        effective.minSamples = 1
        effective.minSamplesConvention = .sklearn
        return effective
    }

    /// `fit`, with the grouping of co-located points switchable (tests compare both ways).
    ///
    /// The pipeline: group co-located points into weighted locations and index them, core
    /// distances, MST (`spanningTree`), single linkage, condense, select, label. The hierarchy
    /// is built over the locations (each point its own location when none share coordinates);
    /// only a kept linkage is spread over the points first, since its public form names points.
    static func fit(
        _ points: consuming PointSet, parameters: HDBSCANParameters, threads: Int = 1,
        keeping: HDBSCANOutputs = .all, observer: some StageObserver = NoStageObserver(), groupLocations: Bool
    ) throws(ClusterCoreError) -> HDBSCANResult {
        try parameters.validate()
        if keeping.contains(.prediction) {
            return try fitKeepingPrediction(consume points, parameters: parameters, threads: threads, keeping: keeping,
                                            observer: observer, grouping: groupLocations)
        }
        let spanning = try spanningTree(consume points, parameters: parameters, grouping: groupLocations,
                                        threads: threads, observer: observer)
        return hierarchy(consume spanning, parameters: parameters, threads: threads, keeping: keeping,
                         observer: observer)
    }

    /// `fit` with `HDBSCANOutputs.prediction`: the stages one by one, so that the model takes
    /// the fit's own index and reads its sites' core distances off the fit's neighbour lists.
    private static func fitKeepingPrediction(
        _ points: consuming PointSet, parameters: HDBSCANParameters, threads: Int, keeping: HDBSCANOutputs,
        observer: some StageObserver, grouping: Bool
    ) throws(ClusterCoreError) -> HDBSCANResult {
        let kept = copy points
        let indexed = indexStage(consume points, grouping: grouping, canonical: parameters.ties == .oneAtATime,
                                 threads: threads, observer: observer)
        let nearest = try coreDistanceStage(indexed, parameters: parameters, threads: threads, observer: observer)
        let siteCore2 = try PredictionModel.siteCore2(indexed, nearest, m: PredictionModel.neighbourNumber(parameters),
                                                      threads: threads)
        let spanning = mstStage(copy indexed, consume nearest, threads: threads, observer: observer)
        var result = hierarchy(consume spanning, parameters: parameters, threads: threads,
                               keeping: keeping.union(.clusterTree), observer: observer)
        result.prediction = try PredictionModel(sites: Sites(indexed.locations, points: kept), index: .plane(indexed.tree),
                                                core2ByPosition: siteCore2, result: result, parameters: parameters)
        if keeping.isDisjoint(with: [.condensedTree, .clusterTree]) { result.condensedTree = nil }
        return result
    }

    /// The stages after the MST, on any spanning tree: single linkage (`given`, when the caller
    /// built it from `spanning`), condense, select, label.
    static func hierarchy(
        _ spanning: consuming SpanningTree, linkage given: consuming SingleLinkageTree? = nil,
        parameters: HDBSCANParameters, threads: Int, keeping: HDBSCANOutputs, observer: some StageObserver
    ) -> HDBSCANResult {
        var spanning = spanning
        if keeping.contains(.linkage) { spanning = spanning.overPoints() }
        let mst = keeping.contains(.mst) ? spanning.pointMST() : nil
        let mstWeight = spanning.totalWeight, coreByRow = spanning.coreByRow
        let linkage = given ?? linkageStage(spanning, threads: threads, observer: observer)
        let keptLinkage = keeping.contains(.linkage) ? linkage : nil
        // Without the condensed tree in the result, its point rows are not written: the
        // labelling reads where each leaf falls out instead.
        let condensed = condenseStage(consume linkage, minClusterSize: parameters.minClusterSize, ties: parameters.ties,
                                      pointRows: keeping.contains(.condensedTree), threads: threads, observer: observer)
        // The spanning tree goes only now, with the linkage: the condense stage allocates
        // before either is freed, and the labelling after both are.
        _ = consume spanning
        let selected = observer.run(HDBSCANStage.select) { ClusterSelection.select(condensed, options: parameters.selection) }
        let labeling = observer.run(HDBSCANStage.label) {
            Labeling(tree: condensed, selected: selected, allowSingleCluster: parameters.selection.allowSingleCluster,
                     epsilon: parameters.selection.epsilon, threads: threads)
        }
        return HDBSCANResult(labeling: labeling, coreDistances: coreByRow, mst: mst, mstWeight: mstWeight,
                             linkage: keptLinkage, condensedTree: keeping.isDisjoint(with: [.condensedTree, .clusterTree]) ? nil : condensed,
                             selectedClusters: selected)
    }

    /// Single linkage over the spanning tree's leaves.
    static func linkageStage(
        _ spanning: SpanningTree, threads: Int, observer: some StageObserver
    ) -> SingleLinkageTree {
        observer.run(HDBSCANStage.linkage) { SingleLinkageTree(spanning: spanning, threads: threads) }
    }

    /// The condensed tree (the linkage is released on return, after the stage's time, unless
    /// the caller keeps it), with the leaf of each row noted for the labelling when its leaves
    /// are locations.
    static func condenseStage(
        _ linkage: consuming SingleLinkageTree, minClusterSize: Int, ties: TieRule, pointRows: Bool, threads: Int,
        observer: some StageObserver
    ) -> CondensedTree {
        let linkage = linkage
        var tree = withExtendedLifetime(linkage) {
            observer.run(HDBSCANStage.condense) {
                CondensedTree(linkage: linkage, minClusterSize: minClusterSize, ties: ties, pointRows: pointRows, threads: threads)
            }
        }
        tree.indexRowsByLeaf(linkage.locations, threads: threads)
        return tree
    }
}
