import Testing
@testable import ClusterCore

/// Grid clustering written out with a dictionary of cells: the reference for random inputs.
enum BruteGrid {
    static func fit(_ p: PointSet, _ parameters: GridParameters) -> [Int32] {
        let s = parameters.cellSize
        func cell(_ i: Int) -> [Int] { [Int((p.xs[i] / s).rounded(.down)), Int((p.ys[i] / s).rounded(.down))] }
        var members: [[Int]: [Int]] = [:]
        for i in 0..<p.count { members[cell(i), default: []].append(i) }
        let dense = Set(members.filter { $0.value.count >= parameters.minPoints }.keys)
        // Flood fill over dense cells (8-adjacency when merging), then number by lowest row.
        var component: [[Int]: Int] = [:]
        var next = 0
        for start in dense.sorted(by: { $0.lexicographicallyPrecedes($1) }) where component[start] == nil {
            var stack = [start]
            component[start] = next
            while let c = stack.popLast(), parameters.mergeAdjacent {
                for dx in -1...1 { for dy in -1...1 {
                    let d = [c[0] + dx, c[1] + dy]
                    if dense.contains(d) && component[d] == nil { component[d] = next; stack.append(d) }
                }}
            }
            next += 1
        }
        var firstRow = [Int: Int]()
        for i in 0..<p.count { if let k = component[cell(i)], firstRow[k] == nil { firstRow[k] = i } }
        let order = firstRow.sorted { $0.value < $1.value }.map(\.key)
        var label = [Int: Int32]()
        for (l, k) in order.enumerated() { label[k] = Int32(l) }
        return (0..<p.count).map { i in component[cell(i)].map { label[$0]! } ?? -1 }
    }
}

@Suite("Grid clustering")
struct GridClusteringTests {
    @Test("dense cells are clusters, sparse cells noise, numbered by first row")
    func basic() throws {
        // Cells of 100 m anchored at (0, 0).
        let pts: [(Double, Double)] = [
            (250, 250),                      // row 0: cell (2,2), alone -> noise
            (10, 10), (90, 90), (50, 20),    // cell (0,0): 3 points
            (150, 50), (199.99, 99.99),      // cell (1,0): 2 points
            (260, 240),                      // cell (2,2): 2nd point
        ]
        let r = try GridClustering.fit(try PointSet(pts), parameters: GridParameters(cellSize: 100, minPoints: 2))
        #expect(r.labels == [0, 1, 1, 1, 2, 2, 0])
        #expect(r.clusterCount == 3)
        let three = try GridClustering.fit(try PointSet(pts), parameters: GridParameters(cellSize: 100, minPoints: 3))
        #expect(three.labels == [-1, 0, 0, 0, -1, -1, -1])
        let merged = try GridClustering.fit(try PointSet(pts), parameters: GridParameters(cellSize: 100, minPoints: 2, mergeAdjacent: true))
        // (0,0) and (1,0) touch; (2,2) touches neither.
        #expect(merged.labels == [0, 1, 1, 1, 1, 1, 0])
        #expect(merged.clusterCount == 2)
    }

    @Test("cells are anchored at the origin: boundaries belong to the upper cell; negatives floor down")
    func anchoring() throws {
        let pts: [(Double, Double)] = [(0, 0), (-0.001, 0), (100, 0), (99.999, 0), (-100, -100), (-0.5, -99.5)]
        let r = try GridClustering.fit(try PointSet(pts), parameters: GridParameters(cellSize: 100, minPoints: 2))
        // Cells: (0,0) (-1,0) (1,0) (0,0) (-1,-1) (-1,-1).
        #expect(r.labels == [0, -1, -1, 0, 1, 1])
        // Shifting every point by a whole number of cells keeps the partition.
        let shifted = try PointSet(pts.map { ($0.0 + 5_000_000, $0.1 - 3_000_000) })
        let s = try GridClustering.fit(shifted, parameters: GridParameters(cellSize: 100, minPoints: 2))
        #expect(s.labels == r.labels)
    }

    @Test("merging joins dense cells that touch at a side or a corner, not across a gap")
    func eightAdjacency() throws {
        // Dense cells (2 points each, side 10): (0,0), (1,1) diagonal, (3,1) two columns away,
        // (3,2) above it, (5,5) alone.
        var pts: [(Double, Double)] = []
        for (i, j) in [(5, 5), (0, 0), (1, 1), (3, 1), (3, 2)] {
            pts.append((10 * Double(i) + 1, 10 * Double(j) + 1)); pts.append((10 * Double(i) + 9, 10 * Double(j) + 9))
        }
        pts.append((21, 11))  // a lone point in (2,1): sparse, so it does not bridge (1,1) and (3,1)
        let r = try GridClustering.fit(try PointSet(pts), parameters: GridParameters(cellSize: 10, minPoints: 2, mergeAdjacent: true))
        #expect(r.labels == [0, 0, 1, 1, 1, 1, 2, 2, 2, 2, -1])
        #expect(r.clusterCount == 3)
        let apart = try GridClustering.fit(try PointSet(pts), parameters: GridParameters(cellSize: 10, minPoints: 2))
        #expect(apart.clusterCount == 5)
    }

    @Test("equals a dictionary-based reference on random data", arguments: [false, true])
    func matchesReference(merge: Bool) throws {
        for (points, size, minPoints) in [(Shapes.blobs(2000, seed: 31), 50.0, 3), (Shapes.gridWithDuplicates(800, seed: 32), 10.0, 2),
                                          (Shapes.uniform(1500, side: 400, seed: 33), 17.5, 2), (Shapes.blobs(500, seed: 34), 1.0, 1)] {
            let parameters = GridParameters(cellSize: size, minPoints: minPoints, mergeAdjacent: merge)
            let r = try GridClustering.fit(points, parameters: parameters)
            #expect(r.labels == BruteGrid.fit(points, parameters), "size \(size) minPoints \(minPoints)")
            let (shuffled, perm) = Shapes.shuffled(points, seed: 35)
            let s = try GridClustering.fit(shuffled, parameters: parameters)
            // Same partition after shuffling rows (only the numbering may change).
            #expect(samePartition(perm.map { r.labels[$0] }, s.labels))
        }
    }

    @Test("parameters are checked; empty input and a too-fine grid")
    func parameters() throws {
        let p = try PointSet([(0, 0), (1, 1)])
        for bad in [GridParameters(cellSize: 0), GridParameters(cellSize: -5), GridParameters(cellSize: .nan),
                    GridParameters(cellSize: 10, minPoints: 0)] {
            #expect(throws: ClusterCoreError.self) { try GridClustering.fit(p, parameters: bad) }
        }
        #expect(try GridClustering.fit(try PointSet(xs: [], ys: []), parameters: GridParameters(cellSize: 1)).labels.isEmpty)
        #expect(throws: ClusterCoreError.self) {
            try GridClustering.fit(try PointSet([(0, 0), (1e9, 0)]), parameters: GridParameters(cellSize: 1e-3))
        }
        // minPoints 1: every occupied cell is a cluster.
        let all = try GridClustering.fit(p, parameters: GridParameters(cellSize: 1, minPoints: 1))
        #expect(all.labels == [0, 1])
    }
}
