import Testing
@_spi(Sorting) @testable import ClusterCore
import TestSupport

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

    /// The neighbour lists the MST starts from, against every distance: each position lists
    /// k + 1 distinct positions whose distances are the k + 1 smallest from it. Leaf sizes from
    /// below k (every leaf searches point by point) to 32, and the number of leaves checked
    /// directly from none (all searched) to unlimited, so both ways and their mix are covered.
    @Test("neighbour lists hold the k+1 nearest points, for any leaf size and way of searching",
          arguments: [2, 5, 10])
    func neighbourLists(minSamples: Int) throws {
        for (name, p) in Self.shapes where p.count > minSamples + 1 {
            let n = p.count
            // Every point's squared distances to all points, ascending, by input row.
            let expected = (0..<n).map { i in
                (0..<n).map { j -> Double in
                    let dx = p.xs[j] - p.xs[i], dy = p.ys[j] - p.ys[i]
                    return dx * dx + dy * dy
                }.sorted()
            }
            for leafSize in [4, 16, 32] {
                let t = KDTree(points: p, leafSize: leafSize)
                for (capacity, threads) in [(0, 1), (3, 1), (64, 1), (64, 2)] {
                    let r = try CoreDistances.computeWithNeighbours(
                        tree: t, minSamples: minSamples, convention: .sklearn, threads: threads,
                        keepNeighbours: true, extra: 1, nearCapacity: capacity)
                    let listLength = r.k + 1
                    var bad = 0
                    for i in 0..<n {
                        let listed = (0..<listLength).map { Int(r.neighbours[i * listLength + $0]) }
                        let d = listed.map { j -> Double in
                            let dx = t.xs[j] - t.xs[i], dy = t.ys[j] - t.ys[i]
                            return dx * dx + dy * dy
                        }
                        let row = Int(t.index[i])
                        if Set(listed).count != listLength || d != Array(expected[row].prefix(listLength)) || r.core2[i] != expected[row][r.k - 1] {
                            bad += 1
                        }
                    }
                    #expect(bad == 0, "\(name) leafSize \(leafSize) capacity \(capacity) threads \(threads): \(bad) wrong lists")
                }
            }
        }
        // A larger set of clumps in noise, where near leaves are many and far apart in the
        // tree: every k-th distance against a scan of all points.
        var g = SplitMix64(seed: 90 + UInt64(minSamples))
        let clumps = (0..<30).map { _ in (3000 * g.uniform(), 3000 * g.uniform(), 2 + 30 * g.uniform()) }
        let big = try PointSet((0..<2500).map { i -> (Double, Double) in
            if i % 3 == 0 { return (3000 * g.uniform(), 3000 * g.uniform()) }
            let c = clumps[i % clumps.count]
            return (c.0 + c.2 * g.normal(), c.1 + c.2 * g.normal())
        })
        let t = KDTree(points: big)
        let r = try CoreDistances.computeWithNeighbours(tree: t, minSamples: minSamples, convention: .sklearn, threads: 2,
                                                        keepNeighbours: true, extra: 1)
        var bad = 0
        t.xs.withUnsafeBufferPointer { xs in
        t.ys.withUnsafeBufferPointer { ys in
            let n = xs.count, listLength = r.k + 1
            var nearest = [Double](repeating: .infinity, count: listLength)
            for i in 0..<n {
                for j in 0..<listLength { nearest[j] = .infinity }
                for j in 0..<n {
                    let dx = xs[j] - xs[i], dy = ys[j] - ys[i]
                    let d = dx * dx + dy * dy
                    var at = listLength - 1
                    if d >= nearest[at] { continue }
                    while at > 0 && nearest[at - 1] > d { nearest[at] = nearest[at - 1]; at -= 1 }
                    nearest[at] = d
                }
                let listed = (0..<listLength).map { j -> Double in
                    let q = Int(r.neighbours[i * listLength + j])
                    let dx = xs[q] - xs[i], dy = ys[q] - ys[i]
                    return dx * dx + dy * dy
                }
                if listed != nearest { bad += 1 }
            }
        }}
        #expect(bad == 0, "clumps in noise: \(bad) wrong lists")
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

    /// What every point remembers between Borůvka rounds, against brute force after every
    /// round: `floor2` never above the point's lightest edge to another component, and `cand`,
    /// when set, that edge exactly. These memories let later rounds skip points, so a bound too
    /// high would drop MST edges, yet rarely visibly (raising every failed leaf check's floor to
    /// infinity changed the MST in one of nine 3,000-8,000-point Prim comparisons); this checks
    /// the bound itself. Clumps of clumps over noise, so the late rounds check leaves wholly
    /// inside a large component against the leaves within their reach.
    @Test("each point's remembered bound on its best edge holds after every round", arguments: [2, 5])
    func roundMemoriesHold(minSamples: Int) throws {
        for seed in [81, 83] as [UInt64] {
            var g = SplitMix64(seed: seed)
            let n = 2000
            var px = [Double](), py = [Double]()
            let regions = (0..<6).map { _ in (5000 * g.uniform(), 5000 * g.uniform()) }
            let clumps = (0..<60).map { i -> (Double, Double, Double) in
                let r = regions[i % regions.count]
                return (r.0 + 400 * g.normal(), r.1 + 400 * g.normal(), 3 + 25 * g.uniform())
            }
            for i in 0..<n {
                if i % 4 == 0 { px.append(5000 * g.uniform()); py.append(5000 * g.uniform()) } else {
                    let c = clumps[i % clumps.count]
                    px.append(c.0 + c.2 * g.normal()); py.append(c.1 + c.2 * g.normal())
                }
            }
            let t = KDTree(points: try PointSet(xs: px, ys: py))
            let r = try CoreDistances.computeWithNeighbours(tree: t, minSamples: minSamples, convention: .sklearn,
                                                            threads: 1, keepNeighbours: true, extra: 1)
            // The very arithmetic of the search (tree order, squared), so ties compare exactly;
            // raw buffers keep this O(n²) check quick in debug builds.
            let core2 = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
            let xs = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
            let ys = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
            defer { core2.deallocate(); xs.deallocate(); ys.deallocate() }
            _ = core2.initialize(from: r.core2); _ = xs.initialize(from: t.xs); _ = ys.initialize(from: t.ys)
            for threads in [1, 2] {
                var rounds = 0, bounded = 0, exact = 0
                let (mst, _, _) = MinimumSpanningTree.boruvka(
                    tree: t, squaredCoreDistances: r.core2, neighbours: r.neighbours, listLength: r.k + 1, coreNeighbourCount: r.k,
                    threads: threads, inspect: { comp, floor2, cand in
                        rounds += 1
                        comp.withUnsafeBufferPointer { comp in
                        for p in 0..<n {
                            var best = Double.infinity, bestQ = -1
                            let px = xs[p], py = ys[p], cp = core2[p], c = comp[p]
                            for q in 0..<n where comp[q] != c {
                                let dx = xs[q] - px, dy = ys[q] - py
                                let w = max(cp, core2[q], dx * dx + dy * dy)
                                if w < best || (w == best && min(p, q) << 32 | max(p, q) < min(p, bestQ) << 32 | max(p, bestQ)) {
                                    best = w; bestQ = q
                                }
                            }
                            if floor2[p] > best {
                                Issue.record("seed \(seed) round \(rounds): point \(p) remembers \(floor2[p]) above its best \(best)")
                            }
                            if floor2[p] > core2[p] { bounded += 1 }
                            if cand[p] >= 0 {
                                exact += 1
                                #expect(comp[Int(cand[p])] == comp[p] || (Int(cand[p]) == bestQ && floor2[p] == best),
                                        "seed \(seed) round \(rounds): point \(p)'s known best edge")
                            }
                        }
                        }
                    })
                let prim = Oracle.primWeights(try PointSet(xs: t.xs, ys: t.ys), core: r.core2.map { $0.squareRoot() })
                #expect(mst.weight == prim, "seed \(seed) threads \(threads)")
                // The memories are in use: bounds above the core distance, and known edges.
                #expect(rounds >= 4 && bounded > n && exact > n, "\(rounds) rounds, \(bounded) bounds, \(exact) known")
            }
        }
    }

    /// The check Borůvka uses to skip a leaf or group wholly inside one component, against a
    /// scan of every leaf: for random components laid out in space (so that many nodes are
    /// pure), random core distances and bounds from tiny to the data's width.
    /// The same for the walk that lists the leaves within reach (`leavesInReach`), whose list
    /// later rounds check a leaf's points against: the list equals the scan's, more than the
    /// capacity is reported, and its floor bounds every edge to the points it leaves out.
    @Test("the skip check and the reach list for a leaf or group equal a scan of every leaf")
    func hasCandidateMatchesScan() throws {
        var g = SplitMix64(seed: 71)
        var checked = 0, found = 0, floorsChecked = 0
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

                    // The listing walk: exactly the leaves the scan qualifies, and a floor that
                    // no edge from the group to a point outside c in an unlisted leaf undercuts.
                    let expected = (t.firstLeaf..<t.nodeCount).filter { leaf in
                        nodeComp[leaf] != c && max(nodeMin[group], nodeMin[leaf], boxGap2(group, leaf)) <= bound
                    }
                    func list(capacity: Int) -> (leaves: [Int], floor: Double) {
                        var out = [Int32](repeating: -1, count: max(capacity, 1))
                        let r = nodeComp.withUnsafeBufferPointer { nc in
                            nodeMin.withUnsafeBufferPointer { nm in
                                stack.withUnsafeMutableBufferPointer { st in
                                    out.withUnsafeMutableBufferPointer { o in
                                        t.withNodeArrays { v in
                                            v.leavesInReach(of: group, component: c, bound: bound, nodeComp: nc.baseAddress!,
                                                            nodeMinCore2: nm.baseAddress!, stack: st.baseAddress!,
                                                            into: o.baseAddress!, capacity: capacity)
                                        }
                                    }
                                }
                            }
                        }
                        return (r.count < 0 ? [-1] : out.prefix(r.count).map { Int($0) }.sorted(), r.floor)
                    }
                    let listed = list(capacity: t.nodeCount)
                    #expect(listed.leaves == expected, "trial \(trial), node \(group), bound \(bound)")
                    #expect(listed.floor > bound, "trial \(trial), node \(group), bound \(bound)")
                    if !expected.isEmpty {
                        #expect(list(capacity: expected.count - 1).leaves == [-1], "too many leaves must be reported")
                    }
                    if group >= t.firstLeaf && group % 3 == 0 {
                        let inGroup = t.range(ofNode: group)
                        for leaf in t.firstLeaf..<t.nodeCount where !expected.contains(leaf) {
                            for q in t.range(ofNode: leaf) where comp[q] != c {
                                for p in inGroup {
                                    let dx = t.xs[p] - t.xs[q], dy = t.ys[p] - t.ys[q]
                                    let w = max(core2[p], core2[q], dx * dx + dy * dy)
                                    if w < listed.floor {
                                        Issue.record("trial \(trial), leaf \(group), bound \(bound): edge \(p)-\(q) of \(w) under the floor \(listed.floor)")
                                    }
                                }
                            }
                        }
                        floorsChecked += 1
                    }
                }
            }
        }
        // Both answers occur often enough for the comparison to mean something.
        #expect(checked > 1000 && found > checked / 10 && found < checked * 9 / 10, "\(found) of \(checked)")
        #expect(floorsChecked > 300)
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
