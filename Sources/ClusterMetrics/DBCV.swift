#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc  // log, exp, pow, sin, cos (FoundationEssentials does not re-export them)
#endif

/// Density-based clustering validation: internal indices that score one labeling of planar
/// points by how dense its clusters are against how sparse the space between them is.
/// Values lie in [-1, 1], higher is better; noise points (-1) count in the total but belong to
/// no cluster.
public enum DBCV {
    /// The DBCV index of Moulavi, Jaskowiak, Campello, Zimek & Sander (2014), exactly as
    /// `hdbscan.validity.validity_index(X, labels)` computes it (hdbscan 0.8.44) with
    /// Euclidean distances in two dimensions:
    ///
    /// - all-points core distance of a point in a cluster of m points:
    ///   `(Σ_{other, distance ≠ 0} (1/d)² / (m − 1))^(−1/2)`; all 0 when every distance is 0;
    /// - mutual reachability inside a cluster: `max(d, core_a, core_b)`; its minimum spanning
    ///   tree by the library's dense Prim from the cluster's first point (first minimum wins);
    ///   then, as the library does, each edge after the first is re-attached to the
    ///   lowest-numbered earlier tree node whose reachability to the new node is within
    ///   `1e-8 + 1e-5 · weight` of the edge weight (`numpy.isclose`);
    /// - internal nodes: nodes of degree > 1 in that tree (the first node when there are none);
    ///   density sparseness: the largest weight among edges joining two internal nodes (all
    ///   edges when there are none);
    /// - density separation of two clusters: the smallest `max(d, core_a, core_b)` between
    ///   their internal nodes;
    /// - validity of a cluster: `(sep − sparseness) / max(sep, sparseness)` with `sep` its
    ///   smallest separation; the index: Σ (cluster size / all points) · validity.
    ///
    /// So, like the library: NaN with exactly one cluster (its separation is infinite), 0 with
    /// none. Clusters are the labels `0...max`; absent labels are skipped.
    ///
    /// The library gets distances from scikit-learn's `pairwise_distances` (`|x|² + |y|² − 2x·y`),
    /// which differs from the direct `sqrt(dx² + dy²)` used here by rounding (up to ~1e-6
    /// relative for points much closer than their distance from the origin); on integer
    /// coordinates both are exact and the values agree to ~1e-15.
    /// - Throws: `MetricsError` for mismatched lengths, a non-finite coordinate, a label below
    ///   -1, or a cluster of a single point (the library fails on it as well).
    /// - Complexity: O(Σ m²) time over clusters of m points for the trees, plus
    ///   O(Σ_{pairs} |internal_a| · |internal_b|) for the separations; O(n) memory.
    public static func validityIndex(xs: [Double], ys: [Double], labels: [Int32]) throws(MetricsError) -> Double {
        let n = labels.count
        guard xs.count == n else { throw .mismatchedLengths(what: "x coordinates", expected: n, found: xs.count) }
        guard ys.count == n else { throw .mismatchedLengths(what: "y coordinates", expected: n, found: ys.count) }
        for i in 0..<n where !(xs[i].isFinite && ys[i].isFinite) { throw .nonFiniteCoordinate(row: i) }
        var maxLabel: Int32 = -1
        for i in 0..<n {
            if labels[i] < -1 { throw .invalidLabel(row: i, value: labels[i], requirement: "use -1 for noise and 0, 1, … for clusters") }
            maxLabel = max(maxLabel, labels[i])
        }
        let k = Int(maxLabel) + 1
        var members = [[Int]](repeating: [], count: k)
        for i in 0..<n where labels[i] >= 0 { members[Int(labels[i])].append(i) }

        var core = [[Double]](repeating: [], count: k)
        var internalNodes = [[Int]](repeating: [], count: k)  // input rows
        var sparseness = [Double](repeating: 0, count: k)
        for c in 0..<k where !members[c].isEmpty {
            let m = members[c]
            if m.count == 1 { throw .clusterTooSmall(label: Int32(c), size: 1) }
            let cd = allPointsCoreDistances(m, xs, ys)
            core[c] = cd
            let (nodes, weight) = internalTree(m, cd, xs, ys)
            internalNodes[c] = nodes.map { m[$0] }
            sparseness[c] = weight
        }
        // Core distances by input row, for the separations.
        var coreOfRow = [Double](repeating: 0, count: n)
        for c in 0..<k { for (j, row) in members[c].enumerated() { coreOfRow[row] = core[c][j] } }

        var separation = [Double](repeating: .infinity, count: k)
        for a in 0..<k where !members[a].isEmpty {
            for b in (a + 1)..<k where !members[b].isEmpty {
                var best = Double.infinity
                for p in internalNodes[a] {
                    for q in internalNodes[b] {
                        let dx = xs[p] - xs[q], dy = ys[p] - ys[q]
                        best = min(best, max((dx * dx + dy * dy).squareRoot(), coreOfRow[p], coreOfRow[q]))
                    }
                }
                separation[a] = min(separation[a], best)
                separation[b] = min(separation[b], best)
            }
        }
        var result = 0.0
        for c in 0..<k where !members[c].isEmpty {
            let sep = separation[c], sp = sparseness[c]
            let validity = (sep - sp) / max(sep, sp)
            result += Double(members[c].count) / Double(n) * validity
        }
        return result
    }

    /// `all_points_core_distance` with d = 2 for the cluster whose rows are `m`.
    static func allPointsCoreDistances(_ m: [Int], _ xs: [Double], _ ys: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: m.count)
        var total = 0.0
        for (i, p) in m.enumerated() {
            var s = 0.0
            for q in m {
                let dx = xs[p] - xs[q], dy = ys[p] - ys[q]
                let d = (dx * dx + dy * dy).squareRoot()
                if d != 0 { let inv = 1 / d; s += inv * inv }
            }
            out[i] = s / Double(m.count - 1)
            total += out[i]
        }
        if total == 0 { return [Double](repeating: 0, count: m.count) }
        return out.map { pow($0, -0.5) }
    }

    /// The library's `internal_minimum_spanning_tree`: internal nodes (indices into `m`) and
    /// the density sparseness.
    static func internalTree(_ m: [Int], _ core: [Double], _ xs: [Double], _ ys: [Double]) -> (nodes: [Int], sparseness: Double) {
        let count = m.count
        @inline(__always) func reach(_ i: Int, _ j: Int) -> Double {
            let dx = xs[m[i]] - xs[m[j]], dy = ys[m[i]] - ys[m[j]]
            return max((dx * dx + dy * dy).squareRoot(), core[i], core[j])
        }
        // mst_linkage_core: dense Prim from node 0.
        var inTree = [Bool](repeating: false, count: count)
        var best = [Double](repeating: .greatestFiniteMagnitude, count: count)
        var source = [Int](repeating: 0, count: count)
        var from = [Int](), to = [Int](), weight = [Double]()
        var current = 0
        for _ in 1..<count {
            inTree[current] = true
            var newDistance = Double.greatestFiniteMagnitude, newNode = 0, sourceNode = 0
            for j in 0..<count where !inTree[j] {
                let d = reach(current, j)
                if d < best[j] { best[j] = d; source[j] = current }
                if best[j] < newDistance { newDistance = best[j]; sourceNode = source[j]; newNode = j }
            }
            from.append(sourceNode); to.append(newNode); weight.append(newDistance)
            current = newNode
        }
        // Re-attach each edge after the first to the lowest earlier node at (numpy.isclose)
        // the edge's weight from the new node. The earlier nodes are those of the original
        // rows before it: node 0 and the nodes added so far.
        var seen = [Bool](repeating: false, count: count)
        var edgeFrom = from
        if !from.isEmpty { seen[from[0]] = true; seen[to[0]] = true }
        for e in from.indices.dropFirst() {
            let w = weight[e], v = to[e]
            var chosen = -1
            for j in 0..<count where seen[j] && j != v {
                if abs(reach(v, j) - w) <= 1e-8 + 1e-5 * abs(w) { chosen = j; break }
            }
            // The library asserts a candidate exists; the Prim source always qualifies.
            edgeFrom[e] = chosen >= 0 ? chosen : from[e]
            seen[from[e]] = true; seen[v] = true
        }
        var degree = [Int](repeating: 0, count: count)
        for e in from.indices { degree[edgeFrom[e]] += 1; degree[to[e]] += 1 }
        var isInternal = degree.map { $0 > 1 }
        if !isInternal.contains(true) { isInternal[0] = true }
        var sparse = -Double.infinity, any = false
        for e in from.indices where isInternal[edgeFrom[e]] && isInternal[to[e]] {
            sparse = max(sparse, weight[e]); any = true
        }
        if !any { sparse = weight.max() ?? 0 }
        return ((0..<count).filter { isInternal[$0] }, sparse)
    }

    /// The hdbscan library's `relative_validity_`: a fast DBCV-like score computed only from
    /// the edges of a mutual-reachability minimum spanning tree (as HDBSCAN builds it) and the
    /// labels. Per cluster: density sparseness = the largest edge inside it, separation = the
    /// smallest edge to another cluster; a cluster with no such edge gets twice the largest MST
    /// weight (with one cluster: twice the smallest edge to a noise point, or the largest
    /// weight); then Σ (size / all points) · (sep − sparseness) / max(sep, sparseness). 0 when
    /// every point is noise.
    /// - Parameters:
    ///   - from, to: the endpoints (input rows) of each MST edge.
    ///   - weight: each edge's mutual-reachability distance (metres).
    /// - Throws: `MetricsError` when the edge arrays differ in length, an edge names a row
    ///   outside the labels or has a NaN or negative weight, or a label is below -1.
    /// - Complexity: O(n + edges).
    public static func relativeValidity(labels: [Int32], from: [Int32], to: [Int32], weight: [Double]) throws(MetricsError) -> Double {
        let n = labels.count
        guard to.count == from.count else { throw .mismatchedLengths(what: "MST edge ends", expected: from.count, found: to.count) }
        guard weight.count == from.count else { throw .mismatchedLengths(what: "MST weights", expected: from.count, found: weight.count) }
        var maxLabel: Int32 = -1
        for i in 0..<n {
            if labels[i] < -1 { throw .invalidLabel(row: i, value: labels[i], requirement: "use -1 for noise and 0, 1, … for clusters") }
            maxLabel = max(maxLabel, labels[i])
        }
        for e in from.indices {
            guard from[e] >= 0 && Int(from[e]) < n && to[e] >= 0 && Int(to[e]) < n else {
                throw .invalidEdge(index: e, reason: "joins rows \(from[e]) and \(to[e]) but there are \(n) labels")
            }
            guard weight[e] >= 0 else { throw .invalidEdge(index: e, reason: "weight \(weight[e]) is not a distance >= 0") }
        }
        let k = Int(maxLabel) + 1
        var size = [Int](repeating: 0, count: k)
        for l in labels where l >= 0 { size[Int(l)] += 1 }
        var sparse = [Double](repeating: 0, count: k)
        var separation = [Double](repeating: .infinity, count: k)
        var minOutlierSeparation = Double.infinity
        let maxDistance = weight.max() ?? 0
        for e in from.indices {
            let a = labels[Int(from[e])], b = labels[Int(to[e])], w = weight[e]
            if (a == -1) != (b == -1) {
                minOutlierSeparation = min(minOutlierSeparation, w)
            } else if a != -1 {
                if a == b {
                    sparse[Int(a)] = max(sparse[Int(a)], w)
                } else {
                    separation[Int(a)] = min(separation[Int(a)], w)
                    separation[Int(b)] = min(separation[Int(b)], w)
                }
            }
        }
        if minOutlierSeparation == .infinity { minOutlierSeparation = maxDistance }
        let correction = 2 * (k > 1 ? maxDistance : minOutlierSeparation)
        var score = 0.0
        for c in 0..<k {
            let sep = separation[c] == .infinity ? correction : separation[c]
            let validity = (sep - sparse[c]) / max(sep, sparse[c])
            score += Double(size[c]) * validity / Double(n)
        }
        return score
    }
}
