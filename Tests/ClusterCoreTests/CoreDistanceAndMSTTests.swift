import Testing
@testable import ClusterCore

@Suite("Core distances and the mutual-reachability MST against brute force")
struct CoreDistanceAndMSTTests {
    static let shapes: [(String, PointSet)] = [
        ("blobs", Shapes.blobs(600, seed: 11)),
        ("grid with duplicates", Shapes.gridWithDuplicates(500, seed: 12)),
        ("line", Shapes.line(300, seed: 13)),
        ("uniform", Shapes.uniform(400, seed: 14)),
        ("all identical", try! PointSet(Array(repeating: (3.0, 4.0), count: 40))),
        ("two points", try! PointSet([(0, 0), (3, 4)])),
        ("clusters of duplicates", try! PointSet((0..<300).map { i in (Double(i % 7) * 100, Double(i % 3) * 50) })),
    ]

    static func coreByRow(_ tree: KDTree, _ byPosition: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: byPosition.count)
        for p in 0..<byPosition.count { out[Int(tree.index[p])] = byPosition[p] }
        return out
    }

    @Test("core distances equal sorting all distances, for both conventions", arguments: [1, 2, 5, 10])
    func coreDistances(minSamples: Int) throws {
        for (name, p) in Self.shapes {
            let t = KDTree(points: p)
            for convention in MinSamplesConvention.allCases {
                let k = convention.neighbourCount(minSamples: minSamples)
                if k > p.count {
                    #expect(throws: ClusterCoreError.self) {
                        try CoreDistances.compute(tree: t, minSamples: minSamples, convention: convention)
                    }
                    continue
                }
                let got = Self.coreByRow(t, try CoreDistances.compute(tree: t, minSamples: minSamples, convention: convention))
                #expect(got == Oracle.coreDistances(p, k: k), "\(name) \(convention)")
            }
        }
    }

    @Test("the hdbscan convention is scikit-learn's with one more neighbour")
    func conventionShift() throws {
        let p = Shapes.blobs(500, seed: 5)
        let t = KDTree(points: p)
        #expect(try CoreDistances.compute(tree: t, minSamples: 4, convention: .hdbscan)
                == CoreDistances.compute(tree: t, minSamples: 5, convention: .sklearn))
    }

    @Test("MST weights equal an O(n²) Prim on the full graph", arguments: [1, 2, 5, 15])
    func mstMatchesPrim(minSamples: Int) throws {
        for (name, p) in Self.shapes where p.count >= minSamples {
            let t = KDTree(points: p)
            let coreByPos = try CoreDistances.compute(tree: t, minSamples: minSamples)
            let mst = MinimumSpanningTree.boruvka(tree: t, coreDistances: coreByPos)
            let prim = Oracle.primWeights(p, core: Self.coreByRow(t, coreByPos))
            #expect(mst.count == p.count - 1, "\(name)")
            #expect(mst.weight == prim, "\(name) ms=\(minSamples)")
            // Spanning: the edges connect every point, with a < b and weights sorted.
            var uf = UnionFind(count: p.count)
            for i in 0..<mst.count {
                #expect(mst.a[i] < mst.b[i])
                #expect(uf.union(Int(mst.a[i]), Int(mst.b[i])) != nil, "\(name): edge \(i) closes a cycle")
                if i > 0 { #expect(mst.weight[i - 1] <= mst.weight[i]) }
            }
        }
    }

    /// Thousands of points in many tight clumps over sparse noise: the later Borůvka rounds then
    /// hold a few large components, whose leaves and 64-point groups are skipped when nothing
    /// outside them is in reach (the climbing check in `hasCandidate`) and searched otherwise.
    @Test("MST weights equal Prim where later rounds skip whole leaves and groups", arguments: [2, 5])
    func mstMatchesPrimOnClumpsInNoise(minSamples: Int) throws {
        var g = SplitMix64(seed: 61)
        var xs = [Double](), ys = [Double]()
        let clumps = (0..<40).map { _ in (2000 * g.uniform(), 2000 * g.uniform(), 2 + 20 * g.uniform()) }
        for i in 0..<3000 {
            if i % 10 < 3 {
                xs.append(2000 * g.uniform()); ys.append(2000 * g.uniform())
            } else {
                let c = clumps[i % clumps.count]
                xs.append(c.0 + c.2 * g.normal()); ys.append(c.1 + c.2 * g.normal())
            }
        }
        let p = try PointSet(xs: xs, ys: ys)
        for (name, set) in [("clumps in noise", p), ("blobs", Shapes.blobs(3000, seed: 62))] {
            let t = KDTree(points: set)
            let coreByPos = try CoreDistances.compute(tree: t, minSamples: minSamples)
            let prim = Oracle.primWeights(set, core: Self.coreByRow(t, coreByPos))
            for threads in [1, 2] {
                let mst = MinimumSpanningTree.boruvka(tree: t, coreDistances: coreByPos, threads: threads)
                #expect(mst.weight == prim, "\(name) ms=\(minSamples) threads=\(threads)")
            }
        }
    }

    /// The check Borůvka uses to skip a leaf or group wholly inside one component, against a
    /// scan of every leaf: for random components laid out in space (so that many nodes are
    /// pure), random core distances and bounds from tiny to the data's width.
    @Test("the skip check for a leaf or group equals a scan of every leaf")
    func hasCandidateMatchesScan() throws {
        var g = SplitMix64(seed: 71)
        var checked = 0, found = 0
        for trial in 0..<6 {
            let n = 400 + 300 * trial
            let p = trial % 2 == 0 ? Shapes.blobs(n, seed: 72 + UInt64(trial)) : Shapes.uniform(n, seed: 72 + UInt64(trial))
            let t = KDTree(points: p)
            // Components: cells of a coarse grid, so that neighbouring leaves share them.
            let cell = 150.0 + 200 * g.uniform()
            let comp = (0..<n).map { i in Int32(Int(((t.xs[i] + 5000) / cell).rounded(.down)) * 1000 + Int(((t.ys[i] + 5000) / cell).rounded(.down))) }
            let core2 = (0..<n).map { _ in let r = 60 * g.uniform(); return r * r }
            var nodeComp = [Int32](repeating: -1, count: t.nodeCount)
            var nodeMin = [Double](repeating: .infinity, count: t.nodeCount)
            for node in stride(from: t.nodeCount - 1, through: 0, by: -1) {
                let r = t.range(ofNode: node)
                if r.isEmpty { continue }
                nodeMin[node] = r.map { core2[$0] }.min()!
                nodeComp[node] = r.allSatisfy({ comp[$0] == comp[r.lowerBound] }) ? comp[r.lowerBound] : -1
            }
            func boxGap2(_ a: Int, _ b: Int) -> Double {
                let dx = max(0, t.minX[b] - t.maxX[a], t.minX[a] - t.maxX[b])
                let dy = max(0, t.minY[b] - t.maxY[a], t.minY[a] - t.maxY[b])
                return dx * dx + dy * dy
            }
            var stack = [Int32](repeating: 0, count: 2 * (KDTree.depth(ofNodeCount: t.nodeCount) + 2))
            for group in 0..<t.nodeCount where nodeComp[group] >= 0 {
                let c = nodeComp[group]
                // The lightest bound at which some leaf qualifies, and just below it: the answer
                // must change exactly there.
                let critical = (t.firstLeaf..<t.nodeCount).filter { nodeComp[$0] != c }
                    .map { max(nodeMin[group], nodeMin[$0], boxGap2(group, $0)) }.min() ?? .infinity
                var bounds = [1.0, 400, 2_500, 10_000, 40_000, 250_000, 4e6].map { $0 * (0.5 + g.uniform()) }
                if critical < .infinity { bounds += [critical, critical.nextDown] }
                for bound in bounds {
                    let scan = (t.firstLeaf..<t.nodeCount).contains { leaf in
                        nodeComp[leaf] != c && max(nodeMin[group], nodeMin[leaf], boxGap2(group, leaf)) <= bound
                    }
                    let got = nodeComp.withUnsafeBufferPointer { nc in
                        nodeMin.withUnsafeBufferPointer { nm in
                            stack.withUnsafeMutableBufferPointer { st in
                                t.withNodeArrays { v in
                                    v.hasCandidate(group: group, component: c, bound: bound, nodeComp: nc.baseAddress!,
                                                   nodeMinCore2: nm.baseAddress!, stack: st.baseAddress!)
                                }
                            }
                        }
                    }
                    #expect(got == scan, "trial \(trial), node \(group), bound \(bound)")
                    checked += 1
                    if scan { found += 1 }
                }
            }
        }
        // Both answers occur often enough for the comparison to mean something.
        #expect(checked > 1000 && found > checked / 10 && found < checked * 9 / 10, "\(found) of \(checked)")
    }

    @Test("every MST edge weight is the mutual reachability of its endpoints")
    func edgeWeightsAreMutualReachability() throws {
        let p = Shapes.blobs(800, seed: 21)
        let t = KDTree(points: p)
        let coreByPos = try CoreDistances.compute(tree: t, minSamples: 5)
        let core = Self.coreByRow(t, coreByPos)
        let mst = MinimumSpanningTree.boruvka(tree: t, coreDistances: coreByPos)
        for i in 0..<mst.count {
            let a = Int(mst.a[i]), b = Int(mst.b[i])
            #expect(mst.weight[i] == max(core[a], core[b], Oracle.distance(p, a, b)))
        }
    }

    @Test("the MST is identical for one and two threads")
    func threadInvariant() throws {
        for (name, p) in [("blobs", Shapes.blobs(60_000, seed: 31)), ("dups", Shapes.gridWithDuplicates(30_000, seed: 32))] {
            let t = KDTree(points: p, threads: 2)
            let c1 = try CoreDistances.compute(tree: t, minSamples: 5, threads: 1)
            let c2 = try CoreDistances.compute(tree: t, minSamples: 5, threads: 2)
            #expect(c1 == c2, "\(name)")
            let m1 = MinimumSpanningTree.boruvka(tree: t, coreDistances: c1, threads: 1)
            let m2 = MinimumSpanningTree.boruvka(tree: t, coreDistances: c1, threads: 2)
            #expect(m1 == m2, "\(name)")
        }
    }

    @Test("MST weights do not depend on the order of the rows")
    func shuffleInvariantWeights() throws {
        let p = Shapes.gridWithDuplicates(3000, seed: 41)
        let (q, _) = Shapes.shuffled(p, seed: 42)
        func weights(_ s: PointSet) throws -> [Double] {
            let t = KDTree(points: s)
            return MinimumSpanningTree.boruvka(tree: t, coreDistances: try CoreDistances.compute(tree: t, minSamples: 5)).weight
        }
        #expect(try weights(p) == weights(q))
    }
}

@Suite("Radix sort of weights")
struct RadixSortTests {
    @Test("orders like a stable comparison sort, ties and duplicates included, on 1 to 3 threads",
          arguments: [0, 1, 2, 1000, 70_000, 200_001, 1_100_000], [1, 2, 3])
    func matchesStableSort(count: Int, threads: Int) {
        var g = SplitMix64(seed: UInt64(count) + 3)
        // Few distinct values (many ties), values spanning exponents, and zeros.
        // Values a few units in the last place apart: equal in the 32 bits the passes sort,
        // so ordered by the pass over runs (in runs of up to 2,000 at 1.1M values).
        let close = 1234.5678
        let values = (0..<count).map { i -> Double in
            switch i % 5 {
            case 0: return Double(Int(g.uniform() * 20))
            case 1: return g.uniform() * 1e6
            case 2: return 0
            case 3: return g.uniform() * 1e-3
            default:
                var v = close
                for _ in 0..<Int(g.uniform() * 5) { v = v.nextUp }
                return v
            }
        }
        let expected = values.indices.sorted { values[$0] < values[$1] || (values[$0] == values[$1] && $0 < $1) }
        #expect(RadixSort.stableOrder(of: values, threads: threads).map(Int.init) == expected)
    }

    @Test("keys within 32 bits of their top varying bit, and all-equal keys", arguments: [1, 2])
    func narrowKeys(threads: Int) {
        var g = SplitMix64(seed: 11)
        // Integers below 2^20: every varying bit is sorted by the passes, no run pass.
        let small = (0..<100_000).map { _ in Double(Int(g.uniform() * 1_000_000)) }
        let expected = small.indices.sorted { small[$0] < small[$1] || (small[$0] == small[$1] && $0 < $1) }
        #expect(RadixSort.stableOrder(of: small, threads: threads).map(Int.init) == expected)
        // Runs of three values a unit in the last place apart, in falling order: each run is
        // put in order by insertion (runs of more than 16 by a comparison sort, above).
        let triples = (0..<30_000).map { i -> Double in
            var v = Double(i / 3) * 1000.5 + 1
            for _ in 0..<(2 - i % 3) { v = v.nextUp }
            return v
        }
        let expectedTriples = triples.indices.sorted { triples[$0] < triples[$1] || (triples[$0] == triples[$1] && $0 < $1) }
        #expect(expectedTriples != Array(triples.indices))
        #expect(RadixSort.stableOrder(of: triples, threads: threads).map(Int.init) == expectedTriples)
        let same = [Double](repeating: 7.25, count: 70_000)
        #expect(RadixSort.stableOrder(of: same, threads: threads).map(Int.init) == Array(0..<70_000))
    }
}
