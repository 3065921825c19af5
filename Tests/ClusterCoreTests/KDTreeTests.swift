import Testing
@testable import ClusterCore
import TestSupport

@Suite("KDTree against brute force")
struct KDTreeTests {
    static let shapes: [(String, PointSet)] = [
        ("blobs", Shapes.blobs(2000, seed: 1)),
        ("grid with duplicates", Shapes.gridWithDuplicates(1500, seed: 2)),
        ("line", Shapes.line(700, seed: 3)),
        ("uniform", Shapes.uniform(1000, seed: 4)),
        ("three points", try! PointSet([(0, 0), (1, 1), (2, 0)])),
        ("one point", try! PointSet([(5, 5)])),
        ("all identical", try! PointSet(Array(repeating: (3.0, 4.0), count: 100))),
    ]

    @Test("structure: every point once, boxes hold their points, leaves small", arguments: [1, 8, 16])
    func structure(leafSize: Int) {
        for (name, p) in Self.shapes {
            let t = KDTree(points: p, leafSize: leafSize)
            #expect(Set(t.index).count == p.count, "\(name)")
            let position = t.positions()
            for pos in 0..<p.count {
                let i = Int(t.index[pos])
                #expect(t.xs[pos] == p.xs[i] && t.ys[pos] == p.ys[i])
                #expect(Int(position[i]) == pos)
            }
            for node in 0..<t.firstLeaf {
                // A median split: the children hold halves of the range (left the smaller
                // half), separated along x or along y.
                let l = t.range(ofNode: 2 * node + 1), r = t.range(ofNode: 2 * node + 2)
                let whole = t.range(ofNode: node)
                #expect(l.lowerBound == whole.lowerBound && r.upperBound == whole.upperBound && l.upperBound == r.lowerBound)
                #expect(l.count == whole.count / 2, "\(name) node \(node)")
                if l.isEmpty || r.isEmpty { continue }
                let byX = l.map { t.xs[$0] }.max()! <= r.map { t.xs[$0] }.min()!
                let byY = l.map { t.ys[$0] }.max()! <= r.map { t.ys[$0] }.min()!
                #expect(byX || byY, "\(name) node \(node) is not split along an axis")
            }
            for node in 0..<t.nodeCount {
                let r = t.range(ofNode: node)
                if node >= t.firstLeaf { #expect(r.count <= leafSize, "\(name) leaf \(node)") }
                for pos in r {
                    #expect(t.xs[pos] >= t.minX[node] && t.xs[pos] <= t.maxX[node])
                    #expect(t.ys[pos] >= t.minY[node] && t.ys[pos] <= t.maxY[node])
                }
            }
        }
    }

    @Test("k nearest distances equal a linear scan", arguments: [1, 2, 5, 16])
    func knn(k: Int) {
        for (name, p) in Self.shapes where p.count >= 1 {
            let t = KDTree(points: p, leafSize: 8)
            var buf = KNNBuffer(k: k, tree: t)
            var g = SplitMix64(seed: UInt64(k))
            for q in 0..<min(p.count, 300) + 50 {
                // Queries at the points themselves and at random places around them.
                let (qx, qy) = q < min(p.count, 300)
                    ? (p.xs[q], p.ys[q])
                    : (p.xs[0] + 500 * (g.uniform() - 0.5), p.ys[0] + 500 * (g.uniform() - 0.5))
                t.nearest(x: qx, y: qy, into: &buf)
                let brute = (0..<p.count).map { i -> Double in
                    let dx = p.xs[i] - qx, dy = p.ys[i] - qy
                    return dx * dx + dy * dy
                }.sorted()
                let expected = Array(brute.prefix(k))
                #expect(buf.found == expected.count, "\(name)")
                #expect(Array(buf.squaredDistances.prefix(buf.found)) == expected, "\(name) query \(q)")
                // Positions reported must really be at those distances.
                for j in 0..<buf.found {
                    let pos = Int(buf.positions[j])
                    let dx = t.xs[pos] - qx, dy = t.ys[pos] - qy
                    #expect(dx * dx + dy * dy == buf.squaredDistances[j])
                }
            }
        }
    }

    @Test("radius queries return exactly the points within the radius, inclusive")
    func radius() {
        for (name, p) in Self.shapes {
            let t = KDTree(points: p, leafSize: 8)
            for r in [0.0, 10, 35.5, 200] {
                for q in stride(from: 0, to: p.count, by: max(1, p.count / 60)) {
                    var got: [Int] = []
                    t.forEach(within: r, ofX: p.xs[q], y: p.ys[q]) { got.append(Int(t.index[$0])) }
                    let expected = (0..<p.count).filter { i in
                        let dx = p.xs[i] - p.xs[q], dy = p.ys[i] - p.ys[q]
                        return dx * dx + dy * dy <= r * r
                    }
                    #expect(got.sorted() == expected, "\(name) r=\(r) q=\(q)")
                    #expect(t.count(within: r, ofX: p.xs[q], y: p.ys[q]) == expected.count)
                }
            }
            // A point exactly on the radius counts (inclusive).
            let onEdge = try! PointSet([(0, 0), (3, 4)])
            #expect(KDTree(points: onEdge).count(within: 5, ofX: 0, y: 0) == 2)
        }
    }

    @Test("the tree is the same for one and two build threads")
    func threadInvariant() {
        let p = Shapes.blobs(50_000, seed: 9)
        let a = KDTree(points: p, threads: 1), b = KDTree(points: p, threads: 2)
        #expect(a.index == b.index)
        #expect(a.xs == b.xs && a.ys == b.ys)
        #expect(a.minX == b.minX && a.maxY == b.maxY)
    }

    @Test("an empty tree answers queries with nothing")
    func empty() {
        let t = KDTree(points: try! PointSet(xs: [], ys: []))
        var buf = KNNBuffer(k: 3, tree: t)
        t.nearest(x: 0, y: 0, into: &buf)
        #expect(buf.found == 0)
        #expect(t.count(within: 100, ofX: 0, y: 0) == 0)
    }
}
