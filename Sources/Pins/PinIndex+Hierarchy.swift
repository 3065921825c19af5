// Step 2 of the build (PinIndex.swift's header): the single-linkage hierarchy as an MST.

import ClusterCore

extension PinIndex {
    /// Step 2, hierarchy: takes the locations' displayed positions in Mercator units (in
    /// canonical order) and returns the minimum spanning tree of the single-linkage
    /// hierarchy, edges by ascending weight: the Euclidean MST (from the Delaunay
    /// triangulation) when `minSamples` is 1 or 2, else HDBSCAN's mutual-reachability MST.
    /// For 2 the two are the same tree with the same weights: a point's core distance is then
    /// its nearest neighbour's distance, which no MST edge at the point is shorter than.
    /// - Throws: `PinError.invalidParameter` (on `minSamples`) when ClusterCore refuses.
    static func hierarchy(xs: [Double], ys: [Double], options: PinOptions) throws(PinError) -> MinimumSpanningTree {
        do {
            if options.minSamples <= 2 {
                return try MinimumSpanningTree.euclidean(xs: xs, ys: ys, threads: options.threads)
            }
            return try HDBSCAN.minimumSpanningTree(try PointSet(xs: xs, ys: ys), minSamples: min(options.minSamples, max(xs.count, 1)),
                                                   threads: options.threads).mst
        } catch {
            throw .invalidParameter(name: "minSamples", value: "\(options.minSamples)", requirement: "\(error)")
        }
    }
}
