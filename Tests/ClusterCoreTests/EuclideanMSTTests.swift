import Testing
@testable import ClusterCore
import TestSupport

@Suite("Euclidean MST from the Delaunay triangulation, and the exact predicates")
struct EuclideanMSTTests {
    static let shapes: [(String, PointSet)] = [
        ("blobs", Shapes.blobs(700, seed: 21)),
        ("grid with duplicates", Shapes.gridWithDuplicates(600, seed: 22)),
        ("uniform", Shapes.uniform(900, seed: 23)),
        ("line", Shapes.line(200, seed: 24)),
        ("all identical", try! PointSet(Array(repeating: (3.0, 4.0), count: 30))),
        ("two points", try! PointSet([(0, 0), (3, 4)])),
        ("three points", try! PointSet([(0, 0), (3, 4), (-1, 7)])),
        ("one point", try! PointSet([(5, 5)])),
        // A full lattice: every 2 × 2 cell's corners are cocircular, every row and column collinear.
        ("lattice", try! PointSet((0..<400).map { (Double($0 % 20), Double($0 / 20)) })),
        // Points on one circle (all cocircular) plus its centre.
        ("circle", try! PointSet([(0, 0)] + (0..<64).map { k -> (Double, Double) in
            let t = Double(k) * 2 * Double.pi / 64
            return (1000 * cosine(t), 1000 * sine(t))
        })),
        // Tiny offsets near 0.5: the floating-point orientation and in-circle tests are wrong here.
        ("near-degenerate", try! PointSet((0..<300).map { i -> (Double, Double) in
            (0.5 + Double(i % 17) * 0x1p-52, 0.5 + Double(i % 13) * 0x1p-52 + Double(i / 100) * 0x1p-50)
        })),
    ]

    /// The Euclidean MST's weights against O(n²) Prim with every core distance 0, and its
    /// edges against Borůvka's: a spanning tree (n − 1 edges joining every point), ascending,
    /// a < b, the same multiset of weights.
    @Test("the same weights as Prim and as Borůvka on every shape, ties and duplicates included")
    func againstPrimAndBoruvka() throws {
        for (name, p) in Self.shapes {
            let mst = try MinimumSpanningTree.euclidean(xs: p.xs, ys: p.ys)
            #expect(mst.count == max(p.count - 1, 0), "\(name)")
            #expect(mst.weight == Oracle.primWeights(p, core: [Double](repeating: 0, count: p.count)), "\(name)")
            let boruvka = try HDBSCAN.minimumSpanningTree(p, minSamples: 1).mst
            #expect(mst.weight == boruvka.weight, "\(name)")
            #expect(zip(mst.a, mst.b).allSatisfy { $0 < $1 }, "\(name)")
            var uf = UnionFind(count: p.count)
            for i in 0..<mst.count { #expect(uf.union(Int(mst.a[i]), Int(mst.b[i])) != nil, "\(name): a cycle") }
            for i in 0..<mst.count {
                let d = Oracle.distance(p, Int(mst.a[i]), Int(mst.b[i]))
                #expect(mst.weight[i] == d, "\(name): the weight is the edge's length")
            }
        }
    }

    @Test("with distinct weights the very edges Borůvka finds, for random point sets", arguments: [3, 10, 57, 400, 3000])
    func sameEdgesAsBoruvka(count: Int) throws {
        for seed in UInt64(1)...4 {
            let p = seed % 2 == 0 ? Shapes.uniform(count, seed: seed * 31 + UInt64(count)) : Shapes.blobs(count, seed: seed * 17 + UInt64(count))
            let mst = try MinimumSpanningTree.euclidean(xs: p.xs, ys: p.ys)
            let boruvka = try HDBSCAN.minimumSpanningTree(p, minSamples: 1).mst
            #expect(Set(mst.weight).count == mst.count, "random weights are distinct")
            #expect(mst == boruvka, "n \(count) seed \(seed)")
        }
    }

    @Test("the triangulation is a Delaunay triangulation: every point a vertex or a duplicate, counter-clockwise triangles, empty circumcircles")
    func delaunayProperty() throws {
        for (name, p) in Self.shapes where p.count >= 3 && p.count <= 700 {
            let dt = p.xs.withUnsafeBufferPointer { xs in
                p.ys.withUnsafeBufferPointer { ys in DelaunayTriangulation(xs: xs, ys: ys) }
            }
            guard let dt else {
                // Only collinear or coincident input has no triangulation.
                let collinear = (2..<p.count).allSatisfy {
                    Predicates.orientExact(p.xs[0], p.ys[0], p.xs[1], p.ys[1], p.xs[$0], p.ys[$0]) == 0
                }
                #expect(name == "line" || name == "all identical" || collinear, "\(name): no triangulation")
                continue
            }
            let t = dt.triangles.count / 3
            var used = Set(dt.triangles)
            for d in dt.duplicates {
                #expect(dt.x[Int(d.point)] == dt.x[Int(d.of)] && dt.y[Int(d.point)] == dt.y[Int(d.of)], "\(name)")
                used.insert(d.point)
            }
            #expect(used.count == p.count, "\(name): every point placed")
            #expect(Set(dt.point).count == p.count, "\(name): the vertex numbering is a permutation")
            for v in 0..<p.count {
                #expect(dt.x[v] == p.xs[Int(dt.point[v])] && dt.y[v] == p.ys[Int(dt.point[v])], "\(name)")
            }
            let hull = dt.halfedges.filter { $0 < 0 }.count
            #expect(t == 2 * (p.count - dt.duplicates.count) - hull - 2, "\(name): Euler's count")
            for e in 0..<dt.halfedges.count where dt.halfedges[e] >= 0 {
                let h = Int(dt.halfedges[e])
                #expect(Int(dt.halfedges[h]) == e, "\(name): twins")
                // Opposite half-edges join the same two vertices the other way round.
                let next: (Int) -> Int = { $0 % 3 == 2 ? $0 - 2 : $0 + 1 }
                #expect(dt.triangles[e] == dt.triangles[next(h)] && dt.triangles[h] == dt.triangles[next(e)], "\(name)")
            }
            let vertices = Array(Set(dt.triangles))
            for k in 0..<t {
                let a = Int(dt.triangles[3 * k]), b = Int(dt.triangles[3 * k + 1]), c = Int(dt.triangles[3 * k + 2])
                #expect(Predicates.orientExact(dt.x[a], dt.y[a], dt.x[b], dt.y[b], dt.x[c], dt.y[c]) > 0, "\(name): counter-clockwise")
                for d in vertices where d != Int32(a) && d != Int32(b) && d != Int32(c) {
                    let inside = Predicates.incircle(dt.x[a], dt.y[a], dt.x[b], dt.y[b], dt.x[c], dt.y[c],
                                                          dt.x[Int(d)], dt.y[Int(d)])
                    #expect(inside <= 0, "\(name): vertex \(d) inside triangle \(k)'s circumcircle")
                }
            }
        }
    }

    /// Integer coordinates below 2^20: the determinants are exact in Int128, the oracle.
    @Test("exact orientation and in-circle signs against integer arithmetic, fast and exact paths")
    func predicatesAgainstIntegers() {
        var g = SplitMix64(seed: 5)
        func coordinate() -> Int64 { Int64(g.next() % (1 << 20)) - (1 << 19) }
        func sign(_ v: Int128) -> Double { v > 0 ? 1 : (v < 0 ? -1 : 0) }
        func sign(_ v: Double) -> Double { v > 0 ? 1 : (v < 0 ? -1 : 0) }
        for round in 0..<4000 {
            // Every fourth case degenerate on purpose: c on line ab, d on the circle through a lattice rectangle.
            var (ax, ay, bx, by, cx, cy, dx, dy) = (coordinate(), coordinate(), coordinate(), coordinate(),
                                                    coordinate(), coordinate(), coordinate(), coordinate())
            if round % 4 == 0 { let k = Int64(round % 7) - 3; cx = ax + k * (bx - ax); cy = ay + k * (by - ay) }
            if round % 4 == 1 { cx = ax; cy = by; dx = bx; dy = ay }           // a, b, c, d corners of one rectangle
            let o = Int128(ax - cx) * Int128(by - cy) - Int128(ay - cy) * Int128(bx - cx)
            let d = [(ax, ay), (bx, by), (cx, cy), (dx, dy)].map { (Double($0.0), Double($0.1)) }
            #expect(sign(Predicates.orient(d[0].0, d[0].1, d[1].0, d[1].1, d[2].0, d[2].1)) == sign(o))
            #expect(Predicates.orientExact(d[0].0, d[0].1, d[1].0, d[1].1, d[2].0, d[2].1) == sign(o))
            let (adx, ady) = (Int128(ax - dx), Int128(ay - dy)), (bdx, bdy) = (Int128(bx - dx), Int128(by - dy))
            let (cdx, cdy) = (Int128(cx - dx), Int128(cy - dy))
            let det = (adx * adx + ady * ady) * (bdx * cdy - cdx * bdy) + (bdx * bdx + bdy * bdy) * (cdx * ady - adx * cdy)
                + (cdx * cdx + cdy * cdy) * (adx * bdy - bdx * ady)
            #expect(sign(Predicates.incircle(d[0].0, d[0].1, d[1].0, d[1].1, d[2].0, d[2].1, d[3].0, d[3].1)) == sign(det))
            #expect(Predicates.incircleExact(d[0].0, d[0].1, d[1].0, d[1].1, d[2].0, d[2].1, d[3].0, d[3].1) == sign(det))
        }
        // Scaled far below 1 and offset to 0.5, where a floating-point determinant rounds to the
        // wrong sign: the exact answer is the integer one's.
        for round in 0..<2000 {
            let a = (coordinate() % 64, coordinate() % 64), b = (coordinate() % 64, coordinate() % 64)
            let k = Int64(round % 5) - 2
            let c = round % 2 == 0 ? (a.0 + k * (b.0 - a.0), a.1 + k * (b.1 - a.1)) : (coordinate() % 64, coordinate() % 64)
            let o = Int128(a.0 - c.0) * Int128(b.1 - c.1) - Int128(a.1 - c.1) * Int128(b.0 - c.0)
            func s(_ v: Int64) -> Double { 0.5 + Double(v) * 0x1p-53 }
            #expect(sign(Predicates.orient(s(a.0), s(a.1), s(b.0), s(b.1), s(c.0), s(c.1))) == sign(o))
        }
    }

    @Test("the order of the input rows changes no weight, and a tree from shuffled rows maps back to the same tree")
    func rowOrder() throws {
        let p = Shapes.blobs(1500, seed: 9)
        let mst = try MinimumSpanningTree.euclidean(xs: p.xs, ys: p.ys)
        let (q, perm) = Shapes.shuffled(p, seed: 10)
        let shuffled = try MinimumSpanningTree.euclidean(xs: q.xs, ys: q.ys)
        #expect(shuffled.weight == mst.weight)
        let mapped = Set(zip(shuffled.a, shuffled.b).map { [perm[Int($0)], perm[Int($1)]].sorted() })
        #expect(mapped == Set(zip(mst.a, mst.b).map { [Int($0), Int($1)] }))
    }
}

/// sin and cos for the test's circle (ClusterCore has no Foundation; the values need not be exact).
private func sine(_ x: Double) -> Double {
    var term = x, sum = x
    for k in 1..<30 { term *= -x * x / Double((2 * k) * (2 * k + 1)); sum += term }
    return sum
}
private func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }
