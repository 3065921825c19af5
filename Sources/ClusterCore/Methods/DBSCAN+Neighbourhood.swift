// DBSCAN over a tree and a neighbour relation by tree position: core points, clusters and
// border points, the same definitions as the planar DBSCAN's, for every space whose
// neighbours a tree lists (the sphere's tree, the d-dimensional tree).

/// A tree over distinct locations (or points), as DBSCAN and HDBSCAN read it: the location at
/// each tree position, and the rows of each location.
protocol LocatedIndex {
    /// The location (or, without locations, the input row) at each tree position.
    var positions: [Int32] { get }
    /// The grouping (nil: every point its own location, of weight 1).
    var locations: Locations? { get }
    /// The number of input rows.
    var pointCount: Int { get }
}

extension LocatedIndex {
    /// The lowest input row at each tree position (its location's first row).
    func firstRows(threads: Int) -> [Int32] {
        guard let locations else { return positions }
        let positions = positions
        return [Int32].filled(count: positions.count, threads: threads) {
            locations.rows[Int(locations.start[Int(positions[$0])])]
        }
    }

    /// By tree position, the sum of its rows' `weights` (in row order).
    func positionWeights(_ weights: [Double]) -> [Double] {
        var sum = [Double](repeating: 0, count: positions.count)
        forEachRow { row, p in sum[p] += weights[row] }
        return sum
    }

    /// Calls `body(row, position)` for every input row with the tree position holding it.
    func forEachRow(_ body: (Int, Int) -> Void) {
        let positions = positions
        guard let locations else {
            for p in 0..<positions.count { body(Int(positions[p]), p) }
            return
        }
        for p in 0..<positions.count {
            let l = Int(positions[p])
            for j in Int(locations.start[l])..<Int(locations.start[l + 1]) { body(Int(locations.rows[j]), p) }
        }
    }
}

/// DBSCAN's neighbour relation by tree position: which positions are within eps of which.
protocol NeighbourRelation {
    /// What the tree's queries read, valid inside `withView`.
    associatedtype View
    /// The number of tree positions.
    var count: Int { get }
    /// Points at each position (nil: one each).
    var weights: [Int32]? { get }
    /// With sample weights: the weight of each position (its rows' sum), counted instead of
    /// points.
    var sampleWeights: [Double]? { get }
    /// Each position's lowest input row.
    var firstRow: [Int32] { get }
    func withView<R>(_ body: (View) -> R) -> R
    /// Calls `body(q)` for every neighbour q of p (p itself included) until it returns false.
    func forEachNeighbour(_ v: View, of p: Int, _ body: (Int) -> Bool)
}

extension NeighbourRelation {
    /// Whether each position has at least `minSamples` neighbours (itself included), or
    /// neighbours weighing that much.
    func corePoints(minSamples: Int, threads: Int) -> [Bool] {
        if let sampleWeights { return weightedCorePoints(sampleWeights, minSamples: minSamples, threads: threads) }
        return withView { v in
            [Bool].filled(count: count, threads: threads) { p in
                var total = 0
                forEachNeighbour(v, of: p) { q in total += weights.map { Int($0[q]) } ?? 1; return total < minSamples }
                return total >= minSamples
            }
        }
    }

    /// `corePoints` by weight: every neighbour's is added (with a negative weight, a total
    /// that reached `minSamples` may fall back, so no early answer then).
    private func weightedCorePoints(_ weight: [Double], minSamples: Int, threads: Int) -> [Bool] {
        let needed = Double(minSamples), monotone = weight.allSatisfy { $0 >= 0 }
        return withView { v in
            [Bool].filled(count: count, threads: threads) { p in
                var total = 0.0
                forEachNeighbour(v, of: p) { q in total += weight[q]; return !(monotone && total >= needed) }
                return total >= needed
            }
        }
    }

    /// The component of every core position (a union-find root) and each root's cluster
    /// number, clusters numbered by their lowest input row.
    func clusters(core: [Bool]) -> (component: [Int32], clusterOf: [Int32: Int32]) {
        var uf = UnionFind(count: count)
        withView { v in
            for p in 0..<count where core[p] {
                forEachNeighbour(v, of: p) { q in
                    if q > p && core[q] && uf.find(p) != uf.find(q) { _ = uf.union(p, q) }
                    return true
                }
            }
        }
        var component = [Int32](repeating: -1, count: count)
        var lowestRow: [Int32: Int32] = [:]
        for p in 0..<count where core[p] {
            let root = Int32(uf.find(p))
            component[p] = root
            lowestRow[root] = Swift.min(lowestRow[root] ?? .max, firstRow[p])
        }
        var clusterOf: [Int32: Int32] = [:]
        for (k, entry) in lowestRow.sorted(by: { $0.value < $1.value }).enumerated() { clusterOf[entry.key] = Int32(k) }
        return (component, clusterOf)
    }

    /// Labels and core flags by input row; a border point takes the lowest cluster number
    /// among its core neighbours.
    func labels(core: [Bool], component: [Int32], clusterOf: [Int32: Int32], indexed: some LocatedIndex,
                threads: Int) -> DBSCANResult {
        let label = withView { v in
            [Int32].filled(count: count, threads: threads) { p -> Int32 in
                if core[p] { return clusterOf[component[p]]! }
                var best = Int32.max
                forEachNeighbour(v, of: p) { q in
                    if core[q] { best = Swift.min(best, clusterOf[component[q]]!) }
                    return true
                }
                return best == .max ? -1 : best
            }
        }
        let n = indexed.pointCount
        var labels = [Int32](repeating: -1, count: n), isCore = [Bool](repeating: false, count: n)
        indexed.forEachRow { row, p in
            labels[row] = label[p]
            isCore[row] = core[p]
        }
        return DBSCANResult(labels: labels, isCore: isCore, clusterCount: clusterOf.count)
    }

    /// Core points, clusters and labels, each under its stage's name.
    func run(minSamples: Int, indexed: some LocatedIndex, threads: Int, observer: some StageObserver) -> DBSCANResult {
        let core = observer.run(DBSCANStage.corePoints) { corePoints(minSamples: minSamples, threads: threads) }
        let (component, clusterOf) = observer.run(DBSCANStage.clusters) { clusters(core: core) }
        return observer.run(DBSCANStage.borderPoints) {
            labels(core: core, component: component, clusterOf: clusterOf, indexed: indexed, threads: threads)
        }
    }
}
