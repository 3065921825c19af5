/// What label -1 (noise) means when two labelings are compared.
public enum NoiseMode: String, Sendable, CaseIterable, Codable {
    /// Noise is one more cluster: the label -1 like any other (scikit-learn's behaviour when
    /// it is given the labels as they are).
    case asCluster = "as-cluster"
    /// Each noise point is a cluster of its own, in each labeling separately.
    case singletons
    /// Points that are noise in either labeling are left out; the scores describe the points
    /// both labelings cluster (`ContingencyTable.excludedCount` says how many were dropped).
    case excluded
}

/// The contingency table of two labelings: `count(i, j)` points are in truth class `i` and
/// predicted cluster `j`. Stored sparse (compressed rows), so its size is the number of
/// non-zero cells, at most the number of points.
///
/// Rows are the distinct truth labels and columns the distinct predicted labels, each in
/// ascending label order (as `np.unique` orders them), after the noise mode is applied;
/// the singleton labels of `.singletons` come after all others, in row order.
public struct ContingencyTable: Sendable, Equatable {
    /// Points counted (after `.excluded` dropped its points).
    public let count: Int
    /// Points left out by `.excluded` (0 otherwise).
    public let excludedCount: Int
    /// Points in each truth class (row sums).
    public let rowSums: [Int]
    /// Points in each predicted cluster (column sums).
    public let columnSums: [Int]
    /// `rowStart[i]..<rowStart[i + 1]` index row `i`'s non-zero cells in `columns`/`counts`.
    public let rowStart: [Int]
    /// Column of each non-zero cell, ascending within a row.
    public let columns: [Int32]
    /// Points in each non-zero cell.
    public let counts: [Int]

    /// Number of truth classes.
    public var rowCount: Int { rowSums.count }
    /// Number of predicted clusters.
    public var columnCount: Int { columnSums.count }

    /// Counts the table.
    /// - Parameters:
    ///   - truth: the reference label of each point (-1: noise).
    ///   - predicted: the clustering's label of each point (-1: noise).
    /// - Throws: `MetricsError.mismatchedLengths` when the arrays differ in length.
    /// - Complexity: O(n + R + C) time and O(n) memory for R classes and C clusters: labels
    ///   are mapped to dense ids through an array when their values span at most about 4n
    ///   (through a dictionary otherwise), then the points are bucketed by (row, column) with
    ///   two counting sorts.
    public init(truth: [Int32], predicted: [Int32], noise: NoiseMode = .asCluster) throws(MetricsError) {
        guard truth.count == predicted.count else {
            throw .mismatchedLengths(what: "predicted labels", expected: truth.count, found: predicted.count)
        }
        var t = truth, p = predicted
        var excluded = 0
        if noise == .excluded {
            t = []; p = []
            for i in 0..<truth.count where truth[i] != -1 && predicted[i] != -1 {
                t.append(truth[i]); p.append(predicted[i])
            }
            excluded = truth.count - t.count
        }
        let singletons = noise == .singletons
        let (rowOf, rows) = Self.denseIDs(t, noiseAsSingletons: singletons)
        let (colOf, cols) = Self.denseIDs(p, noiseAsSingletons: singletons)
        self.init(rowOf: rowOf, rowCount: rows, columnOf: colOf, columnCount: cols, excluded: excluded)
    }

    /// The table of points already given dense ids (`rowOf[k] < rowCount`, `columnOf[k] < columnCount`).
    init(rowOf: [Int32], rowCount: Int, columnOf: [Int32], columnCount: Int, excluded: Int) {
        let n = rowOf.count
        count = n
        excludedCount = excluded
        // Stable counting sort by column, then by row: points end up ordered by (row, column).
        func bucket(_ order: [Int32], by key: [Int32], buckets: Int) -> (order: [Int32], sizes: [Int]) {
            var start = [Int](repeating: 0, count: buckets + 1)
            for k in key { start[Int(k) + 1] += 1 }
            let sizes = (0..<buckets).map { start[$0 + 1] }
            for b in 0..<buckets { start[b + 1] += start[b] }
            var out = [Int32](repeating: 0, count: order.count)
            for i in order {
                let b = Int(key[Int(i)])
                out[start[b]] = i
                start[b] += 1
            }
            return (out, sizes)
        }
        let identity = (0..<Int32(n)).map { $0 }
        let (byColumn, colSizes) = bucket(identity, by: columnOf, buckets: columnCount)
        let (byCell, rowSizes) = bucket(byColumn, by: rowOf, buckets: rowCount)
        var starts = [Int](repeating: 0, count: rowCount + 1)
        var cellColumns: [Int32] = [], cellCounts: [Int] = []
        var k = 0
        for r in 0..<rowCount {
            starts[r] = cellCounts.count
            let end = k + rowSizes[r]
            while k < end {
                let c = columnOf[Int(byCell[k])]
                var m = 0
                while k < end && columnOf[Int(byCell[k])] == c { m += 1; k += 1 }
                cellColumns.append(c); cellCounts.append(m)
            }
        }
        starts[rowCount] = cellCounts.count
        rowSums = rowSizes
        columnSums = colSizes
        rowStart = starts
        columns = cellColumns
        counts = cellCounts
    }

    /// Dense ids 0..<k for the distinct labels in ascending order; with `noiseAsSingletons`,
    /// every -1 gets an id of its own after all others.
    static func denseIDs(_ labels: [Int32], noiseAsSingletons: Bool) -> (ids: [Int32], count: Int) {
        let n = labels.count
        guard n > 0 else { return ([], 0) }
        var lo = Int32.max, hi = Int32.min
        for l in labels where !(noiseAsSingletons && l == -1) { lo = min(lo, l); hi = max(hi, l) }
        var ids = [Int32](repeating: 0, count: n)
        var distinct = 0
        if lo <= hi {
            let span = Int(hi) - Int(lo) + 1
            if span <= 4 * n + 64 {
                var map = [Int32](repeating: -1, count: span)
                for l in labels where !(noiseAsSingletons && l == -1) { map[Int(l) - Int(lo)] = 0 }
                for v in 0..<span where map[v] == 0 { map[v] = Int32(distinct); distinct += 1 }
                for i in 0..<n where !(noiseAsSingletons && labels[i] == -1) { ids[i] = map[Int(labels[i]) - Int(lo)] }
            } else {
                var map: [Int32: Int32] = [:]
                for l in labels where !(noiseAsSingletons && l == -1) { map[l] = 0 }
                for v in map.keys.sorted() { map[v] = Int32(distinct); distinct += 1 }
                for i in 0..<n where !(noiseAsSingletons && labels[i] == -1) { ids[i] = map[labels[i]]! }
            }
        }
        if noiseAsSingletons {
            for i in 0..<n where labels[i] == -1 { ids[i] = Int32(distinct); distinct += 1 }
        }
        return (ids, distinct)
    }
}
