import Testing
@testable import ClusterCore
import TestSupport

/// A condensed tree kept without its point rows (`HDBSCANOutputs.clusterTree`) against the
/// full tree of the same fit: the same cluster rows, and `fallingOut()` gives every point the
/// parent and lambda of its row in the full tree (read from the rows themselves).
@Suite("Condensed tree without point rows: the full tree's values on demand")
struct CondensedTreeFallingOutTests {
    static let cases: [(String, PointSet)] = [
        ("blobs", Shapes.blobs(3000, seed: 3)),
        ("grid with duplicates", Shapes.gridWithDuplicates(3000, seed: 4)),
        ("buildings", LocationsTests.buildings(700, maxUnits: 12, seed: 5)),
        ("uniform", Shapes.uniform(2000, seed: 6)),
        ("two points", try! PointSet(xs: [0, 1], ys: [0, 0])),
    ]

    @Test("cluster rows and where each point falls out equal the full tree's", arguments: 0..<cases.count)
    func sameAsFullTree(_ index: Int) throws {
        let (name, p) = Self.cases[index]
        for (mcs, ms) in [(5, 5), (15, 3), (2, 1)] where ms <= p.count {
            let parameters = HDBSCANParameters(minClusterSize: mcs, minSamples: ms)
            let full = try #require(try HDBSCAN.fit(p, parameters: parameters, keeping: [.condensedTree]).condensedTree)
            let lean = try HDBSCAN.fit(p, parameters: parameters, threads: 2, keeping: [.clusterTree])
            let tree = try #require(lean.condensedTree)
            let what = "\(name), mcs \(mcs), ms \(ms)"
            #expect(full.hasPointRows && (p.count < 2 || !tree.hasPointRows), "\(what)")
            let n = p.count
            // The full tree's cluster rows, in order, and each point's row, found by scanning.
            let clusterRows = full.child.indices.filter { Int(full.child[$0]) >= n }
            #expect(clusterRows.map { full.parent[$0] } == tree.parent, "cluster parents: \(what)")
            #expect(clusterRows.map { full.child[$0] } == tree.child, "cluster children: \(what)")
            #expect(clusterRows.map { full.lambda[$0] } == tree.lambda, "cluster lambdas: \(what)")
            #expect(clusterRows.map { full.childSize[$0] } == tree.childSize, "cluster sizes: \(what)")
            var cluster = [Int32](repeating: -1, count: n), lambda = [Double](repeating: .nan, count: n)
            for r in full.child.indices where Int(full.child[r]) < n {
                #expect(cluster[Int(full.child[r])] == -1, "one row per point: \(what)")
                cluster[Int(full.child[r])] = full.parent[r]; lambda[Int(full.child[r])] = full.lambda[r]
            }
            let (leanCluster, leanLambda) = tree.fallingOut()
            #expect(leanCluster == cluster, "clusters: \(what)")
            #expect(leanLambda == lambda, "lambdas: \(what)")
            let (fullCluster, fullLambda) = full.fallingOut()
            #expect(fullCluster == cluster && fullLambda == lambda, "full tree's own: \(what)")
            #expect(tree.maxLambda == full.maxLambda && tree.stability == full.stability, "clusters' values: \(what)")
        }
    }
}
