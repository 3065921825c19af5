import Testing
@testable import ClusterCore
import TestSupport

/// `HDBSCAN.fit(spanningTree:)`: the hierarchy over a tree computed elsewhere.
@Suite("HDBSCAN over a given spanning tree")
struct GivenTreeTests {
    static let parameters = HDBSCANParameters(minClusterSize: 15, minSamples: 5)

    /// The fit's MST with its edges in another order (and ends swapped), as another
    /// process would hand it over.
    static func shuffledTree(_ mst: MinimumSpanningTree, seed: UInt64) -> MinimumSpanningTree {
        var g = SplitMix64(seed: seed)
        var order = Array(0..<mst.count)
        order.shuffle(using: &g)
        return MinimumSpanningTree(a: order.map { $0 % 2 == 0 ? mst.a[$0] : mst.b[$0] },
                                   b: order.map { $0 % 2 == 0 ? mst.b[$0] : mst.a[$0] }, weight: order.map { mst.weight[$0] })
    }

    @Test("the fit's own tree, in any order, gives the fit's labels, probabilities and scores")
    func sameAsTheFit() throws {
        for (name, p) in [("blobs", Shapes.blobs(3000, seed: 1)), ("ties", Shapes.gridWithDuplicates(3000, seed: 2))] {
            let fitted = try HDBSCAN.fit(p, parameters: Self.parameters)
            let tree = Self.shuffledTree(try #require(fitted.mst), seed: 7)
            let given = try HDBSCAN.fit(spanningTree: tree, pointCount: p.count, parameters: Self.parameters)
            #expect(given.labeling.labels == fitted.labeling.labels, "\(name)")
            #expect(given.labeling.probabilities == fitted.labeling.probabilities, "\(name)")
            #expect(given.labeling.outlierScores == fitted.labeling.outlierScores, "\(name)")
            #expect(given.mst?.weight == fitted.mst?.weight, "\(name)")
        }
    }

    @Test("another MST of tied weights gives the same labels (merges at one distance all at once)")
    func anotherTiedTree() throws {
        // Points on a grid, every core distance the same: many MSTs, of one weight.
        let xs = (0..<400).map { Double($0 % 20) }, ys = (0..<400).map { Double($0 / 20) + ($0 % 20 < 10 ? 0 : 30) }
        let p = try PointSet(xs: xs, ys: ys)
        let parameters = HDBSCANParameters(minClusterSize: 10, minSamples: 4)
        let fitted = try HDBSCAN.fit(p, parameters: parameters)
        // A brute-force Kruskal preferring the largest rows at ties: usually another tree.
        var pairs: [(Double, Int, Int)] = []
        let core = Oracle.coreDistances(p, k: 4)
        for i in 0..<p.count { for j in (i + 1)..<p.count {
            pairs.append((max(core[i], core[j], Oracle.distance(p, i, j)), i, j))
        }}
        pairs.sort { ($0.0, -$0.1, -$0.2) < ($1.0, -$1.1, -$1.2) }
        var sets = UnionFind(count: p.count)
        var a: [Int32] = [], b: [Int32] = [], w: [Double] = []
        for (weight, i, j) in pairs where sets.union(i, j) != nil {
            a.append(Int32(i)); b.append(Int32(j)); w.append(weight)
        }
        let other = MinimumSpanningTree(a: a, b: b, weight: w)
        #expect(Set(zip(other.a, other.b).map { "\($0)-\($1)" }) != Set(zip(fitted.mst!.a, fitted.mst!.b).map { "\($0)-\($1)" }))
        let given = try HDBSCAN.fit(spanningTree: other, pointCount: p.count, parameters: parameters)
        #expect(given.labeling.labels == fitted.labeling.labels)
        #expect(given.labeling.probabilities == fitted.labeling.probabilities)
    }

    @Test("a tree with a cycle, too few edges, an end out of range or a bad weight is refused, naming the edge")
    func refusals() {
        func refusal(_ a: [Int32], _ b: [Int32], _ w: [Double], n: Int) -> String? {
            do throws(ClusterCoreError) {
                _ = try HDBSCAN.fit(spanningTree: MinimumSpanningTree(a: a, b: b, weight: w), pointCount: n,
                                    parameters: HDBSCANParameters(minClusterSize: 2))
                return nil
            } catch {
                return error.description
            }
        }
        #expect(refusal([0, 1], [1, 0], [1, 1], n: 3)?.contains("edge 1 joins 1 and 0, already joined") == true)
        #expect(refusal([0], [1], [1], n: 3)?.contains("n - 1 = 2 edges") == true)
        #expect(refusal([0, 1], [1, 5], [1, 1], n: 3)?.contains("edge 1 joins 1 and 5") == true)
        #expect(refusal([0, 1], [1, 2], [1, -.infinity], n: 3)?.contains("edge 1 weighs -inf") == true)
        #expect(refusal([0, 1], [1, 2], [1, 2], n: 3) == nil)
        #expect(refusal([], [], [], n: 1) == nil)
    }
}
