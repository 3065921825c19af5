// HDBSCAN for C callers: one fit returns a handle that owns the result; accessors copy its
// arrays into buffers the caller allocated (sized by the count accessors); gc_hdbscan_free
// releases it. The declarations and their documentation: GeoclusterCHeader's geocluster.h.
import ClusterCore
import GeoclusterCHeader

/// One fit's result, owned by the C caller through an opaque handle. The condensed tree is
/// kept without its point rows (the fit then costs what the CLI's does); the copy functions
/// write them from `CondensedTree.fallingOut()` when asked.
final class HDBSCANFit {
    let result: HDBSCANResult
    /// What a distance of the result is multiplied by on the way out: 1, or 1/R for a
    /// haversine fit (the core measures metres; the caller gave and gets radians).
    let distanceScale: Double
    /// What prediction needs, when the fit was asked for it (GC_OUTPUT_PREDICTION).
    let model: PredictionModel?
    /// The points' sample weights, when the fit had them: a point's row in the condensed tree
    /// carries its weight as its size.
    let weights: [Double]?

    init(result: HDBSCANResult, distanceScale: Double = 1, model: PredictionModel? = nil, weights: [Double]? = nil,
         coreDistances: Bool = false) {
        self.distanceScale = distanceScale
        self.model = model
        self.weights = weights
        // The core distances are kept for the handle's lifetime only when asked for
        // (GC_OUTPUT_CORE_DISTANCES).
        var kept = result
        if !coreDistances { kept.coreDistances = [] }
        self.result = kept
    }

    /// The hdbscan library's cluster persistence (`get_stability_scores`): a selected
    /// cluster's stability divided by its number of labelled points times the largest lambda
    /// of the whole condensed tree (the largest of the clusters' own largest lambdas); 1 where
    /// that lambda is 0 or infinite or the cluster has no labelled point.
    func persistence() -> [Double] {
        guard let tree = result.condensedTree else { return [] }
        let selected = result.selectedClusters
        var sizes = [Int](repeating: 0, count: selected.count)
        for l in result.labeling.labels where l >= 0 { sizes[Int(l)] += 1 }
        let maxLambda = tree.maxLambda.max() ?? 0
        return selected.indices.map { i in
            if !maxLambda.isFinite || maxLambda == 0 || sizes[i] == 0 { return 1 }
            return tree.stability[Int(selected[i]) - tree.pointCount] / (Double(sizes[i]) * maxLambda)
        }
    }
}

/// The handle's object (the caller passes back what `gc_hdbscan_fit` gave it); nil for NULL,
/// which every accessor treats as an empty result rather than crashing.
func fit(_ handle: OpaquePointer?) -> HDBSCANFit? {
    guard let handle else { return nil }
    return Unmanaged<HDBSCANFit>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

/// The parameters as the core takes them; negative `min_samples` and `max_cluster_size` mean
/// unset, as `None` does in scikit-learn. `distanceScale` turns the caller's distances into
/// the core's (metres per radian on the sphere).
private func hdbscanParameters(_ p: gc_hdbscan_params, distanceScale: Double) throws(CAPIError) -> HDBSCANParameters {
    let method: SelectionMethod
    switch p.selection_method {
    case GC_SELECTION_EOM: method = .excessOfMass
    case GC_SELECTION_LEAF: method = .leaf
    default: throw CAPIError(.invalidArgument, "selection_method = \(p.selection_method) is invalid: 0 (eom) or 1 (leaf)")
    }
    let rule: TieRule
    switch p.ties {
    case GC_TIES_ALL_AT_ONCE: rule = .allAtOnce
    case GC_TIES_ONE_AT_A_TIME: rule = .oneAtATime
    default: throw CAPIError(.invalidArgument, "ties = \(p.ties) is invalid: 0 (all at once) or 1 (one at a time)")
    }
    let parameters = HDBSCANParameters(
        minClusterSize: Int(p.min_cluster_size), minSamples: p.min_samples < 0 ? nil : Int(p.min_samples),
        minSamplesConvention: .sklearn,
        selection: SelectionOptions(method: method, epsilon: p.cluster_selection_epsilon * distanceScale,
                                    allowSingleCluster: p.allow_single_cluster != 0,
                                    maxClusterSize: p.max_cluster_size < 0 ? nil : Int(p.max_cluster_size)),
        ties: rule)
    do throws(ClusterCoreError) {
        try parameters.validate()
    } catch {
        throw CAPIError(error)
    }
    return parameters
}

/// The trees a fit keeps, from the header's GC_OUTPUT_* bits: each costs time and memory
/// (docs/python.md, "Speed").
private func kept(_ outputs: Int32) throws(CAPIError) -> HDBSCANOutputs {
    let every = GC_OUTPUT_MST | GC_OUTPUT_CONDENSED_TREE | GC_OUTPUT_PREDICTION | GC_OUTPUT_CORE_DISTANCES
    guard outputs & ~every == 0 else {
        throw CAPIError(.invalidArgument, "outputs = \(outputs) is invalid: a combination of GC_OUTPUT_MST (1), GC_OUTPUT_CONDENSED_TREE (2), GC_OUTPUT_PREDICTION (4) and GC_OUTPUT_CORE_DISTANCES (8)")
    }
    var keeping: HDBSCANOutputs = []
    if outputs & GC_OUTPUT_MST != 0 { keeping.insert(.mst) }
    if outputs & GC_OUTPUT_CONDENSED_TREE != 0 { keeping.insert(.clusterTree) }
    if outputs & GC_OUTPUT_PREDICTION != 0 { keeping.insert(.prediction) }
    return keeping
}

@_cdecl("gc_hdbscan_defaults")
public func gc_hdbscan_defaults() -> gc_hdbscan_params {
    let d = HDBSCANParameters()
    return gc_hdbscan_params(
        min_cluster_size: Int64(d.minClusterSize), min_samples: d.minSamples.map(Int64.init) ?? -1,
        cluster_selection_epsilon: d.selection.epsilon, max_cluster_size: d.selection.maxClusterSize.map(Int64.init) ?? -1,
        selection_method: d.selection.method == .leaf ? GC_SELECTION_LEAF : GC_SELECTION_EOM,
        allow_single_cluster: d.selection.allowSingleCluster ? 1 : 0,
        ties: d.ties == .oneAtATime ? GC_TIES_ONE_AT_A_TIME : GC_TIES_ALL_AT_ONCE,
        outputs: GC_OUTPUT_CONDENSED_TREE, threads: 1)
}

@_cdecl("gc_hdbscan_fit")
public func gc_hdbscan_fit(
    _ points: UnsafePointer<gc_points>?, _ sampleWeight: UnsafePointer<Double>?, _ params: UnsafePointer<gc_hdbscan_params>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        guard let out else { throw CAPIError(.invalidArgument, "out must not be null") }
        out.pointee = nil
        guard let params = params?.pointee else { throw CAPIError(.invalidArgument, "params must not be null") }
        let onSphere = points?.pointee.metric == GC_METRIC_HAVERSINE
        let parameters = try hdbscanParameters(params, distanceScale: onSphere ? SpherePoints.earthRadius : 1)
        let workers = try checkedThreads(params.threads)
        let keeping = try kept(params.outputs)
        let read = try Points(points)
        if keeping.contains(.prediction) && read.dimensions != 2 {
            throw CAPIError(.invalidParameter, "outputs: GC_OUTPUT_PREDICTION needs points of 2 dimensions, got dimensions = \(read.dimensions); fit without it")
        }
        let weights = readWeights(sampleWeight, n: read.count)
        var result: HDBSCANResult
        do throws(ClusterCoreError) {
            result = try HDBSCAN.fit(read, parameters: parameters, sampleWeight: weights, threads: workers, keeping: keeping)
        } catch {
            throw CAPIError(error)
        }
        let model = result.prediction
        result.prediction = nil
        let fitted = HDBSCANFit(result: result, distanceScale: onSphere ? 1 / SpherePoints.earthRadius : 1, model: model,
                                weights: weights, coreDistances: params.outputs & GC_OUTPUT_CORE_DISTANCES != 0)
        out.pointee = OpaquePointer(Unmanaged.passRetained(fitted).toOpaque())
    }
}

@_cdecl("gc_mutual_reachability_mst")
public func gc_mutual_reachability_mst(
    _ points: UnsafePointer<gc_points>?, _ minSamples: Int64, _ threads: Int64, _ a: UnsafeMutablePointer<Int64>?,
    _ b: UnsafeMutablePointer<Int64>?, _ weight: UnsafeMutablePointer<Double>?,
    _ coreDistances: UnsafeMutablePointer<Double>?, _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        let workers = try checkedThreads(threads)
        let read = try Points(points)
        let scale = read.isOnSphere ? 1 / SpherePoints.earthRadius : 1
        let tree: (mst: MinimumSpanningTree, coreDistances: [Double])
        do throws(ClusterCoreError) {
            tree = try HDBSCAN.minimumSpanningTree(read, minSamples: Int(minSamples), threads: workers)
        } catch {
            throw CAPIError(error)
        }
        widen(tree.mst.a, to: a)
        widen(tree.mst.b, to: b)
        copy(scale == 1 ? tree.mst.weight : tree.mst.weight.map { $0 * scale }, to: weight)
        copy(scale == 1 ? tree.coreDistances : tree.coreDistances.map { $0 * scale }, to: coreDistances)
    }
}

@_cdecl("gc_hdbscan_fit_tree")
public func gc_hdbscan_fit_tree(
    _ n: Int64, _ a: UnsafePointer<Int64>?, _ b: UnsafePointer<Int64>?, _ weight: UnsafePointer<Double>?,
    _ params: UnsafePointer<gc_hdbscan_params>?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        guard let out else { throw CAPIError(.invalidArgument, "out must not be null") }
        out.pointee = nil
        guard let params = params?.pointee else { throw CAPIError(.invalidArgument, "params must not be null") }
        guard n >= 0, n <= Int64(Int32.max) else { throw CAPIError(.invalidArgument, "n = \(n) is invalid: 0 ... \(Int32.max)") }
        let m = Int(max(0, n - 1))
        guard m == 0 || (a != nil && b != nil && weight != nil) else {
            throw CAPIError(.invalidArgument, "a, b and weight must not be null for n = \(n)")
        }
        let given = try GivenTree(params, outputs: GC_OUTPUT_MST | GC_OUTPUT_CONDENSED_TREE,
                                  named: "GC_OUTPUT_MST (1) and GC_OUTPUT_CONDENSED_TREE (2)",
                                  a: a, b: b, weight: weight, count: m, below: n)
        try given.fit(into: out) { () throws(ClusterCoreError) in
            try HDBSCAN.fit(spanningTree: given.tree, pointCount: Int(n), parameters: given.parameters,
                            threads: given.threads, keeping: given.keeping)
        }
    }
}

@_cdecl("gc_hdbscan_fit_located_tree")
public func gc_hdbscan_fit_located_tree(
    _ n: Int64, _ locationCount: Int64, _ locationOf: UnsafePointer<Int64>?, _ inner: UnsafePointer<Double>?,
    _ a: UnsafePointer<Int64>?, _ b: UnsafePointer<Int64>?, _ weight: UnsafePointer<Double>?,
    _ params: UnsafePointer<gc_hdbscan_params>?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        guard let out else { throw CAPIError(.invalidArgument, "out must not be null") }
        out.pointee = nil
        guard let params = params?.pointee else { throw CAPIError(.invalidArgument, "params must not be null") }
        guard n >= 0, n <= Int64(Int32.max), locationCount >= 0, locationCount <= max(n, 0) else {
            throw CAPIError(.invalidArgument, "n = \(n), location_count = \(locationCount) are invalid: 0 ... n ... \(Int32.max)")
        }
        let m = Int(max(0, locationCount - 1))
        guard (n == 0 || locationOf != nil) && (locationCount == 0 || inner != nil)
                && (m == 0 || (a != nil && b != nil && weight != nil)) else {
            throw CAPIError(.invalidArgument, "location_of, inner, a, b and weight must not be null here")
        }
        let given = try GivenTree(params, outputs: GC_OUTPUT_CONDENSED_TREE, named: "GC_OUTPUT_CONDENSED_TREE (2)",
                                  a: a, b: b, weight: weight, count: m, below: locationCount)
        let locations = try narrowed(locationOf, count: Int(n), below: locationCount) { i, v in
            "location_of[\(i)] = \(v), outside 0 ..< \(locationCount)"
        }
        let inners = locationCount == 0 ? [] : Array(UnsafeBufferPointer(start: inner, count: Int(locationCount)))
        try given.fit(into: out) { () throws(ClusterCoreError) in
            try HDBSCAN.fit(locationTree: given.tree, locationOf: locations, inner: inners, parameters: given.parameters,
                            threads: given.threads, keeping: given.keeping)
        }
    }
}

/// What the fits over a tree computed elsewhere read: the parameters (min_samples unused: the
/// weights hold the core distances), the threads, the outputs to keep (among `outputs`), and
/// the tree's `count` edges between ends in 0 ..< `limit`.
private struct GivenTree {
    let parameters: HDBSCANParameters
    let threads: Int
    let keeping: HDBSCANOutputs
    let tree: MinimumSpanningTree

    init(_ params: gc_hdbscan_params, outputs allowed: Int32, named: String, a: UnsafePointer<Int64>?,
         b: UnsafePointer<Int64>?, weight: UnsafePointer<Double>?, count m: Int, below limit: Int64) throws(CAPIError) {
        guard params.outputs & ~allowed == 0 else {
            throw CAPIError(.invalidArgument, "outputs = \(params.outputs) is invalid here: \(named) only")
        }
        var given = params
        given.min_samples = -1
        parameters = try hdbscanParameters(given, distanceScale: 1)
        threads = try checkedThreads(params.threads)
        tree = MinimumSpanningTree(a: try ends(a, count: m, n: limit), b: try ends(b, count: m, n: limit),
                                   weight: m == 0 ? [] : Array(UnsafeBufferPointer(start: weight, count: m)))
        keeping = try kept(params.outputs)
    }

    /// `fit`'s result as a new handle in `out`.
    func fit(into out: UnsafeMutablePointer<OpaquePointer?>, _ fit: () throws(ClusterCoreError) -> HDBSCANResult) throws(CAPIError) {
        do throws(ClusterCoreError) {
            out.pointee = OpaquePointer(Unmanaged.passRetained(HDBSCANFit(result: try fit())).toOpaque())
        } catch {
            throw CAPIError(error)
        }
    }
}

/// An edge end array as rows (checked to lie in 0 ..< n, which also fits Int32).
private func ends(_ values: UnsafePointer<Int64>?, count: Int, n: Int64) throws(CAPIError) -> [Int32] {
    try narrowed(values, count: count, below: n) { i, v in "tree: edge \(i) has end \(v), outside 0 ..< \(n)" }
}

/// Values checked to lie in 0 ..< limit (which also fits Int32); `refusal` words the first
/// one outside (its index and value).
private func narrowed(
    _ values: UnsafePointer<Int64>?, count: Int, below limit: Int64, refusal: (Int, Int64) -> String
) throws(CAPIError) -> [Int32] {
    guard let values, count > 0 else { return [] }
    var out = [Int32](repeating: 0, count: count)
    for i in 0..<count {
        let v = values[i]
        guard v >= 0, v < limit else { throw CAPIError(.invalidParameter, refusal(i, v)) }
        out[i] = Int32(v)
    }
    return out
}

@_cdecl("gc_hdbscan_free")
public func gc_hdbscan_free(_ handle: OpaquePointer?) {
    guard let handle else { return }
    Unmanaged<HDBSCANFit>.fromOpaque(UnsafeRawPointer(handle)).release()
}

@_cdecl("gc_hdbscan_point_count")
public func gc_hdbscan_point_count(_ handle: OpaquePointer?) -> Int64 {
    Int64(fit(handle)?.result.labeling.labels.count ?? 0)
}

@_cdecl("gc_hdbscan_cluster_count")
public func gc_hdbscan_cluster_count(_ handle: OpaquePointer?) -> Int64 {
    Int64(fit(handle)?.result.labeling.clusterCount ?? 0)
}

@_cdecl("gc_hdbscan_condensed_tree_row_count")
public func gc_hdbscan_condensed_tree_row_count(_ handle: OpaquePointer?) -> Int64 {
    guard let tree = fit(handle)?.result.condensedTree else { return 0 }
    return Int64(tree.parent.count + (tree.hasPointRows ? 0 : tree.pointCount))
}

@_cdecl("gc_hdbscan_mst_edge_count")
public func gc_hdbscan_mst_edge_count(_ handle: OpaquePointer?) -> Int64 {
    Int64(fit(handle)?.result.mst?.count ?? 0)
}

@_cdecl("gc_hdbscan_copy_labels")
public func gc_hdbscan_copy_labels(
    _ handle: OpaquePointer?, _ labels: UnsafeMutablePointer<Int32>?,
    _ probabilities: UnsafeMutablePointer<Double>?, _ outlierScores: UnsafeMutablePointer<Double>?
) {
    guard let labeling = fit(handle)?.result.labeling else { return }
    copy(labeling.labels, to: labels)
    copy(labeling.probabilities, to: probabilities)
    copy(labeling.outlierScores, to: outlierScores)
}

@_cdecl("gc_hdbscan_copy_cluster_persistence")
public func gc_hdbscan_copy_cluster_persistence(_ handle: OpaquePointer?, _ persistence: UnsafeMutablePointer<Double>?) {
    guard let fit = fit(handle) else { return }
    copy(fit.persistence(), to: persistence)
}

@_cdecl("gc_hdbscan_copy_condensed_tree")
public func gc_hdbscan_copy_condensed_tree(
    _ handle: OpaquePointer?, _ parent: UnsafeMutablePointer<Int64>?, _ child: UnsafeMutablePointer<Int64>?,
    _ lambda: UnsafeMutablePointer<Double>?, _ childSize: UnsafeMutablePointer<Int64>?
) {
    guard let held = fit(handle), let tree = held.result.condensedTree else { return }
    widen(tree.parent, to: parent)
    widen(tree.child, to: child)
    // lambda = 1/distance: scaled by the inverse of the distances' scale.
    let lambdaScale = 1 / held.distanceScale
    copy(lambdaScale == 1 ? tree.lambda : tree.lambda.map { $0 * lambdaScale }, to: lambda)
    widen(tree.childSize, to: childSize)
    if tree.hasPointRows { return }
    // The point rows after the cluster rows, in input-row order.
    let (cluster, leaving) = tree.fallingOut()
    let rows = tree.parent.count
    widen(cluster, to: parent.map { $0 + rows })
    copy(lambdaScale == 1 ? leaving : leaving.map { $0 * lambdaScale }, to: lambda.map { $0 + rows })
    for i in 0..<tree.pointCount {
        child?[rows + i] = Int64(i)
        childSize?[rows + i] = held.weights.map { Int64($0[i]) } ?? 1
    }
}

@_cdecl("gc_hdbscan_copy_mst")
public func gc_hdbscan_copy_mst(
    _ handle: OpaquePointer?, _ a: UnsafeMutablePointer<Int64>?, _ b: UnsafeMutablePointer<Int64>?,
    _ weight: UnsafeMutablePointer<Double>?
) {
    guard let held = fit(handle), let mst = held.result.mst else { return }
    widen(mst.a, to: a)
    widen(mst.b, to: b)
    copy(held.distanceScale == 1 ? mst.weight : mst.weight.map { $0 * held.distanceScale }, to: weight)
}

@_cdecl("gc_hdbscan_copy_core_distances")
public func gc_hdbscan_copy_core_distances(_ handle: OpaquePointer?, _ coreDistances: UnsafeMutablePointer<Double>?) {
    guard let held = fit(handle) else { return }
    let core = held.result.coreDistances
    copy(held.distanceScale == 1 ? core : core.map { $0 * held.distanceScale }, to: coreDistances)
}

/// Copies `values` to `destination` (skipped when null).
func copy<T>(_ values: [T], to destination: UnsafeMutablePointer<T>?) {
    guard let destination else { return }
    values.withUnsafeBufferPointer { source in
        if let base = source.baseAddress { destination.update(from: base, count: source.count) }
    }
}

/// Copies 32-bit ids to 64-bit slots (numpy's intp, the hdbscan library's id type).
private func widen(_ values: [Int32], to destination: UnsafeMutablePointer<Int64>?) {
    guard let destination else { return }
    for i in values.indices { destination[i] = Int64(values[i]) }
}
