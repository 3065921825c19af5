// A spanning forest reduced to the joins it makes between chosen rows: what the engines' global
// HDBSCAN sends from each tile, and how its driver runs Kruskal over all tiles' edges.

/// The joins a forest (or any graph) makes between kept rows.
public enum BottleneckForest {
    /// Kruskal over the edges `a[i]`–`b[i]` (rows `0..<count`) of weight <= `limit`, in
    /// ascending (weight, smaller end, larger end) order; each time an edge joins two parts
    /// that each hold a kept row, an edge between a kept row of each (the first kept row each
    /// part received), of the joining edge's weight.
    ///
    /// Two kept rows are joined by the returned edges up to any weight t exactly when the
    /// edges join them up to t (their bottleneck distance), whatever edges tie; with every row
    /// kept, the returned edges are a minimum spanning forest's weights and components (edges
    /// repeated or closing cycles are skipped).
    /// - Precondition: ends in `0..<count`; `kept.count == count`; no weight below 0 (a NaN
    ///   weight is not <= `limit`: the edge is left out).
    /// - Complexity: O(m) for the sort (radix passes over the light edges' records, then runs
    ///   of equal weight by their ends), then Kruskal's O(m α(n)); O(n + m) memory.
    public static func joins(
        count n: Int, a: [Int32], b: [Int32], weight: [Double], limit: Double, kept: [Bool]
    ) -> (a: [Int32], b: [Int32], weight: [Double]) {
        let edges = lightEdges(a: a, b: b, weight: weight, limit: limit)
        var sets = UnionFind(count: n)
        // The kept row standing for each set, at its root (-1: none).
        var standing = [Int32](unsafeUninitializedCapacity: n) { out, count in
            for i in 0..<n { out.initializeElement(at: i, to: kept[i] ? Int32(i) : -1) }
            count = n
        }
        var outA: [Int32] = [], outB: [Int32] = [], outWeight: [Double] = []
        edges.withUnsafeBufferPointer { edges in
        standing.withUnsafeMutableBufferPointer { standing in
            sets.withRawAccess { uf in
                for e in edges {
                    let x = uf.find(Int(e.a)), y = uf.find(Int(e.b))
                    if x == y { continue }
                    let sx = standing[x], sy = standing[y]
                    if sx >= 0 && sy >= 0 {
                        outA.append(sx); outB.append(sy); outWeight.append(e.weight)
                    }
                    standing[uf.unionRoots(x, y)] = sx >= 0 ? sx : sy
                }
            }
        }}
        return (outA, outB, outWeight)
    }

    /// The edges of weight <= `limit`, sorted (`WeightedEdge.sort`): Kruskal then reads them in
    /// memory order, not through an order array at random.
    static func lightEdges(a: [Int32], b: [Int32], weight: [Double], limit: Double) -> [WeightedEdge] {
        var edges: [WeightedEdge] = []
        edges.reserveCapacity(weight.count)
        for i in weight.indices where weight[i] <= limit {
            // + 0 turns -0 into 0.
            edges.append(WeightedEdge(weight: weight[i] + 0, a: min(a[i], b[i]), b: max(a[i], b[i])))
        }
        WeightedEdge.sort(&edges)
        return edges
    }
}
