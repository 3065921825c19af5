import Testing
@testable import ClusterCore
import TestSupport

/// HDBSCAN over distinct locations (co-located points grouped, `Locations`) against the
/// point-by-point path it replaced: everything a user sees must be identical.
@Suite("Co-located points as weighted locations: identical to point by point")
struct LocationsTests {
    /// Buildings of 1–`maxUnits` units at exactly shared coordinates around a few complexes,
    /// plus scattered single listings: the shape of real estate data.
    static func buildings(_ count: Int, maxUnits: Int, seed: UInt64) -> PointSet {
        var g = SplitMix64(seed: seed)
        var xs = [Double](), ys = [Double]()
        for b in 0..<count {
            let cx = Double(b % 4) * 1500, cy = Double(b % 3) * 700
            let x = cx + 120 * g.normal(), y = cy + 120 * g.normal()
            let units = b % 5 == 0 ? 1 : 1 + Int(g.uniform() * Double(maxUnits))
            for _ in 0..<units { xs.append(x); ys.append(y) }
        }
        // Shuffle so a building's rows are not adjacent.
        let p = try! PointSet(xs: xs, ys: ys)
        return Shapes.shuffled(p, seed: seed &+ 1).0
    }

    @Test("grouping: every row in exactly its coordinates' location, -0 with +0, rows ascending")
    func grouping() throws {
        var g = SplitMix64(seed: 11)
        var xs = [Double](), ys = [Double]()
        for _ in 0..<3000 {
            let x = Double(Int(g.uniform() * 20)) - 10, y = Double(Int(g.uniform() * 20)) - 10
            // Signed zeros: -0.0 and +0.0 are one location.
            xs.append(x == 0 && g.uniform() < 0.5 ? -0.0 : x); ys.append(y)
        }
        let p = try PointSet(xs: xs, ys: ys)
        let loc = try #require(Locations.group(p))
        // Two workers number the locations the same way.
        let two = try #require(Locations.group(p, threads: 2))
        #expect(two.points == loc.points && two.weight == loc.weight && two.start == loc.start && two.rows == loc.rows)
        #expect(loc.weight.reduce(0, +) == 3000)
        #expect(loc.count <= 400)
        var seen = Set<Int32>()
        for l in 0..<loc.count {
            let rows = loc.rows[Int(loc.start[l])..<Int(loc.start[l + 1])]
            #expect(rows.count == Int(loc.weight[l]))
            #expect(Array(rows) == rows.sorted())
            for r in rows {
                #expect(p.xs[Int(r)] == loc.points.xs[l] && p.ys[Int(r)] == loc.points.ys[l])
                seen.insert(r)
            }
        }
        #expect(seen.count == 3000)
        // Brute force: two rows share a location exactly when their coordinates are equal.
        var keyOf: [String: Int] = [:]
        for l in 0..<loc.count {
            let key = "\(loc.points.xs[l] + 0.0),\(loc.points.ys[l] + 0.0)"
            #expect(keyOf[key] == nil, "two locations with the same coordinates")
            keyOf[key] = l
        }
        // Thousands of locations (the tables grow several times), each twice, shuffled: the
        // same grouping as a dictionary keyed by the coordinates, on one and two workers.
        let u = Shapes.uniform(6000, seed: 5)
        let doubled = Shapes.shuffled(try PointSet(xs: u.xs + u.xs, ys: u.ys + u.ys), seed: 6).0
        var byKey: [String: [Int32]] = [:]
        for r in 0..<doubled.count { byKey["\(doubled.xs[r]),\(doubled.ys[r])", default: []].append(Int32(r)) }
        for threads in [1, 2] {
            let g = try #require(Locations.group(doubled, threads: threads))
            #expect(g.count == 6000)
            var firstRows: [Int32] = []
            for l in 0..<g.count {
                let rows = Array(g.rows[Int(g.start[l])..<Int(g.start[l + 1])])
                #expect(rows == byKey["\(g.points.xs[l]),\(g.points.ys[l])"])
                firstRows.append(rows[0])
            }
            #expect(firstRows == firstRows.sorted(), "locations numbered by first row")
        }
        // Distinct points: no grouping; from 4,096 rows a sample decides whether to try.
        #expect(Locations.group(Shapes.uniform(500, seed: 2)) == nil)
        #expect(!Locations.worthGrouping(Shapes.uniform(20000, seed: 3)))
        #expect(Locations.worthGrouping(Self.buildings(3000, maxUnits: 8, seed: 1)))
    }

    /// Fits both ways and checks every output a user can see: grouped with the linkage and
    /// condensed tree built over the locations (`keeping` without the linkage) and over the
    /// points (with it), against the point-by-point path.
    func expectIdentical(_ p: PointSet, _ parameters: HDBSCANParameters, threads: Int = 1,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let plain = try HDBSCAN.fit(p, parameters: parameters, threads: threads, groupLocations: false)
        for keeping in [HDBSCANOutputs([.mst, .condensedTree]), .all, [], [.mst]] {
            let grouped = try HDBSCAN.fit(p, parameters: parameters, threads: threads, keeping: keeping, groupLocations: true)
            let what = "n \(p.count), mcs \(parameters.minClusterSize), ms \(parameters.effectiveMinSamples) \(parameters.minSamplesConvention), keeping \(keeping.rawValue)"
            // Compared as Booleans: Swift Testing's diff of two long arrays holding infinities
            // crashed while describing a failure.
            let sameLabels = grouped.labeling.labels == plain.labeling.labels
            let sameProbabilities = grouped.labeling.probabilities == plain.labeling.probabilities
            let sameScores = grouped.labeling.outlierScores == plain.labeling.outlierScores
            let sameCore = grouped.coreDistances == plain.coreDistances
            let sameWeights = grouped.mst.map { $0.weight == plain.mst!.weight } ?? true
            #expect(sameLabels, "labels: \(what)", sourceLocation: sourceLocation)
            #expect(sameProbabilities, "probabilities: \(what)", sourceLocation: sourceLocation)
            #expect(sameScores, "GLOSH: \(what)", sourceLocation: sourceLocation)
            #expect(sameCore, "core distances: \(what)", sourceLocation: sourceLocation)
            #expect(grouped.mstWeight == plain.mstWeight, "MST weight: \(what)", sourceLocation: sourceLocation)
            #expect(sameWeights, "MST weights: \(what)", sourceLocation: sourceLocation)
            #expect(grouped.selectedClusters == plain.selectedClusters, "selected: \(what)", sourceLocation: sourceLocation)
            guard let gt = grouped.condensedTree else { continue }
            let pt = try #require(plain.condensedTree)
            #expect(gt.stability == pt.stability && gt.clusterParent == pt.clusterParent
                    && gt.clusterBirth == pt.clusterBirth && gt.clusterSize == pt.clusterSize && gt.maxLambda == pt.maxLambda,
                    "condensed clusters: \(what)", sourceLocation: sourceLocation)
            #expect(gt.parent.count == pt.parent.count, "condensed rows: \(what)", sourceLocation: sourceLocation)
            // Each point falls out of the same cluster at the same lambda (rows of one fall-out
            // group may come in another order).
            for i in 0..<p.count {
                let gr = Int(gt.rowOfPoint[i]), pr = Int(pt.rowOfPoint[i])
                if gt.child[gr] != Int32(i) || gt.parent[gr] != pt.parent[pr] || gt.lambda[gr] != pt.lambda[pr] {
                    Issue.record("point \(i) leaves differently: \(what)", sourceLocation: sourceLocation)
                    break
                }
            }
            // The grouped MST is a spanning tree of the points.
            if let mst = grouped.mst {
                let linkage = SingleLinkageTree(mst: mst, pointCount: p.count)
                #expect(linkage.size.last.map(Int.init) == p.count, sourceLocation: sourceLocation)
            }
        }
    }

    @Test("buildings and complexes: the same labels, probabilities, GLOSH, core distances, MST weights, condensed tree",
          arguments: [
            HDBSCANParameters(minClusterSize: 15, minSamples: 5),
            HDBSCANParameters(minClusterSize: 30, minSamples: 15),
            HDBSCANParameters(minClusterSize: 5),
            HDBSCANParameters(minClusterSize: 10, minSamples: 1),
            HDBSCANParameters(minClusterSize: 5, minSamples: 40),            // minSamples above minClusterSize
            HDBSCANParameters(minClusterSize: 8, minSamples: 4, minSamplesConvention: .hdbscan),
            HDBSCANParameters(minClusterSize: 12, minSamples: 6, selection: SelectionOptions(method: .leaf)),
            HDBSCANParameters(minClusterSize: 12, minSamples: 6, selection: SelectionOptions(epsilon: 50)),
          ])
    func buildingsIdentical(parameters: HDBSCANParameters) throws {
        for (seed, maxUnits) in [(UInt64(1), 8), (2, 40), (3, 2)] {
            try expectIdentical(Self.buildings(400, maxUnits: maxUnits, seed: seed), parameters)
        }
    }

    @Test("ties everywhere: points on a 10 m grid with many duplicates, 1 and 2 threads")
    func gridTies() throws {
        for seed in UInt64(1)...6 {
            let p = Shapes.gridWithDuplicates(1500, seed: seed)
            try expectIdentical(p, HDBSCANParameters(minClusterSize: 10, minSamples: 5))
            try expectIdentical(p, HDBSCANParameters(minClusterSize: 25, minSamples: 25), threads: 2)
            try expectIdentical(p, HDBSCANParameters(minClusterSize: 4, minSamples: 2, selection: SelectionOptions(method: .leaf)))
        }
    }

    @Test("few locations: fewer locations than the neighbour count, two locations, one location")
    func fewLocations() throws {
        // 60 points at 3 locations with k = 10: the lists hold every location.
        var pts: [(Double, Double)] = []
        for i in 0..<60 { pts.append([(0.0, 0.0), (100.0, 0.0), (0.0, 250.0)][i % 3]) }
        try expectIdentical(try PointSet(pts), HDBSCANParameters(minClusterSize: 5, minSamples: 10))
        try expectIdentical(try PointSet(pts), HDBSCANParameters(minClusterSize: 25, minSamples: 30))
        let two = try PointSet((0..<30).map { $0 < 10 ? (5.0, 5.0) : (9.0, 5.0) })
        try expectIdentical(two, HDBSCANParameters(minClusterSize: 5, minSamples: 3))
        try expectIdentical(two, HDBSCANParameters(minClusterSize: 5, minSamples: 15))
        // One location: all noise (the plain path runs, nothing to group).
        let one = try PointSet(Array(repeating: (1.0, 2.0), count: 50))
        try expectIdentical(one, HDBSCANParameters(minClusterSize: 5))
        // Too few points for the neighbour count: the same error either way.
        let small = try PointSet([(0, 0), (0, 0), (1, 1)])
        #expect(throws: ClusterCoreError.self) { try HDBSCAN.fit(small, parameters: HDBSCANParameters(minClusterSize: 2, minSamples: 4)) }
        try expectIdentical(small, HDBSCANParameters(minClusterSize: 2, minSamples: 3))
    }

    @Test("the MST alone (what the map pins cut) weighs the same, with core distance 0 for minSamples 1")
    func minimumSpanningTreeAlone() throws {
        let p = Self.buildings(300, maxUnits: 12, seed: 9)
        let grouped = try HDBSCAN.minimumSpanningTree(p, minSamples: 1)
        let core = Oracle.coreDistances(p, k: 1)
        #expect(grouped.coreDistances == core)
        let prim = Oracle.primWeights(p, core: core)
        #expect(grouped.mst.weight == prim.sorted())
        let five = try HDBSCAN.minimumSpanningTree(p, minSamples: 5)
        #expect(five.coreDistances == Oracle.coreDistances(p, k: 5))
        #expect(five.mst.weight == Oracle.primWeights(p, core: five.coreDistances).sorted())
    }
}
