// A spanning forest reduced to the joins it makes between chosen rows: what the engines' global
// HDBSCAN sends from each tile, and how its driver runs Kruskal over all tiles' edges.

/// The joins a forest (or any graph) makes between kept rows.
public enum BottleneckForest {
    /// Kruskal over the edges `a[i]`–`b[i]` (rows `0..<count`) of weight <= `limit`, in
    /// ascending (weight, edge) order; each time an edge joins two parts that each hold a kept
    /// row, an edge between a kept row of each (the first kept row each part received), of
    /// the joining edge's weight.
    ///
    /// Two kept rows are joined by the returned edges up to any weight t exactly when the
    /// edges join them up to t (their bottleneck distance), whatever edges tie; with every row
    /// kept, the returned edges are a minimum spanning forest's weights and components (edges
    /// repeated or closing cycles are skipped).
    /// - Precondition: ends in `0..<count`; `kept.count == count`.
    public static func joins(
        count n: Int, a: [Int32], b: [Int32], weight: [Double], limit: Double, kept: [Bool], threads: Int = 1
    ) -> (a: [Int32], b: [Int32], weight: [Double]) {
        let light = (0..<weight.count).filter { weight[$0] <= limit }
        let order = RadixSort.stableOrder(of: light.map { weight[$0] }, threads: threads)
        var sets = UnionFind(count: n)
        // The kept row standing for each set, at its root (-1: none).
        var standing = (0..<n).map { kept[$0] ? Int32($0) : -1 }
        var outA: [Int32] = [], outB: [Int32] = [], outWeight: [Double] = []
        for o in order {
            let e = light[Int(o)]
            let x = sets.find(Int(a[e])), y = sets.find(Int(b[e]))
            if x == y { continue }
            let sx = standing[x], sy = standing[y]
            if sx >= 0 && sy >= 0 {
                outA.append(sx); outB.append(sy); outWeight.append(weight[e])
            }
            let root = sets.union(x, y)!
            standing[root] = sx >= 0 ? sx : sy
        }
        return (outA, outB, outWeight)
    }
}
