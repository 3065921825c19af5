// The Euclidean minimum spanning tree (every core distance 0: minSamples 1) from the Delaunay
// triangulation, with Kruskal over its edges.
//
// Why the triangulation holds the tree: if an MST edge pq had a point r in the closed disc with
// diameter pq (r ≠ p, q), then |pr| < |pq| and |rq| < |pq|, so pq would be the unique heaviest
// edge of the cycle p–q–r and in no MST. So every MST edge has an empty closed diametral disc
// (a Gabriel edge), and a Gabriel edge is an edge of every Delaunay triangulation. Points at one
// position join their first one by edges of weight 0.

extension MinimumSpanningTree {
    /// The Euclidean MST of planar points: the tree of the mutual-reachability graph with
    /// every core distance 0 (`HDBSCAN.minimumSpanningTree(_:minSamples:)` with `minSamples`
    /// 1), with the same weights. Edges ascend by weight; equal weights by (a, b); a < b.
    ///
    /// Taken from the Delaunay triangulation (about 3n candidate edges, sorted once) when
    /// there is one; collinear points and the rare input the sweep cannot place go through
    /// Borůvka on the k-d tree instead, which is several times slower on map locations
    /// (docs/performance.md).
    /// - Parameters:
    ///   - xs: x coordinates, finite, one per point (row).
    ///   - ys: y coordinates, finite, one per point (row).
    ///   - threads: for the Borůvka fallback; the result is the same for any value.
    /// - Complexity: O(n log n) expected.
    public static func euclidean(xs: [Double], ys: [Double], threads: Int = 1) throws(ClusterCoreError) -> MinimumSpanningTree {
        precondition(xs.count == ys.count, "one y per x")
        if let mst = fromDelaunay(xs: xs, ys: ys) { return mst }
        return try HDBSCAN.minimumSpanningTree(try PointSet(xs: xs, ys: ys), minSamples: 1, threads: threads).mst
    }

    /// The Euclidean MST from the Delaunay triangulation, or nil when there is none.
    static func fromDelaunay(xs: [Double], ys: [Double]) -> MinimumSpanningTree? {
        let n = xs.count
        let triangulation = xs.withUnsafeBufferPointer { xb in
            ys.withUnsafeBufferPointer { yb in DelaunayTriangulation(xs: xb, ys: yb) }
        }
        guard let dt = triangulation else { return nil }
        // Candidate edges, each triangulation edge once and each duplicate to its first point,
        // as records (weight², smaller row, larger row) sorted whole: Kruskal then reads them in
        // sequence (an order permutation read three arrays at random).
        let halfCount = dt.halfedges.count
        var edges: [WeightedEdge] = []
        edges.reserveCapacity(halfCount / 2 + halfCount / 6 + dt.duplicates.count + 1)
        dt.x.withUnsafeBufferPointer { x in
        dt.y.withUnsafeBufferPointer { y in
        dt.point.withUnsafeBufferPointer { point in
        dt.triangles.withUnsafeBufferPointer { tri in
        dt.halfedges.withUnsafeBufferPointer { half in
            for e in 0..<halfCount {
                let h = Int(half[e])
                if h >= 0 && h < e { continue }
                let p = Int(tri[e]), q = Int(tri[e % 3 == 2 ? e - 2 : e + 1])
                let dx = x[q] - x[p], dy = y[q] - y[p]
                let rp = point[p], rq = point[q]
                edges.append(WeightedEdge(weight: dx * dx + dy * dy, a: min(rp, rq), b: max(rp, rq)))
            }
            for d in dt.duplicates {
                let rp = point[Int(d.point)], rq = point[Int(d.of)]
                edges.append(WeightedEdge(weight: 0, a: min(rp, rq), b: max(rp, rq)))
            }
        }}}}}
        WeightedEdge.sort(&edges)
        var uf = UnionFind(count: n)
        var a: [Int32] = [], b: [Int32] = [], weight: [Double] = []
        a.reserveCapacity(n - 1); b.reserveCapacity(n - 1); weight.reserveCapacity(n - 1)
        uf.withRawAccess { uf in
            for edge in edges {
                let ra = uf.find(Int(edge.a)), rb = uf.find(Int(edge.b))
                if ra == rb { continue }
                _ = uf.unionRoots(ra, rb)
                a.append(edge.a); b.append(edge.b); weight.append(edge.weight.squareRoot())
                if a.count == n - 1 { break }
            }
        }
        // The triangulation spans every point, so this cannot fall short; if it ever did, the
        // caller's fallback is exact.
        guard a.count == n - 1 else { return nil }
        return MinimumSpanningTree(a: a, b: b, weight: weight)
    }
}
