import Testing
@testable import ClusterCore
import TestSupport

/// The d-dimensional tree's layout, which the k-NN, Borůvka's rounds and DBSCAN rely on: node
/// numbering, point ranges, tight boxes, cells, and a shape that depends on the points alone.
@Suite("the d-dimensional k-d tree")
struct FeatureTreeTests {
    /// Every invariant `BoruvkaTree` and `FeatureTree` document, checked node by node.
    static func checkLayout(_ tree: FeatureTree, _ points: FeaturePoints) {
        let w = tree.width, d = points.dimensions
        #expect(tree.start[0] == 0 && Int(tree.end[0]) == points.count && tree.parent[0] == -1)
        #expect(tree.nodeCount == 2 * (tree.nodeCount - tree.firstLeaf) - 1)
        var nextLeafStart: Int32 = 0
        for node in 0..<tree.nodeCount {
            let lo = Int(tree.start[node]), hi = Int(tree.end[node])
            if node < tree.firstLeaf {
                let l = Int(tree.left[node]), r = Int(tree.right[node])
                #expect(l > node && r > node, "internal nodes come before their children")
                #expect(tree.parent[l] == Int32(node) && tree.parent[r] == Int32(node))
                #expect(Int(tree.start[l]) == lo && tree.end[l] == tree.start[r] && Int(tree.end[r]) == hi)
                #expect(lo < Int(tree.end[l]) && Int(tree.start[r]) < hi, "both children hold points")
            } else {
                #expect(tree.left[node] == -1 && tree.right[node] == -1)
                #expect(tree.start[node] == nextLeafStart, "leaves in position order")
                nextLeafStart = tree.end[node]
                let identical = (lo..<hi).allSatisfy { p in (0..<d).allSatisfy { tree.coords[p * w + $0] == tree.coords[lo * w + $0] } }
                #expect(hi - lo <= FeatureTree.leafSize || identical)
            }
            for a in 0..<d {
                let values = (lo..<hi).map { tree.coords[$0 * w + a] }
                #expect(tree.box[2 * w * node + 2 * a] == values.min() && tree.box[2 * w * node + 2 * a + 1] == values.max())
                #expect(tree.cell[2 * w * node + 2 * a] <= values.min()! && values.max()! <= tree.cell[2 * w * node + 2 * a + 1])
            }
        }
        #expect(Int(nextLeafStart) == points.count)
        for p in 0..<points.count {
            let row = Int(tree.index[p])
            #expect((0..<d).allSatisfy { tree.coords[p * w + $0] == points[row, $0] })
        }
    }

    /// Every point outside a node lies on or beyond one of its cell's faces (along the
    /// points' own axes: the padding's are 0 everywhere).
    static func checkCells(_ tree: FeatureTree, nodes: [Int]) {
        let w = tree.width, d = tree.dimensions
        for node in nodes {
            let lo = Int(tree.start[node]), hi = Int(tree.end[node])
            for p in 0..<tree.count where p < lo || p >= hi {
                let beyond = (0..<d).contains { a in
                    tree.coords[p * w + a] <= tree.cell[2 * w * node + 2 * a]
                        || tree.coords[p * w + a] >= tree.cell[2 * w * node + 2 * a + 1]
                }
                #expect(beyond, "point \(p) inside the cell of node \(node)")
            }
        }
    }

    @Test("nodes, ranges, boxes and cells as documented, in 1 to 16 dimensions", arguments: [1, 3, 5, 16])
    func layout(dimensions: Int) throws {
        let points = featureSample(3000, dimensions: dimensions, seed: 7 + UInt64(dimensions))
        let tree = FeatureTree(points, order: points.canonicalOrder(), threads: 1)
        Self.checkLayout(tree, points)
        Self.checkCells(tree, nodes: Array(stride(from: 0, to: tree.nodeCount, by: 37)))
    }

    @Test("two threads build the same tree as one")
    func threads() {
        let points = featureSample(70_000, dimensions: 3, seed: 11)
        let order = points.canonicalOrder()
        let one = FeatureTree(points, order: order, threads: 1), two = FeatureTree(points, order: order, threads: 2)
        #expect(one.coords == two.coords && one.index == two.index)
        #expect(one.start == two.start && one.end == two.end && one.left == two.left && one.right == two.right)
        #expect(one.parent == two.parent && one.box == two.box && one.cell == two.cell && one.depth == two.depth)
        Self.checkLayout(two, points)
    }

    /// Points halving their distance to 0 one after another would make a midpoint split per
    /// point; below `midpointDepth` the tree splits at the median, which bounds its depth, and
    /// the MST is still the oracle's.
    @Test("points at very different scales: bounded depth, the oracle's MST")
    func scales() throws {
        var values: [Double] = []
        for i in 0..<400 { values += [Double(sign: .plus, exponent: -i, significand: 1), Double(i % 7)] }
        let points = try FeaturePoints(values: values, dimensions: 2)
        let tree = FeatureTree(points, order: points.canonicalOrder(), threads: 1)
        Self.checkLayout(tree, points)
        #expect(tree.depth <= 48 + 10, "depth \(tree.depth)")
        #expect(tree.depth > 20, "the data does reach the median splits")
        let oracle = FeatureOracle.mst(points, minSamples: 3)
        let (mst, core) = try HDBSCAN.minimumSpanningTree(.features(points), minSamples: 3, threads: 2)
        #expect(core == oracle.core)
        let worst = zip(mst.weight.sorted(), oracle.weights).map { abs($0 - $1) / max(1e-300, $1) }.max() ?? 0
        #expect(worst < 1e-12)
    }
}
