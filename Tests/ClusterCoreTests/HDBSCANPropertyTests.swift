import Testing
@testable import ClusterCore
import TestSupport

@Suite("HDBSCAN properties: ties, duplicates, determinism, edge cases")
struct HDBSCANPropertyTests {
    static let parameters = HDBSCANParameters(minClusterSize: 15, minSamples: 5)

    @Test("the observer sees every stage in order, and a stage's error reaches the caller typed")
    func stagesAndTypedErrors() throws {
        let r = StageRecorder()
        _ = try HDBSCAN.fit(Shapes.uniform(200, seed: 3), parameters: HDBSCANParameters(minClusterSize: 5), observer: r)
        #expect(r.names == HDBSCANStage.allCases.map(\.rawValue))

        // Fewer points than the neighbour count: the core-distance stage throws, and the
        // error arrives as ClusterCoreError (no catch-all conversion on the way).
        let failing = StageRecorder()
        let error: ClusterCoreError? = {
            do throws(ClusterCoreError) {
                _ = try HDBSCAN.fit(Shapes.uniform(3, seed: 3), parameters: HDBSCANParameters(minClusterSize: 5), observer: failing)
                return nil
            } catch {
                return error
            }
        }()
        guard case .tooFewPoints = error else { Issue.record("expected tooFewPoints, got \(String(describing: error))"); return }
        #expect(failing.names == ["index", "core distances"])

        let grid = StageRecorder()
        _ = try GridClustering.fit(Shapes.uniform(50, seed: 1), parameters: GridParameters(cellSize: 100), observer: grid)
        #expect(grid.names == ["grid"])
    }

    @Test("shuffling the rows gives the same partition, probabilities and scores")
    func shuffleInvariant() throws {
        for (name, p) in [("blobs", Shapes.blobs(3000, seed: 1)), ("ties", Shapes.gridWithDuplicates(3000, seed: 2)),
                          ("uniform", Shapes.uniform(2000, seed: 3))] {
            let base = try HDBSCAN.fit(p, parameters: Self.parameters)
            for seed in 0..<4 as Range<UInt64> {
                let (q, perm) = Shapes.shuffled(p, seed: seed + 100)
                let r = try HDBSCAN.fit(q, parameters: Self.parameters)
                var labels = [Int32](repeating: 0, count: p.count)
                var prob = [Double](repeating: 0, count: p.count)
                var score = [Double](repeating: 0, count: p.count)
                for i in 0..<p.count {
                    labels[perm[i]] = r.labeling.labels[i]
                    prob[perm[i]] = r.labeling.probabilities[i]
                    score[perm[i]] = r.labeling.outlierScores[i]
                }
                #expect(samePartition(base.labeling.labels, labels), "\(name) shuffle \(seed)")
                #expect(prob == base.labeling.probabilities, "\(name) shuffle \(seed)")
                #expect(score == base.labeling.outlierScores, "\(name) shuffle \(seed)")
            }
        }
    }

    @Test("one and two threads give identical output")
    func threadInvariant() throws {
        let p = Shapes.blobs(40_000, seed: 5)
        let a = try HDBSCAN.fit(p, parameters: Self.parameters, threads: 1)
        let b = try HDBSCAN.fit(p, parameters: Self.parameters, threads: 2)
        #expect(a.labeling == b.labeling)
        #expect(a.mst != nil && a.mst == b.mst)
        #expect(a.condensedTree != nil && a.condensedTree == b.condensedTree)
    }

    @Test("trees not asked for are dropped, and the labelling does not change")
    func keeping() throws {
        let p = Shapes.blobs(5_000, seed: 9)
        let all = try HDBSCAN.fit(p, parameters: Self.parameters, threads: 2)
        let none = try HDBSCAN.fit(p, parameters: Self.parameters, threads: 2, keeping: [])
        #expect(none.mst == nil && none.linkage == nil && none.condensedTree == nil)
        #expect(none.labeling == all.labeling && none.coreDistances == all.coreDistances)
        let some = try HDBSCAN.fit(p, parameters: Self.parameters, keeping: [.mst, .condensedTree])
        #expect(some.linkage == nil && some.mst == all.mst && some.condensedTree == all.condensedTree)
    }

    @Test("without the condensed tree kept, the labelling is the same on either path, ties and all")
    func labellingWithoutPointRows() throws {
        // Without `.condensedTree` the condensing walk scans the merges instead of going
        // breadth-first and keeps no point rows; cluster ids, stabilities and labels must not
        // change. Coincident points and a grid make many ties; over points and over locations.
        let data = [Shapes.gridWithDuplicates(3000, seed: 4), LocationsTests.buildings(600, maxUnits: 30, seed: 8),
                    Shapes.blobs(4000, seed: 12)]
        let selections = [SelectionOptions(), SelectionOptions(method: .leaf), SelectionOptions(epsilon: 20),
                          SelectionOptions(allowSingleCluster: true)]
        for p in data {
            for (mcs, ms) in [(5, 3), (40, 40)] {
                for selection in selections {
                    let parameters = HDBSCANParameters(minClusterSize: mcs, minSamples: ms, selection: selection)
                    for grouped in [false, true] {
                        let all = try HDBSCAN.fit(p, parameters: parameters, threads: 1, groupLocations: grouped)
                        let none = try HDBSCAN.fit(p, parameters: parameters, threads: 2, keeping: [],
                                                   groupLocations: grouped)
                        let what = "n \(p.count), mcs \(mcs), ms \(ms), \(selection), grouped \(grouped)"
                        #expect(none.selectedClusters == all.selectedClusters, "selected: \(what)")
                        let same = none.labeling == all.labeling
                        #expect(same, "labelling: \(what)")
                    }
                }
            }
        }
    }

    @Test("coincident points: no NaN, always in the same cluster")
    func duplicates() throws {
        var pts: [(Double, Double)] = []
        var g = SplitMix64(seed: 7)
        // Buildings with 1–40 units at exactly the same coordinates, around three complexes.
        for b in 0..<120 {
            let cx = Double(b % 3) * 2000, cy = Double(b % 3) * 500
            let x = cx + 80 * g.normal(), y = cy + 80 * g.normal()
            for _ in 0..<(1 + Int(g.uniform() * 40)) { pts.append((x, y)) }
        }
        let p = try PointSet(pts)
        for params in [HDBSCANParameters(minClusterSize: 10, minSamples: 5),
                       HDBSCANParameters(minClusterSize: 10, minSamples: 1),
                       HDBSCANParameters(minClusterSize: 30, minSamples: 40)] {
            let r = try HDBSCAN.fit(p, parameters: params)
            #expect(!r.labeling.probabilities.contains { $0.isNaN })
            #expect(!r.labeling.outlierScores.contains { $0.isNaN })
            #expect(!(try #require(r.condensedTree)).stability.contains { $0.isNaN })
            var labelAt: [String: Int32] = [:]
            for i in 0..<p.count {
                let key = "\(p.xs[i]),\(p.ys[i])"
                if let l = labelAt[key] { #expect(l == r.labeling.labels[i], "coincident points split") }
                labelAt[key] = r.labeling.labels[i]
            }
            #expect(r.labeling.clusterCount >= 1)
        }
        // Every point in one place: one group, all noise without allowSingleCluster.
        let same = try PointSet(Array(repeating: (1.0, 2.0), count: 50))
        let r = try HDBSCAN.fit(same, parameters: HDBSCANParameters(minClusterSize: 5))
        #expect(r.labeling.labels.allSatisfy { $0 == -1 })
        #expect(r.labeling.probabilities.allSatisfy { !$0.isNaN })
    }

    @Test("fewer points than minClusterSize are all noise")
    func tooFewForACluster() throws {
        let p = try PointSet((0..<8).map { (Double($0), 0.0) })
        let r = try HDBSCAN.fit(p, parameters: HDBSCANParameters(minClusterSize: 15, minSamples: 3))
        #expect(r.labeling.labels == [Int32](repeating: -1, count: 8))
        #expect(r.labeling.clusterCount == 0)
    }

    @Test("well separated blobs are found exactly")
    func separatedBlobs() throws {
        var g = SplitMix64(seed: 3)
        var pts: [(Double, Double)] = []
        for c in 0..<3 { for _ in 0..<100 { pts.append((Double(c) * 10_000 + 10 * g.normal(), 10 * g.normal())) } }
        let r = try HDBSCAN.fit(try PointSet(pts), parameters: HDBSCANParameters(minClusterSize: 20, minSamples: 5))
        let truth = (0..<300).map { Int32($0 / 100) }
        #expect(r.labeling.clusterCount == 3)
        #expect(adjustedRandIndex(r.labeling.labels, truth) > 0.95)
    }

    @Test("bad input and parameters throw the documented errors")
    func errors() throws {
        #expect(throws: ClusterCoreError.nonFiniteCoordinate(row: 2)) {
            try PointSet(xs: [0, 1, .nan], ys: [0, 1, 2])
        }
        #expect(throws: ClusterCoreError.nonFiniteCoordinate(row: 0)) {
            try PointSet(xs: [0], ys: [.infinity])
        }
        #expect(throws: ClusterCoreError.mismatchedCoordinateCounts(xs: 2, ys: 1)) {
            try PointSet(xs: [0, 1], ys: [0])
        }
        let p = Shapes.uniform(10, seed: 1)
        #expect(throws: ClusterCoreError.self) { try HDBSCAN.fit(p, parameters: HDBSCANParameters(minClusterSize: 1)) }
        #expect(throws: ClusterCoreError.self) { try HDBSCAN.fit(p, parameters: HDBSCANParameters(minClusterSize: 5, minSamples: 0)) }
        #expect(throws: ClusterCoreError.self) { try HDBSCAN.fit(p, parameters: HDBSCANParameters(minClusterSize: 5, minSamples: 11)) }
        #expect(throws: ClusterCoreError.self) {
            try HDBSCAN.fit(p, parameters: HDBSCANParameters(minClusterSize: 5, minSamples: 10, minSamplesConvention: .hdbscan))
        }
        // The largest legal neighbour count works.
        _ = try HDBSCAN.fit(p, parameters: HDBSCANParameters(minClusterSize: 5, minSamples: 10))
    }

    @Test("single-linkage tree: sizes add up and distances ascend")
    func linkageShape() throws {
        let p = Shapes.blobs(500, seed: 8)
        let r = try HDBSCAN.fit(p, parameters: Self.parameters)
        let l = try #require(r.linkage)
        #expect(l.size.last == 500)
        for i in 0..<l.distance.count {
            #expect(Int(l.size[i]) == l.count(ofNode: Int(l.left[i])) + l.count(ofNode: Int(l.right[i])))
            #expect(Int(l.left[i]) < 500 + i && Int(l.right[i]) < 500 + i)
        }
        // Condensed tree: every point has exactly one row; children ids exceed parents'.
        let t = try #require(r.condensedTree)
        #expect(t.rowOfPoint.allSatisfy { $0 >= 0 })
        for i in 0..<t.parent.count where t.child[i] >= 500 { #expect(t.child[i] > t.parent[i]) }
    }
}
