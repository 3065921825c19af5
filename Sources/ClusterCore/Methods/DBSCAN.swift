// DBSCAN (Ester, Kriegel, Sander & Xu 1996), exactly as scikit-learn's `DBSCAN` computes it,
// without ever holding a neighbourhood list.
//
// Definitions (scikit-learn's)
// - Two points are neighbours when their distance is at most `eps`, evaluated as
//   `dx*dx + dy*dy <= eps*eps` in Double arithmetic (the leaf test of scikit-learn's KD-tree).
// - A point is *core* when it has at least `minSamples` neighbours, itself included.
// - Clusters are the connected components of the graph of core points joined when they are
//   neighbours. scikit-learn grows them one after another, each from the lowest-index core
//   point not yet labelled, so cluster k is the component whose lowest input row is the
//   k-th smallest such row.
// - A non-core point with a core neighbour is a *border* point. scikit-learn's expansion
//   labels it with the first cluster that reaches it, which (clusters being grown one at a
//   time in label order) is the lowest-numbered cluster among its core neighbours' clusters.
//   Every other point is noise, label -1.
//
// How (Gunawan 2013; de Berg, Gunawan & Roeloffzen 2017): square cells of side just under
// eps/√2, so that any two points of one cell are neighbours. A cell then needs no distance
// work when it holds `minSamples` points (all core) and its core points form one node of the
// cluster graph. Only pairs of cells at most two cells apart can hold neighbours; a pair is
// joined by finding one pair of core neighbours, with bounding-box tests deciding whole cells
// at a time. Memory is O(n), however many neighbours the points have.
//
// Every shortcut is exact: a box test accepts or rejects a whole cell only when rounding the
// per-point test could not give another answer (IEEE arithmetic is monotone), and a cell
// whose points are not provably all neighbours (rounding at the edge of a cell) is handled
// point by point.
//
// Where scikit-learn is not self-consistent (checked against 1.9.1): its KD-tree also accepts
// a whole node when the sqrt-based distance to the node's farthest corner is <= eps, so a
// point whose squared distance rounds just above eps² (within about one ulp: sqrt rounds it
// back to eps) may count as a neighbour or not depending on the tree's layout; and below 12
// points it uses brute force on |x|² + |y|² − 2x·y, whose rounding differs again. Here the
// squared test decides every pair. The reference script checks that no fixture has a pair in
// that band.

/// The parameters of DBSCAN, with scikit-learn's names and meanings.
public struct DBSCANParameters: Sendable, Equatable {
    /// Neighbourhood radius in metres (the points' unit), inclusive; finite and > 0.
    public var eps: Double
    /// Neighbours, the point itself included, that make a point core; at least 1.
    public var minSamples: Int

    /// scikit-learn's default `minSamples`: the one default of DBSCAN's parameters (the command
    /// line's, the C API's `gc_dbscan_defaults()` and so Python's estimator read it here).
    public static let defaultMinSamples = 5

    /// Parameters with the default `minSamples`; `validate()` checks them.
    public init(eps: Double, minSamples: Int = DBSCANParameters.defaultMinSamples) {
        self.eps = eps
        self.minSamples = minSamples
    }

    /// Checks every parameter's range (scikit-learn's: eps > 0, min_samples >= 1).
    public func validate() throws(ClusterCoreError) {
        guard eps > 0 && eps.isFinite else {
            throw .invalidParameter(name: "eps", value: "\(eps)", requirement: "must be a finite distance > 0")
        }
        guard minSamples >= 1 else {
            throw .invalidParameter(name: "minSamples", value: "\(minSamples)", requirement: "must be at least 1")
        }
    }
}

/// What one DBSCAN run produces, indexed by input row.
public struct DBSCANResult: Sendable, Equatable {
    /// Cluster of each row, `0..<clusterCount` numbered as scikit-learn numbers them (by the
    /// lowest row of each cluster's core points), or -1 for noise.
    public var labels: [Int32]
    /// Whether each row is a core point (scikit-learn's `core_sample_indices_` as flags).
    public var isCore: [Bool]
    /// The number of clusters.
    public var clusterCount: Int
}

/// DBSCAN as scikit-learn computes it, through square cells (see the file's header).
public enum DBSCAN: Sendable {
    /// Runs DBSCAN on planar points.
    ///
    /// With `sampleWeight` (scikit-learn's meaning) a point is core when the weights of the
    /// points within eps of it, its own included, add up to at least `minSamples`; a weight may
    /// be any finite number, negative too.
    /// - Parameters:
    ///   - points: the points, in metres (the unit of `eps`).
    ///   - parameters: `eps` and `minSamples`, scikit-learn's meanings.
    ///   - sampleWeight: by row; nil weighs every row 1.
    ///   - threads: worker threads for the core and border stages; the output is identical for
    ///     any value.
    ///   - observer: sees each stage (`DBSCANStage`) run.
    /// - Throws: `ClusterCoreError.invalidParameter` for an out-of-range parameter or weight, or when
    ///   `eps` is so small against the extent of the data that the grid would exceed 2³¹
    ///   cells along an axis (for example eps < 1 mm over 2,000 km).
    /// - Complexity: O(n) memory. Time O(n) for the grid plus, per cell that is not already
    ///   full, the points of its 5 × 5 neighbourhood; on estate-like data close to linear.
    ///   The worst case (two dense cells two apart with no neighbour pair between them) costs
    ///   the product of their core counts.
    public static func fit(
        _ points: PointSet, parameters: DBSCANParameters, sampleWeight: [Double]? = nil, threads: Int = 1,
        observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> DBSCANResult {
        // Just under eps/√2: a cell's diagonal stays below eps even after the rounding of the
        // cell coordinates, so cells are normally all-neighbour ("compact"); that is checked
        // per cell, never assumed.
        try fit(points, parameters: parameters, sampleWeight: sampleWeight, threads: threads, observer: observer,
                cellScale: 1 - 1e-9)
    }

    /// `fit` with cells of side `cellScale · eps/√2`. Any scale in [0.75, 2] gives the same
    /// result (neighbours are then at most two cells apart); scales above 1 make cells that are
    /// not all-neighbour, which is how the tests reach the point-by-point paths.
    static func fit(
        _ points: PointSet, parameters: DBSCANParameters, sampleWeight: [Double]? = nil, threads: Int,
        observer: some StageObserver, cellScale: Double
    ) throws(ClusterCoreError) -> DBSCANResult {
        precondition(cellScale >= 0.75 && cellScale <= 2, "neighbours must stay within two cells")
        try parameters.validate()
        if let sampleWeight { try SampleWeights.check(sampleWeight, rows: points.count) }
        let n = points.count
        if n == 0 { return DBSCANResult(labels: [], isCore: [], clusterCount: 0) }
        let eps = parameters.eps
        let side = eps / 2.0.squareRoot() * cellScale
        let w = try observer.run(DBSCANStage.grid) { () throws(ClusterCoreError) in
            // Cells start at the lower-left corner of the data.
            var x0 = points.xs[0], y0 = points.ys[0]
            for i in 0..<n { x0 = min(x0, points.xs[i]); y0 = min(y0, points.ys[i]) }
            var grid = try CellIndex(xs: points.xs, ys: points.ys, side: side, originX: x0, originY: y0,
                                     parameterName: "eps", keepCoordinates: true)
            return DBSCANWorkspace(grid: &grid, eps: eps, minSamples: parameters.minSamples, sampleWeight: sampleWeight)
        }
        let workers = Parallel.workers(threads)
        observer.run(DBSCANStage.corePoints) { w.findCorePoints(threads: workers) }
        let clusterCount = observer.run(DBSCANStage.clusters) { w.connectCorePoints() }
        return observer.run(DBSCANStage.borderPoints) {
            w.labelBorderPoints(threads: workers)
            // Back to input order.
            var labels = [Int32](repeating: -1, count: n)
            var isCore = [Bool](repeating: false, count: n)
            for p in 0..<n {
                let r = Int(w.row[p])
                labels[r] = w.label[p]
                isCore[r] = w.core[p]
            }
            return DBSCANResult(labels: labels, isCore: isCore, clusterCount: clusterCount)
        }
    }
}

/// The working arrays of one DBSCAN run, indexed by *position* (points in cell order, core
/// points first within each cell once they are known) or by cell. Raw buffers shared by the
/// workers, each of which writes only the slots of its own cells.
private final class DBSCANWorkspace: @unchecked Sendable {
    let n: Int
    let cellCount: Int
    /// eps², the threshold of the per-point test.
    let eps2: Double
    let minSamples: Int
    let grid: CellIndex
    /// Coordinates, input row, core flag and label by position.
    let px: UnsafeMutablePointer<Double>
    let py: UnsafeMutablePointer<Double>
    let row: UnsafeMutablePointer<Int32>
    /// With sample weights: the weight at each position (read by the core stage only), each
    /// cell's total, and whether no weight is negative (only then can a count stop early or a
    /// full cell be core on its own weight).
    let weight: UnsafeMutablePointer<Double>?
    let cellWeight: UnsafeMutablePointer<Double>?
    let monotone: Bool
    let core: UnsafeMutablePointer<Bool>
    let label: UnsafeMutablePointer<Int32>
    /// Per cell: first position, end of its core points (`cellStart[c]..<coreEnd[c]`), and
    /// whether every two of its points are provably neighbours.
    let cellStart: UnsafeMutablePointer<Int32>
    let coreEnd: UnsafeMutablePointer<Int32>
    let compact: UnsafeMutablePointer<Bool>
    /// Per cell: tight bounding box of its points, then (after the core stage) of its cores.
    let bx0: UnsafeMutablePointer<Double>
    let bx1: UnsafeMutablePointer<Double>
    let by0: UnsafeMutablePointer<Double>
    let by1: UnsafeMutablePointer<Double>

    /// Takes over the grid, moving its per-point arrays into the workspace's buffers.
    init(grid: inout CellIndex, eps: Double, minSamples: Int, sampleWeight: [Double]?) {
        n = grid.rows.count
        cellCount = grid.cellCount
        eps2 = eps * eps
        self.minSamples = minSamples
        let m = grid.rows.count
        let (x, y, r) = (UnsafeMutablePointer<Double>.allocate(capacity: m), UnsafeMutablePointer<Double>.allocate(capacity: m),
                         UnsafeMutablePointer<Int32>.allocate(capacity: m))
        grid.rows.withUnsafeBufferPointer { r.initialize(from: $0.baseAddress!, count: m) }
        grid.sortedXs.withUnsafeBufferPointer { x.initialize(from: $0.baseAddress!, count: m) }
        grid.sortedYs.withUnsafeBufferPointer { y.initialize(from: $0.baseAddress!, count: m) }
        grid.rows = []; grid.sortedXs = []; grid.sortedYs = []
        px = x; py = y; row = r
        self.grid = grid
        monotone = sampleWeight?.allSatisfy { $0 >= 0 } ?? true
        if let sampleWeight {
            let w = UnsafeMutablePointer<Double>.allocate(capacity: m)
            for p in 0..<m { w[p] = sampleWeight[Int(r[p])] }
            let cw = UnsafeMutablePointer<Double>.allocate(capacity: grid.cellCount)
            for c in 0..<grid.cellCount {
                var total = 0.0
                for p in Int(grid.cellStart[c])..<Int(grid.cellStart[c + 1]) { total += w[p] }
                cw[c] = total
            }
            weight = w; cellWeight = cw
        } else {
            weight = nil; cellWeight = nil
        }
        core = .allocate(capacity: n); label = .allocate(capacity: n)
        cellStart = .allocate(capacity: cellCount + 1); coreEnd = .allocate(capacity: cellCount)
        compact = .allocate(capacity: cellCount)
        bx0 = .allocate(capacity: cellCount); bx1 = .allocate(capacity: cellCount)
        by0 = .allocate(capacity: cellCount); by1 = .allocate(capacity: cellCount)
        core.initialize(repeating: false, count: n)
        label.initialize(repeating: -1, count: n)
        for c in 0...cellCount { cellStart[c] = grid.cellStart[c] }
        for c in 0..<cellCount {
            coreEnd[c] = cellStart[c]
            setBox(c, Int(cellStart[c])..<Int(cellStart[c + 1]))
            // All pairs of the cell are neighbours when the box diagonal passes the test:
            // every |dx| rounds to at most the rounded width, and so on through the sum.
            let w = bx1[c] - bx0[c], h = by1[c] - by0[c]
            compact[c] = w * w + h * h <= eps2
        }
    }

    deinit {
        px.deallocate(); py.deallocate(); row.deallocate(); core.deallocate(); label.deallocate()
        weight?.deallocate(); cellWeight?.deallocate()
        cellStart.deallocate(); coreEnd.deallocate(); compact.deallocate()
        bx0.deallocate(); bx1.deallocate(); by0.deallocate(); by1.deallocate()
    }

    /// Sets cell `c`'s box to the tight box of `positions` (empty: an infinitely far box).
    private func setBox(_ c: Int, _ positions: Range<Int>) {
        var a = Double.infinity, b = -Double.infinity, e = Double.infinity, f = -Double.infinity
        for p in positions {
            a = min(a, px[p]); b = max(b, px[p]); e = min(e, py[p]); f = max(f, py[p])
        }
        bx0[c] = a; bx1[c] = b; by0[c] = e; by1[c] = f
    }

    // MARK: Distance tests

    /// The per-point test: is position `q` within eps of (x, y)?
    @inline(__always) func within(_ x: Double, _ y: Double, _ q: Int) -> Bool {
        let dx = px[q] - x, dy = py[q] - y
        return dx * dx + dy * dy <= eps2
    }

    /// True when no point in cell `c`'s box can pass the test from (x, y): the rounded
    /// distance to the box is a lower bound of every rounded point distance.
    @inline(__always) func boxOutside(_ x: Double, _ y: Double, _ c: Int) -> Bool {
        let dx = x < bx0[c] ? bx0[c] - x : (x > bx1[c] ? x - bx1[c] : 0)
        let dy = y < by0[c] ? by0[c] - y : (y > by1[c] ? y - by1[c] : 0)
        return dx * dx + dy * dy > eps2
    }

    /// True when every point in cell `c`'s box passes the test from (x, y): the rounded
    /// distance to the farthest corner is an upper bound of every rounded point distance.
    @inline(__always) func boxInside(_ x: Double, _ y: Double, _ c: Int) -> Bool {
        let dx = max(abs(x - bx0[c]), abs(x - bx1[c])), dy = max(abs(y - by0[c]), abs(y - by1[c]))
        return dx * dx + dy * dy <= eps2
    }

    // MARK: Neighbourhoods

    /// The cells at most two columns and two rows away from a cell: the only ones that can
    /// hold its points' neighbours (a point three cells away is more than 2 · side away along
    /// one axis, which is at least 1.06 eps for the cell scales `fit` allows).
    struct Sweep {
        var cursors: [Int]
        var ranges: [Range<Int>]
        let rowOffsets: ClosedRange<Int64>

        init(grid: CellIndex, startingAt c: Int, rowOffsets: ClosedRange<Int64>) {
            self.rowOffsets = rowOffsets
            cursors = grid.cursors(startingAt: c, rowOffsets: rowOffsets, reach: 2)
            ranges = [Range<Int>](repeating: 0..<0, count: rowOffsets.count)
        }

        /// Fills `ranges` with the neighbourhood of cell `c`; cells must come in ascending order.
        mutating func move(to c: Int, in grid: CellIndex) {
            let i = grid.column(c), j = grid.row(c)
            var k = 0
            for dj in rowOffsets {
                ranges[k] = grid.cells(row: j + dj, columns: i - 2, i + 2, cursor: &cursors[k])
                k += 1
            }
        }
    }

    // MARK: Stages

    /// Marks core points, then puts each cell's core points first and shrinks its box to them.
    func findCorePoints(threads: Int) {
        Parallel.forEachChunk(count: cellCount, grain: 256, threads: threads) { chunk, _ in
            var sweep = Sweep(grid: grid, startingAt: chunk.lowerBound, rowOffsets: -2...2)
            for c in chunk {
                let s = Int(cellStart[c]), e = Int(cellStart[c + 1])
                if compact[c] && monotone && (cellWeight?[c] ?? Double(e - s)) >= Double(minSamples) {
                    for p in s..<e { core[p] = true }
                    continue
                }
                sweep.move(to: c, in: grid)
                for p in s..<e { core[p] = weight == nil ? countReaches(p, sweep.ranges) : weighReaches(p, sweep.ranges) }
            }
        }
        // A second pass: the first reads every cell's points and box.
        Parallel.forEachChunk(count: cellCount, grain: 1024, threads: threads) { chunk, _ in
            for c in chunk {
                // Core points first (an unstable partition: order inside a cell is irrelevant).
                var i = Int(cellStart[c]), j = Int(cellStart[c + 1]) - 1
                while i <= j {
                    if core[i] { i += 1 } else if !core[j] { j -= 1 } else { swapPositions(i, j); i += 1; j -= 1 }
                }
                coreEnd[c] = Int32(i)
                setBox(c, Int(cellStart[c])..<i)
            }
        }
    }

    /// Whether position `p` has at least `minSamples` points within eps in the cells `ranges`.
    private func countReaches(_ p: Int, _ ranges: [Range<Int>]) -> Bool {
        let x = px[p], y = py[p]
        var count = 0
        for r in ranges {
            for d in r {
                if boxOutside(x, y, d) { continue }
                let s = Int(cellStart[d]), e = Int(cellStart[d + 1])
                if boxInside(x, y, d) {
                    count += e - s
                } else {
                    for q in s..<e where within(x, y, q) { count += 1 }
                }
                if count >= minSamples { return true }
            }
        }
        return false
    }

    /// Whether the weights of the points within eps of position `p` in the cells `ranges` add
    /// up to at least `minSamples` (summed in cell order, whole cells by their totals).
    private func weighReaches(_ p: Int, _ ranges: [Range<Int>]) -> Bool {
        let x = px[p], y = py[p], weight = weight!, cellWeight = cellWeight!
        let needed = Double(minSamples)
        var total = 0.0
        for r in ranges {
            for d in r {
                if boxOutside(x, y, d) { continue }
                let s = Int(cellStart[d]), e = Int(cellStart[d + 1])
                if boxInside(x, y, d) {
                    total += cellWeight[d]
                } else {
                    for q in s..<e where within(x, y, q) { total += weight[q] }
                }
                if monotone && total >= needed { return true }
            }
        }
        return total >= needed
    }

    private func swapPositions(_ a: Int, _ b: Int) {
        swap(&px[a], &px[b]); swap(&py[a], &py[b]); swap(&row[a], &row[b]); swap(&core[a], &core[b])
    }

    /// Joins neighbouring core points into clusters and numbers them by lowest input row;
    /// sets `label` of every core point. Returns the number of clusters.
    func connectCorePoints() -> Int {
        // Nodes are positions; a compact cell's cores are all represented by its first one.
        var sets = UnionFind(count: n)
        return sets.withRawAccess { uf in
        @inline(__always) func node(_ p: Int, _ c: Int) -> Int { compact[c] ? Int(cellStart[c]) : p }
        var sweep = Sweep(grid: grid, startingAt: 0, rowOffsets: 0...2)
        for c in 0..<cellCount where coreEnd[c] > cellStart[c] {
            let s = Int(cellStart[c]), e = Int(coreEnd[c])
            if !compact[c] {
                for p in s..<e {
                    for q in (p + 1)..<e where within(px[p], py[p], q) { uf.union(p, q) }
                }
            }
            sweep.move(to: c, in: grid)
            for r in sweep.ranges {
                for d in r where d > c && coreEnd[d] > cellStart[d] {
                    if compact[c] && compact[d] {
                        let a = uf.find(s), b = uf.find(Int(cellStart[d]))
                        if a != b && anyCoreNeighbours(c, d) { uf.union(a, b) }
                    } else {
                        for p in s..<e where !boxOutside(px[p], py[p], d) {
                            for q in Int(cellStart[d])..<Int(coreEnd[d]) where within(px[p], py[p], q) {
                                uf.union(node(p, c), node(q, d))
                            }
                        }
                    }
                }
            }
        }
        // Number the components by their lowest input row, as scikit-learn's sequential
        // expansion does. `first[root]` holds that row, then the label.
        var first = [Int32](repeating: .max, count: n)
        for c in 0..<cellCount {
            for p in Int(cellStart[c])..<Int(coreEnd[c]) {
                let root = uf.find(node(p, c))
                first[root] = min(first[root], row[p])
            }
        }
        var roots: [(row: Int32, root: Int32)] = []
        for p in 0..<n where first[p] != .max { roots.append((first[p], Int32(p))) }
        roots.sort { $0.row < $1.row }
        for (k, r) in roots.enumerated() { first[Int(r.root)] = Int32(k) }
        for c in 0..<cellCount {
            for p in Int(cellStart[c])..<Int(coreEnd[c]) { label[p] = first[uf.find(node(p, c))] }
        }
        return roots.count
        }
    }

    /// Whether some core of compact cell `a` and some core of compact cell `b` are neighbours.
    private func anyCoreNeighbours(_ a: Int, _ b: Int) -> Bool {
        // Walk the cell with fewer cores, testing against the other's core box first.
        var (a, b) = (a, b)
        if coreEnd[a] - cellStart[a] > coreEnd[b] - cellStart[b] { swap(&a, &b) }
        for p in Int(cellStart[a])..<Int(coreEnd[a]) {
            let x = px[p], y = py[p]
            if boxOutside(x, y, b) { continue }
            if boxInside(x, y, b) { return true }
            for q in Int(cellStart[b])..<Int(coreEnd[b]) where within(x, y, q) { return true }
        }
        return false
    }

    /// Gives each non-core point the lowest label among its core neighbours' (-1 if none).
    func labelBorderPoints(threads: Int) {
        Parallel.forEachChunk(count: cellCount, grain: 256, threads: threads) { chunk, _ in
            var sweep = Sweep(grid: grid, startingAt: chunk.lowerBound, rowOffsets: -2...2)
            for c in chunk where coreEnd[c] < cellStart[c + 1] {
                sweep.move(to: c, in: grid)
                for p in Int(coreEnd[c])..<Int(cellStart[c + 1]) {
                    label[p] = lowestCoreLabel(p, sweep.ranges)
                }
            }
        }
    }

    private func lowestCoreLabel(_ p: Int, _ ranges: [Range<Int>]) -> Int32 {
        let x = px[p], y = py[p]
        var best = Int32.max
        for r in ranges {
            for d in r where coreEnd[d] > cellStart[d] {
                if boxOutside(x, y, d) { continue }
                let s = Int(cellStart[d]), e = Int(coreEnd[d])
                if compact[d] {
                    // One cluster per compact cell: test only if it would improve the answer.
                    let l = label[s]
                    if l >= best { continue }
                    if boxInside(x, y, d) { best = l; continue }
                    for q in s..<e where within(x, y, q) { best = l; break }
                } else {
                    for q in s..<e where label[q] < best && within(x, y, q) { best = label[q] }
                }
            }
        }
        return best == .max ? -1 : best
    }
}
