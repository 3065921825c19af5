// HDBSCAN for C callers: one fit returns a handle that owns the result; accessors copy its
// arrays into buffers the caller allocated (sized by the count accessors); gc_hdbscan_free
// releases it. The declarations and their documentation: python/geocluster/_capi.h.
import ClusterCore

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

    init(result: HDBSCANResult, distanceScale: Double = 1, model: PredictionModel? = nil, weights: [Double]? = nil) {
        self.distanceScale = distanceScale
        self.model = model
        self.weights = weights
        // The core distances are no output of the C API: not kept for the handle's lifetime.
        var kept = result
        kept.coreDistances = []
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
private func fit(_ handle: UnsafeRawPointer?) -> HDBSCANFit? {
    guard let handle else { return nil }
    return Unmanaged<HDBSCANFit>.fromOpaque(handle).takeUnretainedValue()
}

/// The parameters as the core takes them; negative `minSamples` and `maxClusterSize` mean
/// unset, as `None` does in scikit-learn.
private func hdbscanParameters(
    minClusterSize: Int64, minSamples: Int64, epsilon: Double, maxClusterSize: Int64,
    selectionMethod: Int32, allowSingleCluster: Int32, ties: Int32
) throws(CAPIError) -> HDBSCANParameters {
    let method: SelectionMethod
    switch selectionMethod {
    case 0: method = .excessOfMass
    case 1: method = .leaf
    default: throw CAPIError(.invalidArgument, "selection_method = \(selectionMethod) is invalid: 0 (eom) or 1 (leaf)")
    }
    let rule: TieRule
    switch ties {
    case 0: rule = .allAtOnce
    case 1: rule = .oneAtATime
    default: throw CAPIError(.invalidArgument, "ties = \(ties) is invalid: 0 (all at once) or 1 (one at a time)")
    }
    let parameters = HDBSCANParameters(
        minClusterSize: Int(minClusterSize), minSamples: minSamples < 0 ? nil : Int(minSamples),
        minSamplesConvention: .sklearn,
        selection: SelectionOptions(method: method, epsilon: epsilon, allowSingleCluster: allowSingleCluster != 0,
                                    maxClusterSize: maxClusterSize < 0 ? nil : Int(maxClusterSize)),
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
    guard outputs >= 0 && outputs <= 7 else {
        throw CAPIError(.invalidArgument, "outputs = \(outputs) is invalid: a combination of GC_OUTPUT_MST (1), GC_OUTPUT_CONDENSED_TREE (2) and GC_OUTPUT_PREDICTION (4)")
    }
    var keeping: HDBSCANOutputs = []
    if outputs & 1 != 0 { keeping.insert(.mst) }
    if outputs & 2 != 0 { keeping.insert(.clusterTree) }
    if outputs & 4 != 0 { keeping.insert(.prediction) }
    return keeping
}

@_cdecl("gc_hdbscan_fit")
public func gc_hdbscan_fit(
    _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ n: Int64, _ stride: Int64,
    _ sampleWeight: UnsafePointer<Double>?, _ minClusterSize: Int64, _ minSamples: Int64, _ clusterSelectionEpsilon: Double, _ maxClusterSize: Int64,
    _ selectionMethod: Int32, _ allowSingleCluster: Int32, _ ties: Int32, _ threads: Int64, _ outputs: Int32,
    _ out: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    hdbscanFit(out: out, message: message, capacity: messageCapacity, epsilon: clusterSelectionEpsilon,
               weights: readWeights(sampleWeight, n: n),
               minClusterSize: minClusterSize, minSamples: minSamples, maxClusterSize: maxClusterSize,
               selectionMethod: selectionMethod, allowSingleCluster: allowSingleCluster, ties: ties, threads: threads,
               outputs: outputs) { () throws(CAPIError) in
        Points.planar(try readPoints(x: x, y: y, n: n, stride: stride))
    }
}

/// `gc_hdbscan_fit` by great-circle distance: x latitudes, y longitudes, in radians, and
/// every distance in radians (scikit-learn's `metric="haversine"`).
@_cdecl("gc_hdbscan_fit_haversine")
public func gc_hdbscan_fit_haversine(
    _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ n: Int64, _ stride: Int64,
    _ sampleWeight: UnsafePointer<Double>?, _ minClusterSize: Int64, _ minSamples: Int64, _ clusterSelectionEpsilon: Double, _ maxClusterSize: Int64,
    _ selectionMethod: Int32, _ allowSingleCluster: Int32, _ ties: Int32, _ threads: Int64, _ outputs: Int32,
    _ out: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    hdbscanFit(out: out, message: message, capacity: messageCapacity,
               epsilon: clusterSelectionEpsilon * SpherePoints.earthRadius, weights: readWeights(sampleWeight, n: n),
               minClusterSize: minClusterSize, minSamples: minSamples, maxClusterSize: maxClusterSize,
               selectionMethod: selectionMethod, allowSingleCluster: allowSingleCluster, ties: ties, threads: threads,
               outputs: outputs) { () throws(CAPIError) in
        Points.sphere(try readSpherePoints(latitudes: x, longitudes: y, n: n, stride: stride))
    }
}

/// The points of a fit: planar, or on the sphere.
enum Points {
    case planar(PointSet)
    case sphere(SpherePoints)
}

/// Both HDBSCAN exports: parameters checked first, then the points read and fitted.
private func hdbscanFit(
    out: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, message: UnsafeMutablePointer<CChar>?, capacity: Int64,
    epsilon: Double, weights: [Double]?, minClusterSize: Int64, minSamples: Int64, maxClusterSize: Int64, selectionMethod: Int32,
    allowSingleCluster: Int32, ties: Int32, threads: Int64, outputs: Int32, points read: () throws(CAPIError) -> Points
) -> Int32 {
    reportingErrors(message: message, capacity: capacity) { () throws(CAPIError) in
        guard let out else { throw CAPIError(.invalidArgument, "out must not be null") }
        out.pointee = nil
        let parameters = try hdbscanParameters(
            minClusterSize: minClusterSize, minSamples: minSamples, epsilon: epsilon,
            maxClusterSize: maxClusterSize, selectionMethod: selectionMethod, allowSingleCluster: allowSingleCluster,
            ties: ties)
        let workers = try checkedThreads(threads)
        let keeping = try kept(outputs)
        let points = try read()
        var result: HDBSCANResult, scale: Double
        do throws(ClusterCoreError) {
            switch points {
            case let .planar(p):
                result = try HDBSCAN.fit(p, parameters: parameters, sampleWeight: weights, threads: workers, keeping: keeping)
                scale = 1
            case let .sphere(p):
                result = try HDBSCAN.fit(p, parameters: parameters, sampleWeight: weights, threads: workers, keeping: keeping)
                scale = 1 / SpherePoints.earthRadius
            }
        } catch {
            throw CAPIError(error)
        }
        let model = result.prediction
        result.prediction = nil
        out.pointee = Unmanaged.passRetained(HDBSCANFit(result: result, distanceScale: scale, model: model,
                                                        weights: weights)).toOpaque()
    }
}

@_cdecl("gc_hdbscan_free")
public func gc_hdbscan_free(_ handle: UnsafeMutableRawPointer?) {
    guard let handle else { return }
    Unmanaged<HDBSCANFit>.fromOpaque(handle).release()
}

@_cdecl("gc_hdbscan_point_count")
public func gc_hdbscan_point_count(_ handle: UnsafeRawPointer?) -> Int64 {
    Int64(fit(handle)?.result.labeling.labels.count ?? 0)
}

@_cdecl("gc_hdbscan_cluster_count")
public func gc_hdbscan_cluster_count(_ handle: UnsafeRawPointer?) -> Int64 {
    Int64(fit(handle)?.result.labeling.clusterCount ?? 0)
}

@_cdecl("gc_hdbscan_condensed_tree_row_count")
public func gc_hdbscan_condensed_tree_row_count(_ handle: UnsafeRawPointer?) -> Int64 {
    guard let tree = fit(handle)?.result.condensedTree else { return 0 }
    return Int64(tree.parent.count + (tree.hasPointRows ? 0 : tree.pointCount))
}

@_cdecl("gc_hdbscan_mst_edge_count")
public func gc_hdbscan_mst_edge_count(_ handle: UnsafeRawPointer?) -> Int64 {
    Int64(fit(handle)?.result.mst?.count ?? 0)
}

@_cdecl("gc_hdbscan_copy_labels")
public func gc_hdbscan_copy_labels(
    _ handle: UnsafeRawPointer?, _ labels: UnsafeMutablePointer<Int32>?,
    _ probabilities: UnsafeMutablePointer<Double>?, _ outlierScores: UnsafeMutablePointer<Double>?
) {
    guard let labeling = fit(handle)?.result.labeling else { return }
    copy(labeling.labels, to: labels)
    copy(labeling.probabilities, to: probabilities)
    copy(labeling.outlierScores, to: outlierScores)
}

@_cdecl("gc_hdbscan_copy_cluster_persistence")
public func gc_hdbscan_copy_cluster_persistence(_ handle: UnsafeRawPointer?, _ persistence: UnsafeMutablePointer<Double>?) {
    guard let fit = fit(handle) else { return }
    copy(fit.persistence(), to: persistence)
}

@_cdecl("gc_hdbscan_copy_condensed_tree")
public func gc_hdbscan_copy_condensed_tree(
    _ handle: UnsafeRawPointer?, _ parent: UnsafeMutablePointer<Int64>?, _ child: UnsafeMutablePointer<Int64>?,
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
    _ handle: UnsafeRawPointer?, _ a: UnsafeMutablePointer<Int64>?, _ b: UnsafeMutablePointer<Int64>?,
    _ weight: UnsafeMutablePointer<Double>?
) {
    guard let held = fit(handle), let mst = held.result.mst else { return }
    widen(mst.a, to: a)
    widen(mst.b, to: b)
    copy(held.distanceScale == 1 ? mst.weight : mst.weight.map { $0 * held.distanceScale }, to: weight)
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
