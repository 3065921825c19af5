// DBSCAN on the sphere through a 3-D grid of cubes over the unit vectors: the planar DBSCAN's
// method (see DBSCAN.swift) one dimension up, with the sphere's neighbour test.
//
// Cubes have a side just under chord(eps)/√3, so that the diagonal of one stays below the
// chord and its points are normally all neighbours ("compact", checked per cell); neighbours
// are then at most two cubes apart along each axis. The points lie on a surface, so of the
// 5 × 5 × 5 cubes around one only a slab is occupied; the grid stores occupied cubes only, in
// a `CellIndex` whose rows are (layer, row) pairs.
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
    static func fit(_ w: SphereGridWorkspace, threads: Int, observer: some StageObserver) -> DBSCANResult {
        let workers = Swift.max(1, threads)
        observer.run(DBSCANStage.corePoints) { w.findCorePoints(threads: workers) }
        let clusterCount = observer.run(DBSCANStage.clusters) { w.connectCorePoints() }
        return observer.run(DBSCANStage.borderPoints) {
            w.labelBorderPoints(threads: workers)
            return w.result(clusterCount: clusterCount)
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
    let points: SpherePoints
    /// Unit vector, input row, core flag and label by position.
    let px: UnsafeMutablePointer<Double>
    let py: UnsafeMutablePointer<Double>
    let pz: UnsafeMutablePointer<Double>
    let row: UnsafeMutablePointer<Int32>
    let core: UnsafeMutablePointer<Bool>
    let label: UnsafeMutablePointer<Int32>
    /// Per cube: first position, end of its core points, whether all its pairs are neighbours,
    /// and its tight box (min x, max x, min y, max y, min z, max z), after the core stage of
    /// its core points.
    let cellStart: UnsafeMutablePointer<Int32>
    let coreEnd: UnsafeMutablePointer<Int32>
    let compact: UnsafeMutablePointer<Bool>
    let box: UnsafeMutablePointer<Double>

    /// The largest number of cubes along one axis (three axes fit a 64-bit key).
    static let maxCellsPerAxis: Double = 2_097_152

    /// Buckets the points' unit vectors into cubes; nil when there would be more than 2²¹
    /// along an axis (eps far too small for the extent of the data).
    init?(_ points: SpherePoints, test: SphereNeighbourTest, minSamples: Int, threads: Int) {
        let v = points.unitVectors(threads: threads)
        let side = (test.inner / 3).squareRoot() * (1 - 1e-9)
        let lo = (v.x.min()!, v.y.min()!, v.z.min()!)
        let span = ((v.x.max()! - lo.0) / side, (v.y.max()! - lo.1) / side, (v.z.max()! - lo.2) / side)
        guard Swift.max(span.0, span.1, span.2) < Self.maxCellsPerAxis - 1 else { return nil }
        let nx = Int64(span.0.rounded(.down)) + 1, ny = Int64(span.1.rounded(.down)) + 1
        let nz = Int64(span.2.rounded(.down)) + 1
        let keys = [UInt64].filled(count: points.count, threads: threads) { p in
            let i = UInt64(((v.x[p] - lo.0) / side).rounded(.down)), j = UInt64(((v.y[p] - lo.1) / side).rounded(.down))
            let k = UInt64(((v.z[p] - lo.2) / side).rounded(.down))
            return (k * UInt64(ny) + j) * UInt64(nx) + i
        }
        grid = CellIndex(keys: keys, columnCount: nx, rowCount: ny * nz, side: side)
        rowsPerLayer = ny; layerCount = nz
        n = points.count; cellCount = grid.cellCount
        self.test = test; self.minSamples = minSamples; self.points = points
        (px, py, pz) = (.allocate(capacity: n), .allocate(capacity: n), .allocate(capacity: n))
        row = .allocate(capacity: n)
        for p in 0..<n {
            let r = Int(grid.rows[p])
            px[p] = v.x[r]; py[p] = v.y[r]; pz[p] = v.z[r]; row[p] = Int32(r)
        }
        core = .allocate(capacity: n); label = .allocate(capacity: n)
        core.initialize(repeating: false, count: n)
        label.initialize(repeating: -1, count: n)
        cellStart = .allocate(capacity: cellCount + 1); coreEnd = .allocate(capacity: cellCount)
        compact = .allocate(capacity: cellCount); box = .allocate(capacity: 6 * cellCount)
        for c in 0...cellCount { cellStart[c] = grid.cellStart[c] }
        for c in 0..<cellCount {
            coreEnd[c] = cellStart[c]
            setBox(c, Int(cellStart[c])..<Int(cellStart[c + 1]))
            // Every pair rounds to at most the rounded diagonal.
            let b = box + 6 * c
            let w = b[1] - b[0], h = b[3] - b[2], d = b[5] - b[4]
            compact[c] = w * w + h * h + d * d <= test.inner
        }
    }

    deinit {
        px.deallocate(); py.deallocate(); pz.deallocate(); row.deallocate(); core.deallocate(); label.deallocate()
        cellStart.deallocate(); coreEnd.deallocate(); compact.deallocate(); box.deallocate()
    }

    /// Sets cube `c`'s box to the tight box of `positions` (empty: an infinitely far box).
    private func setBox(_ c: Int, _ positions: Range<Int>) {
        var b = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
        for p in positions {
            b.0 = min(b.0, px[p]); b.1 = max(b.1, px[p]); b.2 = min(b.2, py[p]); b.3 = max(b.3, py[p])
            b.4 = min(b.4, pz[p]); b.5 = max(b.5, pz[p])
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

    @inline(__always) func query(_ p: Int) -> Query { Query(p: p, x: px[p], y: py[p], z: pz[p]) }

    /// The neighbour test between a query and position `q`.
    @inline(__always) func within(_ a: Query, _ q: Int) -> Bool {
        let dx = a.x - px[q], dy = a.y - py[q], dz = a.z - pz[q]
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

    // MARK: Stages

    /// Marks core points, then puts each cube's core points first and shrinks its box to them.
    func findCorePoints(threads: Int) {
        Parallel.forEachChunk(count: cellCount, grain: 256, threads: threads) { chunk, _ in
            var sweep = SphereSweep(self, startingAt: chunk.lowerBound, offsets: SphereSweep.all)
            for c in chunk {
                let s = Int(cellStart[c]), e = Int(cellStart[c + 1])
                if compact[c] && e - s >= minSamples {
                    for p in s..<e { core[p] = true }
                    continue
                }
                sweep.move(to: c, in: self)
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

    /// Whether the query has at least `minSamples` neighbours in the cubes `ranges`.
    private func countReaches(_ a: Query, _ ranges: [Range<Int>]) -> Bool {
        var count = 0
        for r in ranges {
            for d in r {
                if boxOutside(a, d) { continue }
                let s = Int(cellStart[d]), e = Int(cellStart[d + 1])
                if boxInside(a, d) {
                    count += e - s
                } else {
                    for q in s..<e where within(a, q) { count += 1 }
                }
                if count >= minSamples { return true }
            }
        }
        return false
    }

    private func swapPositions(_ a: Int, _ b: Int) {
        swap(&px[a], &px[b]); swap(&py[a], &py[b]); swap(&pz[a], &pz[b])
        swap(&row[a], &row[b]); swap(&core[a], &core[b])
    }

    /// Joins neighbouring core points into clusters numbered by lowest input row; labels every
    /// core point. Returns the number of clusters.
    func connectCorePoints() -> Int {
        var sets = UnionFind(count: n)
        return sets.withRawAccess { uf in
            var sweep = SphereSweep(self, startingAt: 0, offsets: SphereSweep.forward)
            for c in 0..<cellCount where coreEnd[c] > cellStart[c] {
                joinInside(c, uf)
                sweep.move(to: c, in: self)
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

    /// Gives each non-core point the lowest label among its core neighbours' (-1 if none).
    func labelBorderPoints(threads: Int) {
        Parallel.forEachChunk(count: cellCount, grain: 256, threads: threads) { chunk, _ in
            var sweep = SphereSweep(self, startingAt: chunk.lowerBound, offsets: SphereSweep.all)
            for c in chunk where coreEnd[c] < cellStart[c + 1] {
                sweep.move(to: c, in: self)
                for p in Int(coreEnd[c])..<Int(cellStart[c + 1]) { label[p] = lowestCoreLabel(query(p), sweep.ranges) }
            }
        }
    }

    private func lowestCoreLabel(_ a: Query, _ ranges: [Range<Int>]) -> Int32 {
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

    /// Labels and core flags by input row.
    func result(clusterCount: Int) -> DBSCANResult {
        var labels = [Int32](repeating: -1, count: n), isCore = [Bool](repeating: false, count: n)
        for p in 0..<n {
            let r = Int(row[p])
            labels[r] = label[p]
            isCore[r] = core[p]
        }
        return DBSCANResult(labels: labels, isCore: isCore, clusterCount: clusterCount)
    }
}

/// The cubes that can hold neighbours of a cube's points: at most two apart along each axis,
/// found row by row (a row is one (layer, row) pair of the grid, its cubes by column), one
/// cursor per row offset that only moves forward while the cubes come in ascending order.
private struct SphereSweep {
    /// Offsets (row, layer) of the rows to visit.
    let offsets: [(Int64, Int64)]
    var cursors: [Int]
    var ranges: [Range<Int>]

    /// All 25 row offsets.
    static let all: [(Int64, Int64)] = (-2...2).flatMap { k in (-2...2).map { j in (Int64(j), Int64(k)) } }
    /// The rows at or after a cube's own (layer first): with cubes after it in its own row,
    /// every pair of neighbouring cubes once.
    static let forward: [(Int64, Int64)] = all.filter { $0.1 > 0 || ($0.1 == 0 && $0.0 >= 0) }

    init(_ w: SphereGridWorkspace, startingAt c: Int, offsets: [(Int64, Int64)]) {
        self.offsets = offsets
        ranges = [Range<Int>](repeating: 0..<0, count: offsets.count)
        guard c < w.cellCount else {
            cursors = [Int](repeating: w.cellCount, count: offsets.count)
            return
        }
        let r = w.grid.row(c), columns = UInt64(w.grid.columnCount)
        cursors = offsets.map { o in
            let r2 = r + o.1 * w.rowsPerLayer + o.0
            if r2 >= w.grid.rowCount { return w.cellCount }
            return w.grid.lowerBound(UInt64(Swift.max(r2, 0)) * columns)
        }
    }

    /// Fills `ranges` with the neighbourhood of cube `c`.
    mutating func move(to c: Int, in w: SphereGridWorkspace) {
        let i = w.grid.column(c), r = w.grid.row(c)
        let j = r % w.rowsPerLayer, k = r / w.rowsPerLayer
        for m in 0..<offsets.count {
            let (dj, dk) = offsets[m]
            let j2 = j + dj, k2 = k + dk
            if j2 < 0 || j2 >= w.rowsPerLayer || k2 < 0 || k2 >= w.layerCount {
                ranges[m] = 0..<0
                continue
            }
            ranges[m] = w.grid.cells(row: k2 * w.rowsPerLayer + j2, columns: i - 2, i + 2, cursor: &cursors[m])
        }
    }
}
