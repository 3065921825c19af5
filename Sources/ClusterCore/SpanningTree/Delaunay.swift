// The Delaunay triangulation of planar points by a radial sweep: the points are added in order
// of their distance from a seed triangle's circumcentre, each joined to the hull edges it sees,
// and every edge made interior is flipped until it is locally Delaunay (Lawson). The hull is a
// linked list with a hash on the angle around the centre for finding a visible edge
// (the scheme of Sinclair's S-hull, and of the delaunator library, re-derived here).
// Orientation and in-circle tests are exact (Predicates.swift), so the result is a Delaunay
// triangulation of the points' exact coordinates, and it is a pure function of the input.
//
// It is what the Euclidean MST is taken from (MinimumSpanningTree+Euclidean.swift): every edge
// of a Euclidean MST is a Gabriel edge, hence an edge of every Delaunay triangulation.

/// A Delaunay triangulation as half-edges: triangle t has vertices `triangles[3t ..< 3t + 3]`
/// counter-clockwise (y up), half-edge e runs from `triangles[e]` to the next vertex of its
/// triangle, and `halfedges[e]` is the opposite half-edge, or -1 on the hull.
///
/// Vertices are numbered in the order the sweep inserted them (`point[v]` is the input index
/// of vertex v, `x[v]`, `y[v]` its coordinates): in that order the points the sweep works on
/// at any moment, near the advancing hull, are near each other in memory too. (Indexed by
/// input order, a map's locations in token order, the in-circle tests' coordinate loads were
/// cache misses and took a third of the sweep's time.)
struct DelaunayTriangulation {
    var triangles: [Int32]
    var halfedges: [Int32]
    /// The input index of each vertex number, and its coordinates.
    var point: [Int32]
    var x: [Double], y: [Double]
    /// Points left out because they coincide exactly with an earlier one, as vertex numbers:
    /// (the point, the vertex it coincides with). Every other point is a vertex.
    var duplicates: [(point: Int32, of: Int32)]

    /// The triangulation of the points, or nil when there is none to take the MST from: fewer
    /// than three distinct points, all of them collinear, or a point the sweep could not place
    /// (one strictly inside the seed triangle); callers fall back to another method then.
    init?(xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>) {
        let n = xs.count
        guard n >= 3, n < Int(Int32.max) / 3 else { return nil }
        guard let sweep = DelaunaySweep(xs: xs, ys: ys) else { return nil }
        guard let built = sweep.run() else { return nil }
        self = built
    }

    init(triangles: [Int32], halfedges: [Int32], point: [Int32], x: [Double], y: [Double],
         duplicates: [(point: Int32, of: Int32)]) {
        self.triangles = triangles
        self.halfedges = halfedges
        self.point = point
        self.x = x; self.y = y
        self.duplicates = duplicates
    }
}

/// The sweep's working state (see the file's header).
private struct DelaunaySweep {
    let xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>
    let n: Int
    let i0: Int, i1: Int, i2: Int
    let cx: Double, cy: Double

    init?(xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>) {
        self.xs = xs; self.ys = ys
        n = xs.count
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for i in 0..<n {
            minX = min(minX, xs[i]); maxX = max(maxX, xs[i]); minY = min(minY, ys[i]); maxY = max(maxY, ys[i])
        }
        let mx = (minX + maxX) / 2, my = (minY + maxY) / 2
        @inline(__always) func d2(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
            let dx = ax - bx, dy = ay - by
            return dx * dx + dy * dy
        }
        // Seed: the point nearest the box's centre, its nearest other point, and the third
        // point making the smallest circumcircle with them (ties: the smallest index).
        var s0 = 0, best = Double.infinity
        for i in 0..<n { let d = d2(xs[i], ys[i], mx, my); if d < best { best = d; s0 = i } }
        var s1 = -1
        best = .infinity
        for i in 0..<n where i != s0 {
            let d = d2(xs[i], ys[i], xs[s0], ys[s0])
            if d > 0 && d < best { best = d; s1 = i }
        }
        guard s1 >= 0 else { return nil }                      // every point the same
        var s2 = -1
        best = .infinity
        for i in 0..<n where i != s0 && i != s1 {
            let r = Self.circumradius2(xs[s0], ys[s0], xs[s1], ys[s1], xs[i], ys[i])
            if r < best { best = r; s2 = i }
        }
        guard s2 >= 0, best.isFinite else { return nil }       // collinear
        let o = Predicates.orient(xs[s0], ys[s0], xs[s1], ys[s1], xs[s2], ys[s2])
        guard o != 0 else { return nil }
        if o < 0 { swap(&s1, &s2) }                            // counter-clockwise
        i0 = s0; i1 = s1; i2 = s2
        (cx, cy) = Self.circumcentre(xs[s0], ys[s0], xs[s1], ys[s1], xs[s2], ys[s2])
        guard cx.isFinite, cy.isFinite else { return nil }
    }

    static func circumradius2(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Double {
        let dx = bx - ax, dy = by - ay, ex = cx - ax, ey = cy - ay
        let bl = dx * dx + dy * dy, cl = ex * ex + ey * ey
        let d = 0.5 / (dx * ey - dy * ex)
        let x = (ey * bl - dy * cl) * d, y = (dx * cl - ex * bl) * d
        let r = x * x + y * y
        return r.isFinite ? r : .infinity
    }

    static func circumcentre(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> (Double, Double) {
        let dx = bx - ax, dy = by - ay, ex = cx - ax, ey = cy - ay
        let bl = dx * dx + dy * dy, cl = ex * ex + ey * ey
        let d = 0.5 / (dx * ey - dy * ex)
        return (ax + (ey * bl - dy * cl) * d, ay + (dx * cl - ex * bl) * d)
    }

    /// A monotone stand-in for the angle of (dx, dy), in [0, 1).
    @inline(__always)
    static func pseudoAngle(_ dx: Double, _ dy: Double) -> Double {
        let p = dx / (abs(dx) + abs(dy))
        return (dy > 0 ? 3 - p : 1 + p) / 4
    }

    func run() -> DelaunayTriangulation? {
        let n = self.n
        // The order of insertion: by distance from the centre, then by coordinates (so that
        // points at one position are adjacent), then by index.
        let order: [Int32] = {
            let ix = self.xs.baseAddress!, iy = self.ys.baseAddress!
            let dist = [Double](unsafeUninitializedCapacity: n) { b, c in
                for i in 0..<n { let dx = ix[i] - cx, dy = iy[i] - cy; b[i] = dx * dx + dy * dy }
                c = n
            }
            // Radix order by distance (stable, so ties stay in index order), then the rare runs
            // of equal distance by coordinates.
            var o = RadixSort.stableOrder(of: dist, threads: 1)
            var k = 0
            while k < n {
                var e = k + 1
                while e < n && dist[Int(o[e])] == dist[Int(o[k])] { e += 1 }
                if e - k > 1 {
                    o[k..<e].sort { a, b in
                        (ix[Int(a)], iy[Int(a)], a) < (ix[Int(b)], iy[Int(b)], b)
                    }
                }
                k = e
            }
            return o
        }()
        // Coordinates in insertion order; from here on a point is its place in that order.
        let px = order.map { self.xs[Int($0)] }, py = order.map { self.ys[Int($0)] }
        var i0 = -1, i1 = -1, i2 = -1
        for k in 0..<n {
            let p = Int(order[k])
            if p == self.i0 { i0 = k } else if p == self.i1 { i1 = k } else if p == self.i2 { i2 = k }
        }
        return px.withUnsafeBufferPointer { xb in
            py.withUnsafeBufferPointer { yb in
                sweep(xs: xb.baseAddress!, ys: yb.baseAddress!, i0: i0, i1: i1, i2: i2, order: order, px: px, py: py)
            }
        }
    }

    /// The sweep over the points in insertion order (`xs`, `ys`; seeds `i0`, `i1`, `i2`).
    private func sweep(xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, i0: Int, i1: Int, i2: Int,
                       order: [Int32], px: [Double], py: [Double]) -> DelaunayTriangulation? {
        let state = SweepState(xs: xs, ys: ys, count: n, cx: cx, cy: cy)
        guard state.run(i0: i0, i1: i1, i2: i2) else { return nil }
        // A triangulation of the v distinct points with h of them on the hull has 2v − h − 2
        // triangles; anything else means a point was lost.
        let distinct = n - state.duplicates.count
        guard state.triangleCount == 2 * distinct - state.hullSize() - 2 else { return nil }
        let m = 3 * state.triangleCount
        return DelaunayTriangulation(triangles: Array(UnsafeBufferPointer(start: state.tri, count: m)),
                                     halfedges: Array(UnsafeBufferPointer(start: state.half, count: m)),
                                     point: order, x: px, y: py, duplicates: state.duplicates)
    }
}

/// The sweep's buffers and steps, over raw memory (nested functions capturing the counters and
/// the flip stack made every access go through a box: the sweep ran at half this speed).
private final class SweepState {
    let n: Int
    /// x and y side by side: one cache line per point read.
    let xy: UnsafeMutablePointer<Double>
    let tri: UnsafeMutablePointer<Int32>
    let half: UnsafeMutablePointer<Int32>
    let hullPrev: UnsafeMutablePointer<Int32>, hullNext: UnsafeMutablePointer<Int32>
    /// The half-edge on the hull that starts at each hull vertex.
    let hullTri: UnsafeMutablePointer<Int32>
    let hash: UnsafeMutablePointer<Int32>
    let hashSize: Int
    var stack: UnsafeMutablePointer<Int32>
    var stackCapacity = 1024
    let cx: Double, cy: Double
    var triangleCount = 0
    var hullStart = 0
    var duplicates: [(point: Int32, of: Int32)] = []

    init(xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, count n: Int, cx: Double, cy: Double) {
        self.n = n
        self.cx = cx; self.cy = cy
        xy = .allocate(capacity: 2 * n)
        for i in 0..<n { xy[2 * i] = xs[i]; xy[2 * i + 1] = ys[i] }
        let maxHalf = 3 * max(2 * n - 5, 1)
        tri = .allocate(capacity: maxHalf)
        half = .allocate(capacity: maxHalf)
        hullPrev = .allocate(capacity: n); hullNext = .allocate(capacity: n)
        hullTri = .allocate(capacity: n)
        hullTri.initialize(repeating: -1, count: n)
        var size = 1
        while size * size < n { size += 1 }
        hashSize = size
        hash = .allocate(capacity: size)
        hash.initialize(repeating: -1, count: size)
        stack = .allocate(capacity: stackCapacity)
    }

    deinit {
        xy.deallocate(); tri.deallocate(); half.deallocate()
        hullPrev.deallocate(); hullNext.deallocate(); hullTri.deallocate(); hash.deallocate(); stack.deallocate()
    }

    @inline(__always) func x(_ i: Int) -> Double { xy[2 * i] }
    @inline(__always) func y(_ i: Int) -> Double { xy[2 * i + 1] }

    @inline(__always) func hashKey(_ i: Int) -> Int {
        let a = DelaunaySweep.pseudoAngle(x(i) - cx, y(i) - cy)
        return min(Int(a * Double(hashSize)), hashSize - 1)     // a in [0, 1]
    }

    @inline(__always) func link(_ a: Int, _ b: Int) {
        half[a] = Int32(b)
        if b >= 0 { half[b] = Int32(a) }
    }

    /// Adds triangle (a, b, c), its half-edges opposite `ha`, `hb`, `hc`; returns its first half-edge.
    @inline(__always) func add(_ a: Int, _ b: Int, _ c: Int, _ ha: Int, _ hb: Int, _ hc: Int) -> Int {
        let t = 3 * triangleCount
        tri[t] = Int32(a); tri[t + 1] = Int32(b); tri[t + 2] = Int32(c)
        link(t, ha); link(t + 1, hb); link(t + 2, hc)
        triangleCount += 1
        return t
    }

    @inline(__always) func orient(_ a: Int, _ b: Int, _ px: Double, _ py: Double) -> Double {
        Predicates.orient(x(a), y(a), x(b), y(b), px, py)
    }

    /// Flips edges until every edge reachable from `start` is locally Delaunay. A hull edge
    /// that a flip moves to another slot is followed in `hullTri`.
    func legalize(_ start: Int) {
        var top = 0
        var a = start
        while true {
            let b = Int(half[a])
            var flip = false
            let a0 = a - a % 3
            let ar = a0 + (a + 2) % 3
            if b >= 0 {
                let al = a0 + (a + 1) % 3
                let b0 = b - b % 3, bl = b0 + (b + 2) % 3
                let p0 = Int(tri[ar]), pr = Int(tri[a]), pl = Int(tri[al]), p1 = Int(tri[bl])
                if Predicates.incircle(x(p0), y(p0), x(pr), y(pr), x(pl), y(pl), x(p1), y(p1)) > 0 {
                    flip = true
                    // Triangles (pr, pl, p0) and (pl, pr, p1) become (p1, pl, p0) and (p0, pr, p1).
                    tri[a] = Int32(p1); tri[b] = Int32(p0)
                    let hbl = Int(half[bl]), har = Int(half[ar])
                    link(a, hbl)                       // p1 → pl now sits at a
                    if hbl < 0 { hullTri[p1] = Int32(a) }
                    link(b, har)                       // p0 → pr now sits at b
                    if har < 0 { hullTri[p0] = Int32(b) }
                    link(ar, bl)                       // the new diagonal
                    if top == stackCapacity {
                        let bigger = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * stackCapacity)
                        bigger.update(from: stack, count: top)
                        stack.deallocate()
                        stack = bigger; stackCapacity *= 2
                    }
                    stack[top] = Int32(b0 + (b + 1) % 3); top += 1
                }
            }
            if !flip {
                if top == 0 { return }
                top -= 1; a = Int(stack[top])
            }
        }
    }

    /// Inserts every point; false when one cannot be placed.
    func run(i0: Int, i1: Int, i2: Int) -> Bool {
        _ = add(i0, i1, i2, -1, -1, -1)
        hullNext[i0] = Int32(i1); hullPrev[i2] = Int32(i1)
        hullNext[i1] = Int32(i2); hullPrev[i0] = Int32(i2)
        hullNext[i2] = Int32(i0); hullPrev[i1] = Int32(i0)
        hullTri[i0] = 0; hullTri[i1] = 1; hullTri[i2] = 2
        hash[hashKey(i0)] = Int32(i0); hash[hashKey(i1)] = Int32(i1); hash[hashKey(i2)] = Int32(i2)
        hullStart = i0

        var previous = -1
        for i in 0..<n {
            let px = x(i), py = y(i)
            if previous >= 0 && px == x(previous) && py == y(previous) {
                duplicates.append((Int32(i), Int32(previous)))
                continue
            }
            previous = i
            if i == i0 || i == i1 || i == i2 { continue }
            // A hull vertex near i's angle, then forwards to an edge i sees.
            var start = -1
            let key = hashKey(i)
            for j in 0..<hashSize {
                let s = Int(hash[key + j < hashSize ? key + j : key + j - hashSize])
                if s >= 0 && Int(hullNext[s]) != s { start = s; break }
            }
            guard start >= 0 else { return false }
            start = Int(hullPrev[start])
            var e = start
            while true {
                let q = Int(hullNext[e])
                if orient(e, q, px, py) < 0 { break }
                e = q
                if e == start { return false }         // inside the hull: only inside the seed triangle
            }
            // The first triangle, then forwards and backwards along the visible edges.
            var t = add(e, i, Int(hullNext[e]), -1, -1, Int(hullTri[e]))
            hullTri[i] = Int32(t + 1)
            hullTri[e] = Int32(t)
            legalize(t + 2)
            var m = Int(hullNext[e])
            while true {
                let q = Int(hullNext[m])
                guard orient(m, q, px, py) < 0 else { break }
                t = add(m, i, q, Int(hullTri[i]), -1, Int(hullTri[m]))
                hullTri[i] = Int32(t + 1)
                legalize(t + 2)
                hullNext[m] = Int32(m)               // removed from the hull
                m = q
            }
            while true {
                let q = Int(hullPrev[e])
                guard orient(q, e, px, py) < 0 else { break }
                t = add(q, i, e, -1, Int(hullTri[e]), Int(hullTri[q]))
                hullTri[q] = Int32(t)
                legalize(t + 2)
                hullNext[e] = Int32(e)
                e = q
            }
            hullStart = e
            hullPrev[i] = Int32(e); hullNext[e] = Int32(i)
            hullPrev[m] = Int32(i); hullNext[i] = Int32(m)
            hash[hashKey(i)] = Int32(i)
            hash[hashKey(e)] = Int32(e)
        }
        return true
    }

    /// The number of vertices on the hull.
    func hullSize() -> Int {
        var h = 1
        var w = Int(hullNext[hullStart])
        while w != hullStart && h <= n { h += 1; w = Int(hullNext[w]) }
        return h
    }
}
