// DBSCAN on the sphere through a 3-D grid of cubes over the unit vectors: the planar DBSCAN's
// method (see DBSCAN.swift) one dimension up, with the sphere's neighbour test.
//
// Cubes have a side just under chord(eps)/√3, so that the diagonal of one stays below the
// chord and its points are normally all neighbours ("compact", checked per cell); neighbours
// are then at most two cubes apart along each axis. The points lie on a surface, so of the
// 5 × 5 × 5 cubes around one only a slab is occupied; the grid stores occupied cubes only, in
// a `CellIndex` whose rows are (layer, row) pairs. As on the tree, the grid holds locations
// (co-located points grouped), each counting its points towards min_samples.
//
// The neighbour test is `SphereNeighbourTest`'s, decided by the squared chord between the
// same unit vectors as the tree path's, or by scikit-learn's formula inside the band: the same
// decision for every pair, so the same result. A box test accepts or rejects a whole cube
// only when rounding the per-point chord could not give another answer (IEEE arithmetic is
// monotone) and the answer lies outside the band.

/// The squared-chord thresholds of the sphere's neighbour test.
struct SphereNeighbourTest {
    /// sin²(eps/2R): the largest reduced haversine distance of two neighbours.
    let halfChord2: Double
    /// Squared chords at most `inner` are neighbours, above `outer` not; between, the formula.
    let inner: Double
    let outer: Double

    init(eps: Double) {
        let s = ElementaryMath.sin(Swift.min(Double.pi, eps / SpherePoints.earthRadius) / 2)
        halfChord2 = s * s
        outer = 4 * halfChord2 * (1 + 1e-9) + 1e-24
        inner = 4 * halfChord2 * (1 - 1e-9)
    }
}

extension DBSCAN {
    /// The stages after the grid's, on the 3-D grid.
    static func fit(_ w: SphereGridWorkspace, rows: Int, threads: Int, observer: some StageObserver) -> DBSCANResult {
        let workers = Parallel.workers(threads)
        observer.run(DBSCANStage.corePoints) { w.findCorePoints(threads: workers) }
        let clusterCount = observer.run(DBSCANStage.clusters) { w.connectCorePoints() }
        return observer.run(DBSCANStage.borderPoints) {
            w.labelBorderPoints(threads: workers)
            return w.result(clusterCount: clusterCount, rows: rows)
        }
    }
}

/// The working arrays of one run, by position (points in cube order, core points first within
/// each cube once known) or by cube; raw buffers shared by the workers, each writing only the
/// slots of its own cubes.
final class SphereGridWorkspace: @unchecked Sendable {
    let n: Int
    let cellCount: Int
    let test: SphereNeighbourTest
    let minSamples: Int
    let grid: CellIndex
    /// Rows of the grid per layer (a `CellIndex` row is layer · rowsPerLayer + row).
    let rowsPerLayer: Int64
    let layerCount: Int64
    /// The corner of cube (0, 0, 0) and the cubes' side.
    let origin: (x: Double, y: Double, z: Double)
    let side: Double
    /// Column, row and layer of each cube.
    let cellI: UnsafeMutablePointer<Int32>
    let cellJ: UnsafeMutablePointer<Int32>
    let cellK: UnsafeMutablePointer<Int32>
    /// The points the grid holds: the input's, or its locations' (co-located points grouped,
    /// see `Locations`), each weighing its points.
    let points: SpherePoints
    let locations: Locations?
    /// Index into `points`, weight, core flag and label by position.
    /// (x, y, z of position p at 3p ..< 3p + 3).
    let pv: UnsafeMutablePointer<Double>
    let row: UnsafeMutablePointer<Int32>
    let weight: UnsafeMutablePointer<Int32>
    let core: UnsafeMutablePointer<Bool>
    let label: UnsafeMutablePointer<Int32>
    /// Per cube: first position, end of its core points, whether all its pairs are neighbours,
    /// and its tight box (min x, max x, min y, max y, min z, max z), after the core stage of
    /// its core points.
    let cellStart: UnsafeMutablePointer<Int32>
    let coreEnd: UnsafeMutablePointer<Int32>
    let compact: UnsafeMutablePointer<Bool>
    let box: UnsafeMutablePointer<Double>
    /// Per cube: the number of input points it holds.
    let cellWeight: UnsafeMutablePointer<Int>

    /// The largest number of cubes along one axis (three axes fit a 64-bit key).
    static let maxCellsPerAxis: Double = 2_097_152

    /// Buckets the points' unit vectors into cubes; nil when there would be more than 2²¹
    /// along an axis (eps far too small for the extent of the data).
    init?(_ points: SpherePoints, locations: Locations?, test: SphereNeighbourTest, minSamples: Int, threads: Int) {
        // In input order first, then moved into cube order in place.
        let v = Self.unitVectors(points, threads: threads)
        let side = (test.inner / 3).squareRoot() * (1 - 1e-9)
        var lo = (v[0], v[1], v[2]), hi = lo
        for p in 0..<points.count {
            lo = (min(lo.0, v[3 * p]), min(lo.1, v[3 * p + 1]), min(lo.2, v[3 * p + 2]))
            hi = (max(hi.0, v[3 * p]), max(hi.1, v[3 * p + 1]), max(hi.2, v[3 * p + 2]))
        }
        let span = ((hi.0 - lo.0) / side, (hi.1 - lo.1) / side, (hi.2 - lo.2) / side)
        guard Swift.max(span.0, span.1, span.2) < Self.maxCellsPerAxis - 1 else {
            v.deallocate()
            return nil
        }
        let nx = Int64(span.0.rounded(.down)) + 1, ny = Int64(span.1.rounded(.down)) + 1
        let nz = Int64(span.2.rounded(.down)) + 1
        let keys = [UInt64].filled(count: points.count, threads: threads) { p in
            let i = UInt64(((v[3 * p] - lo.0) / side).rounded(.down))
            let j = UInt64(((v[3 * p + 1] - lo.1) / side).rounded(.down))
            let k = UInt64(((v[3 * p + 2] - lo.2) / side).rounded(.down))
            return (k * UInt64(ny) + j) * UInt64(nx) + i
        }
        let index = CellIndex(keys: keys, columnCount: nx, rowCount: ny * nz, side: side)
        grid = index
        rowsPerLayer = ny; layerCount = nz
        origin = lo; self.side = side
        n = points.count; cellCount = grid.cellCount
        self.test = test; self.minSamples = minSamples; self.points = points; self.locations = locations
        let m = points.count, order = UnsafeMutablePointer<Int32>.allocate(capacity: m)
        index.rows.withUnsafeBufferPointer { order.initialize(from: $0.baseAddress!, count: m) }
        Self.permute(v, by: order, count: m)
        pv = v; row = order
        weight = .allocate(capacity: m)
        for p in 0..<m { weight[p] = locations?.weight[Int(order[p])] ?? 1 }
        core = .allocate(capacity: n); label = .allocate(capacity: n)
        core.initialize(repeating: false, count: n)
        label.initialize(repeating: -1, count: n)
        cellStart = .allocate(capacity: cellCount + 1); coreEnd = .allocate(capacity: cellCount)
        compact = .allocate(capacity: cellCount); box = .allocate(capacity: 6 * cellCount)
        cellWeight = .allocate(capacity: cellCount)
        for c in 0...cellCount { cellStart[c] = grid.cellStart[c] }
        (cellI, cellJ, cellK) = (.allocate(capacity: cellCount), .allocate(capacity: cellCount), .allocate(capacity: cellCount))
        for c in 0..<cellCount {
            let r = grid.row(c)
            (cellI[c], cellJ[c], cellK[c]) = (Int32(grid.column(c)), Int32(r % ny), Int32(r / ny))
            coreEnd[c] = cellStart[c]
            setBox(c, Int(cellStart[c])..<Int(cellStart[c + 1]))
            // Every pair rounds to at most the rounded diagonal.
            let b = box + 6 * c
            let w = b[1] - b[0], h = b[3] - b[2], d = b[5] - b[4]
            compact[c] = w * w + h * h + d * d <= test.inner
            cellWeight[c] = (Int(cellStart[c])..<Int(cellStart[c + 1])).reduce(0) { $0 + Int(weight[$1]) }
        }
    }

    /// The unit vector of row r at 3r ..< 3r + 3.
    private static func unitVectors(_ points: SpherePoints, threads: Int) -> UnsafeMutablePointer<Double> {
        let n = points.count
        let out = SharedBuffer(base: UnsafeMutablePointer<Double>.allocate(capacity: 3 * n))
        Parallel.forEachChunk(count: n, grain: 1 << 16, threads: threads) { chunk, _ in
            for r in chunk { (out[3 * r], out[3 * r + 1], out[3 * r + 2]) = points.unitVector(r) }
        }
        return out.base
    }

    /// Moves the vector of row `order[p]` to position p, in place, cycle by cycle.
    private static func permute(_ v: UnsafeMutablePointer<Double>, by order: UnsafeMutablePointer<Int32>, count n: Int) {
        var done = [UInt64](repeating: 0, count: n / 64 + 1)
        for s in 0..<n where done[s >> 6] & (1 << UInt64(s & 63)) == 0 {
            let first = (v[3 * s], v[3 * s + 1], v[3 * s + 2])
            var p = s
            while true {
                done[p >> 6] |= 1 << UInt64(p & 63)
                let q = Int(order[p])
                if q == s {
                    (v[3 * p], v[3 * p + 1], v[3 * p + 2]) = first
                    break
                }
                (v[3 * p], v[3 * p + 1], v[3 * p + 2]) = (v[3 * q], v[3 * q + 1], v[3 * q + 2])
                p = q
            }
        }
    }

    deinit {
        pv.deallocate(); row.deallocate(); weight.deallocate(); cellWeight.deallocate(); core.deallocate(); label.deallocate()
        cellStart.deallocate(); coreEnd.deallocate(); compact.deallocate(); box.deallocate()
        cellI.deallocate(); cellJ.deallocate(); cellK.deallocate()
    }

    /// Sets cube `c`'s box to the tight box of `positions` (empty: an infinitely far box).
    private func setBox(_ c: Int, _ positions: Range<Int>) {
        var b = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
        for p in positions {
            let x = pv[3 * p], y = pv[3 * p + 1], z = pv[3 * p + 2]
            b.0 = min(b.0, x); b.1 = max(b.1, x); b.2 = min(b.2, y); b.3 = max(b.3, y)
            b.4 = min(b.4, z); b.5 = max(b.5, z)
        }
        let o = box + 6 * c
        (o[0], o[1], o[2], o[3], o[4], o[5]) = b
    }

    // MARK: Distance tests

    /// A query: the unit vector of position `p`.
    struct Query {
        let p: Int
        let x: Double, y: Double, z: Double
    }

    @inline(__always) func query(_ p: Int) -> Query { Query(p: p, x: pv[3 * p], y: pv[3 * p + 1], z: pv[3 * p + 2]) }

    /// The neighbour test between a query and position `q`.
    @inline(__always) func within(_ a: Query, _ q: Int) -> Bool {
        let dx = a.x - pv[3 * q], dy = a.y - pv[3 * q + 1], dz = a.z - pv[3 * q + 2]
        let d2 = dx * dx + dy * dy + dz * dz
        if d2 <= test.inner { return true }
        return d2 <= test.outer && haversineWithin(a.p, q)
    }

    /// scikit-learn's test for a pair inside the band.
    @inline(never) func haversineWithin(_ p: Int, _ q: Int) -> Bool {
        SpherePoints.halfChord2(angles(p), angles(q)) <= test.halfChord2
    }

    @inline(__always) func angles(_ p: Int) -> SphereAngles.Point {
        let d = Double.pi / 180, r = Int(row[p])
        return SphereAngles.Point(lat: points.latitudes[r] * d, lon: points.longitudes[r] * d)
    }

    /// True when no point in cube `c`'s box can be a neighbour of the query.
    @inline(__always) func boxOutside(_ a: Query, _ c: Int) -> Bool {
        let b = box + 6 * c
        let dx = a.x < b[0] ? b[0] - a.x : (a.x > b[1] ? a.x - b[1] : 0)
        let dy = a.y < b[2] ? b[2] - a.y : (a.y > b[3] ? a.y - b[3] : 0)
        let dz = a.z < b[4] ? b[4] - a.z : (a.z > b[5] ? a.z - b[5] : 0)
        return dx * dx + dy * dy + dz * dz > test.outer
    }

    /// True when every point in cube `c`'s box is a neighbour of the query.
    @inline(__always) func boxInside(_ a: Query, _ c: Int) -> Bool {
        let b = box + 6 * c
        let dx = max(abs(a.x - b[0]), abs(a.x - b[1])), dy = max(abs(a.y - b[2]), abs(a.y - b[3]))
        let dz = max(abs(a.z - b[4]), abs(a.z - b[5]))
        return dx * dx + dy * dy + dz * dz <= test.inner
    }

    /// True when every point of cube `c`'s box is a neighbour of every point of cube `d`'s:
    /// each coordinate difference of a pair rounds to at most the boxes' farthest one.
    @inline(__always) func boxesInside(_ c: Int, _ d: Int) -> Bool {
        let a = box + 6 * c, b = box + 6 * d
        let dx = max(abs(a[1] - b[0]), abs(b[1] - a[0])), dy = max(abs(a[3] - b[2]), abs(b[3] - a[2]))
        let dz = max(abs(a[5] - b[4]), abs(b[5] - a[4]))
        return dx * dx + dy * dy + dz * dz <= test.inner
    }

    /// True when no point of cube `c`'s box can be a neighbour of any point of cube `d`'s.
    @inline(__always) func boxesOutside(_ c: Int, _ d: Int) -> Bool {
        let a = box + 6 * c, b = box + 6 * d
        let dx = max(b[0] - a[1], a[0] - b[1], 0), dy = max(b[2] - a[3], a[2] - b[3], 0)
        let dz = max(b[4] - a[5], a[4] - b[5], 0)
        return dx * dx + dy * dy + dz * dz > test.outer
    }

    // MARK: Stages

    /// Marks core points, then puts each cube's core points first and shrinks its box to them.
    func findCorePoints(threads: Int) {
        Parallel.forEachChunk(count: cellCount, grain: 256, threads: threads) { chunk, _ in
            var sweep = SphereSweep(self, startingAt: chunk.lowerBound, forwardOnly: false)
            for c in chunk {
                let s = Int(cellStart[c]), e = Int(cellStart[c + 1])
                if compact[c] && cellWeight[c] >= minSamples {
                    for p in s..<e { core[p] = true }
                    continue
                }
                sweep.move(to: c, in: self, around: yzBox(c))
                if surelyCore(c, sweep.ranges) {
                    for p in s..<e { core[p] = true }
                    continue
                }
                for p in s..<e { core[p] = countReaches(query(p), sweep.ranges) }
            }
        }
        Parallel.forEachChunk(count: cellCount, grain: 1024, threads: threads) { chunk, _ in
            for c in chunk {
                var i = Int(cellStart[c]), j = Int(cellStart[c + 1]) - 1
                while i <= j {
                    if core[i] { i += 1 } else if !core[j] { j -= 1 } else { swapPositions(i, j); i += 1; j -= 1 }
                }
                coreEnd[c] = Int32(i)
                setBox(c, Int(cellStart[c])..<i)
            }
        }
    }

    /// Whether every point of cube `c` has at least `minSamples` neighbours in the cubes
    /// `ranges` wholly within reach of the whole cube (its own when compact): then none of them
    /// needs counting.
    private func surelyCore(_ c: Int, _ ranges: ArraySlice<Range<Int>>) -> Bool {
        var count = 0
        for r in ranges {
            for d in r where d == c ? compact[c] : boxesInside(c, d) {
                count += cellWeight[d]
                if count >= minSamples { return true }
            }
        }
        return false
    }

    /// Whether the query has at least `minSamples` neighbours in the cubes `ranges`.
    private func countReaches(_ a: Query, _ ranges: ArraySlice<Range<Int>>) -> Bool {
        var count = 0
        for r in ranges {
            for d in r {
                if boxOutside(a, d) { continue }
                let s = Int(cellStart[d]), e = Int(cellStart[d + 1])
                if boxInside(a, d) {
                    count += cellWeight[d]
                } else {
                    for q in s..<e where within(a, q) { count += Int(weight[q]) }
                }
                if count >= minSamples { return true }
            }
        }
        return false
    }

    private func swapPositions(_ a: Int, _ b: Int) {
        for i in 0..<3 { swap(&pv[3 * a + i], &pv[3 * b + i]) }
        swap(&row[a], &row[b]); swap(&weight[a], &weight[b]); swap(&core[a], &core[b])
    }

    /// Joins neighbouring core points into clusters numbered by lowest input row; labels every
    /// core point. Returns the number of clusters.
    func connectCorePoints() -> Int {
        var sets = UnionFind(count: n)
        return sets.withRawAccess { uf in
            var sweep = SphereSweep(self, startingAt: 0, forwardOnly: true)
            for c in 0..<cellCount where coreEnd[c] > cellStart[c] {
                joinInside(c, uf)
                sweep.move(to: c, in: self, around: yzBox(c))
                for r in sweep.ranges {
                    for d in r where d > c && coreEnd[d] > cellStart[d] { join(c, d, uf) }
                }
            }
            return numberClusters(uf)
        }
    }

    /// The union-find node of position `p` of cube `c`: a compact cube's cores are one node.
    @inline(__always) private func node(_ p: Int, _ c: Int) -> Int { compact[c] ? Int(cellStart[c]) : p }

    /// Joins the neighbouring core points of a cube that is not compact.
    private func joinInside(_ c: Int, _ uf: RawUnionFind) {
        if compact[c] { return }
        let s = Int(cellStart[c]), e = Int(coreEnd[c])
        for p in s..<e {
            let a = query(p)
            for q in (p + 1)..<e where within(a, q) { uf.union(p, q) }
        }
    }

    /// Joins the core points of cube `c` with their core neighbours in cube `d`.
    private func join(_ c: Int, _ d: Int, _ uf: RawUnionFind) {
        let s = Int(cellStart[c]), e = Int(coreEnd[c])
        if compact[c] && compact[d] {
            let a = uf.find(s), b = uf.find(Int(cellStart[d]))
            if a != b && anyCoreNeighbours(c, d) { uf.union(a, b) }
            return
        }
        for p in s..<e {
            let a = query(p)
            if boxOutside(a, d) { continue }
            for q in Int(cellStart[d])..<Int(coreEnd[d]) where within(a, q) { uf.union(node(p, c), node(q, d)) }
        }
    }

    /// Whether some core of compact cube `a` and some core of compact cube `b` are neighbours.
    private func anyCoreNeighbours(_ a: Int, _ b: Int) -> Bool {
        if boxesOutside(a, b) { return false }
        if boxesInside(a, b) { return true }
        var (a, b) = (a, b)
        if coreEnd[a] - cellStart[a] > coreEnd[b] - cellStart[b] { swap(&a, &b) }
        for p in Int(cellStart[a])..<Int(coreEnd[a]) {
            let u = query(p)
            if boxOutside(u, b) { continue }
            if boxInside(u, b) { return true }
            for q in Int(cellStart[b])..<Int(coreEnd[b]) where within(u, q) { return true }
        }
        return false
    }

    /// Numbers the components by their lowest input row (scikit-learn's order) and labels the
    /// core points; returns the number of clusters.
    private func numberClusters(_ uf: RawUnionFind) -> Int {
        var first = [Int32](repeating: .max, count: n)
        for c in 0..<cellCount {
            for p in Int(cellStart[c])..<Int(coreEnd[c]) {
                let root = uf.find(node(p, c))
                first[root] = min(first[root], lowestRow(p))
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

    /// Gives each non-core point the lowest label among its core neighbours' (-1 if none).
    func labelBorderPoints(threads: Int) {
        Parallel.forEachChunk(count: cellCount, grain: 256, threads: threads) { chunk, _ in
            var sweep = SphereSweep(self, startingAt: chunk.lowerBound, forwardOnly: false)
            for c in chunk where coreEnd[c] < cellStart[c + 1] {
                sweep.move(to: c, in: self, around: yzBox(Int(coreEnd[c])..<Int(cellStart[c + 1])))
                for p in Int(coreEnd[c])..<Int(cellStart[c + 1]) { label[p] = lowestCoreLabel(query(p), sweep.ranges) }
            }
        }
    }

    private func lowestCoreLabel(_ a: Query, _ ranges: ArraySlice<Range<Int>>) -> Int32 {
        var best = Int32.max
        for r in ranges {
            for d in r where coreEnd[d] > cellStart[d] {
                if boxOutside(a, d) { continue }
                let s = Int(cellStart[d]), e = Int(coreEnd[d])
                if compact[d] {
                    // One cluster per compact cube: test only if it would improve the answer.
                    let l = label[s]
                    if l >= best { continue }
                    if boxInside(a, d) { best = l; continue }
                    for q in s..<e where within(a, q) { best = l; break }
                } else {
                    for q in s..<e where label[q] < best && within(a, q) { best = label[q] }
                }
            }
        }
        return best == .max ? -1 : best
    }

    /// The lowest input row at position p (its location's first).
    @inline(__always) private func lowestRow(_ p: Int) -> Int32 {
        guard let locations else { return row[p] }
        return locations.rows[Int(locations.start[Int(row[p])])]
    }

    /// Labels and core flags by input row.
    func result(clusterCount: Int, rows: Int) -> DBSCANResult {
        var labels = [Int32](repeating: -1, count: rows), isCore = [Bool](repeating: false, count: rows)
        guard let locations else {
            for p in 0..<n { labels[Int(row[p])] = label[p]; isCore[Int(row[p])] = core[p] }
            return DBSCANResult(labels: labels, isCore: isCore, clusterCount: clusterCount)
        }
        // By location, so that the locations' rows are read in order.
        var at = [Int32](repeating: 0, count: n)
        for p in 0..<n { at[Int(row[p])] = Int32(p) }
        for l in 0..<n {
            let p = Int(at[l])
            for j in Int(locations.start[l])..<Int(locations.start[l + 1]) {
                let r = Int(locations.rows[j])
                labels[r] = label[p]; isCore[r] = core[p]
            }
        }
        return DBSCANResult(labels: labels, isCore: isCore, clusterCount: clusterCount)
    }
}

/// The cubes that can hold neighbours of a cube's points: at most two apart along each axis,
/// found row by row (a row is one (layer, row) pair of the grid, its cubes by column), one
/// cursor per row offset that only moves forward while the cubes come in ascending order.
private struct SphereSweep {
    /// Only the rows at or after a cube's own (layer first): with the cubes after it in its own
    /// row, every pair of neighbouring cubes once.
    let forwardOnly: Bool
    /// One cursor per (layer, row) offset, slot 5 · (dk + 2) + (dj + 2).
    var cursors: [Int]
    /// The non-empty ranges of cubes found by the last `move`.
    var found: [Range<Int>]
    var count = 0
    var ranges: ArraySlice<Range<Int>> { found[0..<count] }

    init(_ w: SphereGridWorkspace, startingAt c: Int, forwardOnly: Bool) {
        self.forwardOnly = forwardOnly
        found = [Range<Int>](repeating: 0..<0, count: 25)
        guard c < w.cellCount else {
            cursors = [Int](repeating: w.cellCount, count: 25)
            return
        }
        let r = w.grid.row(c), columns = UInt64(w.grid.columnCount)
        cursors = (0..<25).map { slot in
            let r2 = r + Int64(slot / 5 - 2) * w.rowsPerLayer + Int64(slot % 5 - 2)
            if r2 >= w.grid.rowCount { return w.cellCount }
            return w.grid.lowerBound(UInt64(Swift.max(r2, 0)) * columns)
        }
    }

    /// Finds the neighbourhood of cube `c` for the points asked about, whose y and z lie in
    /// `b` (min y, max y, min z, max z), leaving out the rows that none of them can reach.
    mutating func move(to c: Int, in w: SphereGridWorkspace, around b: SIMD4<Double>) {
        let i = Int64(w.cellI[c]), j = Int64(w.cellJ[c]), k = Int64(w.cellK[c])
        let forwardOnly = forwardOnly
        var n = 0
        cursors.withUnsafeMutableBufferPointer { cursor in
        found.withUnsafeMutableBufferPointer { out in
            for dk in Int64(forwardOnly ? 0 : -2)...2 {
                let k2 = k + dk
                if k2 < 0 || k2 >= w.layerCount { continue }
                let gz = w.gap2(dk, k, w.origin.z, b[2], b[3])
                for dj in Int64(forwardOnly && dk == 0 ? 0 : -2)...2 {
                    let j2 = j + dj
                    if j2 < 0 || j2 >= w.rowsPerLayer { continue }
                    if gz + w.gap2(dj, j, w.origin.y, b[0], b[1]) > w.test.outer { continue }
                    let r = w.grid.cells(row: k2 * w.rowsPerLayer + j2, columns: i - 2, i + 2,
                                         cursor: &cursor[Int(5 * (dk + 2) + dj + 2)])
                    if !r.isEmpty { out[n] = r; n += 1 }
                }
            }
        }}
        count = n
    }
}

extension SphereGridWorkspace {
    /// The y and z bounds of cube `c`'s box.
    @inline(__always) func yzBox(_ c: Int) -> SIMD4<Double> {
        let b = box + 6 * c
        return SIMD4(b[2], b[3], b[4], b[5])
    }

    /// The y and z bounds of the points at `positions`.
    @inline(__always) func yzBox(_ positions: Range<Int>) -> SIMD4<Double> {
        var b = SIMD4(Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
        for p in positions {
            let y = pv[3 * p + 1], z = pv[3 * p + 2]
            b = SIMD4(min(b[0], y), max(b[1], y), min(b[2], z), max(b[3], z))
        }
        return b
    }

    /// A lower bound of the squared gap along one axis between the box [lo, hi] of a cube at
    /// grid coordinate j and the points at grid coordinate j + d: cut by far more than the
    /// rounding of the cube coordinates and scaled down by far more than the rounding of a
    /// squared chord, so that rows it puts beyond `outer` hold no pair that passes the test.
    @inline(__always)
    func gap2(_ d: Int64, _ j: Int64, _ origin: Double, _ lo: Double, _ hi: Double) -> Double {
        if d == 0 { return 0 }
        let g = d > 0 ? (origin + Double(j + d) * side) - hi : lo - (origin + Double(j + d + 1) * side)
        let h = Swift.max(g - 1e-14, 0)
        return h * h * (1 - 1e-12)
    }
}
