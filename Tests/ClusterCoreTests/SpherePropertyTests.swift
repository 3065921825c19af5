import Foundation
import Testing
@testable import ClusterCore
import TestSupport

/// Points on the sphere for the property tests: blobs of a few kilometres to a few hundred
/// (some across ±180° and near the poles), uniform scatter, and repeated coordinates.
private func sphereSample(seed: UInt64, count: Int) -> (lon: [Double], lat: [Double]) {
    var rng = SplitMix64(seed: seed)
    let centres: [(Double, Double, Double)] = [(179.9, -17.5, 40), (-0.1, 51.5, 15), (15.6, 78.2, 25),
                                               (126.98, 37.56, 5), (-68.3, -54.8, 60), (0, 89.7, 30)]
    var lon: [Double] = [], lat: [Double] = []
    while lon.count < count {
        let u = rng.uniform()
        if u < 0.15 {
            lon.append(rng.uniform() * 360 - 180); lat.append(asin(rng.uniform() * 2 - 1) * 180 / .pi)
        } else if u < 0.25, !lon.isEmpty {
            let i = Int(rng.next() % UInt64(lon.count)); lon.append(lon[i]); lat.append(lat[i])
        } else {
            let c = centres[Int(rng.next() % UInt64(centres.count))]
            let dLat = rng.normal() * c.2 / 111.2, la = max(-90, min(90, c.1 + dLat))
            var lo = c.0 + rng.normal() * c.2 / (111.2 * max(0.05, cos(la * .pi / 180)))
            lo = lo >= 180 ? lo - 360 : (lo < -180 ? lo + 360 : lo)
            lon.append(lo); lat.append(la)
        }
    }
    return (lon, lat)
}

/// The mutual-reachability MST weights by Prim's algorithm over all pairs (metres, sorted),
/// with core distances by sorting every point's distances: the oracle.
private func bruteForceMST(_ p: SpherePoints, minSamples: Int) -> (weights: [Double], core: [Double]) {
    let n = p.count
    let d = (0..<n).map { i in (0..<n).map { j in
        SpherePoints.distance(lon1: p.longitudes[i], lat1: p.latitudes[i], lon2: p.longitudes[j], lat2: p.latitudes[j])
    } }
    return Oracle.mst(distances: d, minSamples: minSamples)
}

@Suite("Great-circle clustering: oracles and properties")
struct SpherePropertyTests {
    @Test("core distances and MST weights equal the brute-force oracle's", arguments: [1, 2, 3])
    func oracle(seed: UInt64) throws {
        let s = sphereSample(seed: seed, count: 400)
        let points = try SpherePoints(longitudes: s.lon, latitudes: s.lat)
        for minSamples in [1, 4] {
            let oracle = bruteForceMST(points, minSamples: minSamples)
            for threads in [1, 2] {
                let (mst, core) = try HDBSCAN.minimumSpanningTree(points, minSamples: minSamples, threads: threads)
                #expect(mst.count == points.count - 1)
                for (a, b) in zip(core, oracle.core) { #expect(abs(a - b) <= 1e-9 * max(1, b)) }
                for (a, b) in zip(mst.weight, oracle.weights) { #expect(abs(a - b) <= 1e-9 * max(1, b)) }
                #expect(mst.weight == mst.weight.sorted())
            }
        }
    }

    /// Each MST weight is, bit for bit, max(core(a), core(b), haversine(a, b)), though the
    /// haversine is skipped where the chord lies inside a core chord: at every scale from
    /// micrometres to hundreds of kilometres, where the rounding of unit vectors matters most.
    @Test("MST weights are exactly the larger of the core distances and the haversine distance, micrometres to 100 km")
    func weightsExact() throws {
        var rng = SplitMix64(seed: 11)
        // Scatter, and lattices whose jitter makes many distances near-ties of core distances.
        var samples: [(lon: [Double], lat: [Double], note: String)] = []
        for spread in [1e-9, 1e-7, 1e-5, 1e-3, 1.0] {   // degrees
            samples.append(((0..<500).map { _ in 179.99 + spread * rng.normal() },
                            (0..<500).map { _ in 60 + spread * rng.normal() }, "scatter \(spread)°"))
            for jitter in [1e-4, 1e-8, 1e-11] {
                let cells = (0..<500).map { ($0 % 25, $0 / 25) }
                samples.append((cells.map { 179.99 + spread * (Double($0.0) * 2 + jitter * rng.normal()) },
                                cells.map { 60 + spread * (Double($0.1) + jitter * rng.normal()) }, "lattice \(spread)° ± \(jitter)"))
            }
        }
        for (lon, lat, note) in samples {
            let points = try SpherePoints(longitudes: lon.map { $0 > 180 ? $0 - 360 : $0 }, latitudes: lat)
            for minSamples in [1, 3, 8] {
                let (mst, core) = try HDBSCAN.minimumSpanningTree(points, minSamples: minSamples)
                for i in 0..<mst.count {
                    let a = Int(mst.a[i]), b = Int(mst.b[i])
                    let d = SpherePoints.distance(lon1: points.longitudes[a], lat1: points.latitudes[a],
                                                  lon2: points.longitudes[b], lat2: points.latitudes[b])
                    #expect(mst.weight[i] == max(core[a], core[b], d), "\(note), min_samples \(minSamples), edge \(i)")
                }
            }
        }
    }

    @Test("rotating about the axis, mirroring across the equator and shuffling rows change no partition",
          arguments: [4, 5])
    func invariance(seed: UInt64) throws {
        let s = sphereSample(seed: seed, count: 1500)
        let parameters = HDBSCANParameters(minClusterSize: 15, minSamples: 5)
        let dbscan = DBSCANParameters(eps: 20_000, minSamples: 5)
        let base = try SpherePoints(longitudes: s.lon, latitudes: s.lat)
        let h0 = try HDBSCAN.fit(base, parameters: parameters).labeling.labels
        let d0 = try DBSCAN.fit(base, parameters: dbscan).labels
        #expect(Set(h0).count > 4)
        for shift in [37.25, 180.0, -123.5] {
            let lon = s.lon.map { l -> Double in let r = l + shift; return r >= 180 ? r - 360 : (r < -180 ? r + 360 : r) }
            let rotated = try SpherePoints(longitudes: lon, latitudes: s.lat)
            #expect(samePartition(try HDBSCAN.fit(rotated, parameters: parameters, threads: 2).labeling.labels, h0))
            #expect(try DBSCAN.fit(rotated, parameters: dbscan, threads: 2).labels == d0)
        }
        let mirrored = try SpherePoints(longitudes: s.lon, latitudes: s.lat.map { -$0 })
        #expect(samePartition(try HDBSCAN.fit(mirrored, parameters: parameters).labeling.labels, h0))
        var rng = SplitMix64(seed: seed)
        var order = Array(0..<s.lon.count)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        let shuffled = try SpherePoints(longitudes: order.map { s.lon[$0] }, latitudes: order.map { s.lat[$0] })
        let h1 = try HDBSCAN.fit(shuffled, parameters: parameters).labeling.labels
        #expect(samePartition(order.map { h0[$0] }, h1))
        #expect(samePartition(order.map { d0[$0] }, try DBSCAN.fit(shuffled, parameters: dbscan).labels))
    }

    @Test("bad input: latitude beyond a pole, NaN, eps beyond half the circumference")
    func badInput() {
        #expect(throws: ClusterCoreError.self) { try SpherePoints(longitudes: [0], latitudes: [90.5]) }
        #expect(throws: ClusterCoreError.nonFiniteCoordinate(row: 1)) {
            try SpherePoints(longitudes: [0, .nan], latitudes: [0, 0])
        }
        let p = try! SpherePoints(longitudes: [0, 1], latitudes: [0, 0])
        #expect(throws: ClusterCoreError.self) { try DBSCAN.fit(p, parameters: DBSCANParameters(eps: 2.1e7)) }
        #expect(throws: ClusterCoreError.self) {
            try HDBSCAN.fit(p, parameters: HDBSCANParameters(minClusterSize: 2, minSamples: 3))
        }
    }

    /// Borůvka's rounds on the sphere list, for a leaf or a group wholly inside one component,
    /// the leaves of other components within reach of a bound, and a floor for the rest
    /// (`SphereView.leavesInReach`): against a scan of every leaf by box-to-box distance and
    /// least core distance, and against every edge to a point of an unlisted leaf.
    @Test("the leaves within reach of a leaf or group on the sphere equal a scan of every leaf", arguments: [6, 7])
    func leavesInReachMatchesScan(seed: UInt64) throws {
        let s = sphereSample(seed: seed, count: 600)
        let tree = SphereTree(try SpherePoints(longitudes: s.lon, latitudes: s.lat), leafSize: 8, threads: 1)
        var rng = SplitMix64(seed: seed)
        // Components: cells of 30° of the unit vectors' x and y, so that neighbouring leaves share them.
        let comp = (0..<tree.count).map { p -> Int32 in
            let i = Int((tree.x[p] + 1) * 6), j = Int((tree.y[p] + 1) * 6)
            return Int32(100 * i + j)
        }
        let core2 = (0..<tree.count).map { _ in let r = 0.02 * rng.uniform(); return r * r }
        let leaves = tree.firstLeaf..<tree.nodeCount
        var nodeComp = [Int32](repeating: -1, count: tree.nodeCount)
        var nodeMin = [Double](repeating: .infinity, count: tree.nodeCount)
        for node in 0..<tree.nodeCount {
            let r = Int(tree.start[node])..<Int(tree.end[node])
            if r.isEmpty { continue }
            nodeMin[node] = r.map { core2[$0] }.min()!
            nodeComp[node] = r.allSatisfy { comp[$0] == comp[r.lowerBound] } ? comp[r.lowerBound] : -1
        }
        var stack = [Int32](repeating: 0, count: 2 * (KDTree.depth(ofNodeCount: tree.nodeCount) + 2))
        var out = [Int32](repeating: -1, count: tree.nodeCount)
        var listedSome = 0
        tree.withView { v in
            func list(_ g: Int, _ c: Int32, _ bound: Double, capacity: Int) -> (count: Int, floor: Double) {
                nodeComp.withUnsafeBufferPointer { nc in nodeMin.withUnsafeBufferPointer { nm in
                stack.withUnsafeMutableBufferPointer { st in out.withUnsafeMutableBufferPointer { o in
                    v.leavesInReach(of: g, component: c, bound: bound, nodeComp: nc.baseAddress!, nodeMinCore2: nm.baseAddress!,
                                    stack: st.baseAddress!, into: o.baseAddress!, capacity: capacity)
                }}}}
            }
            for g in 1..<tree.nodeCount where nodeComp[g] >= 0 {
                let c = nodeComp[g]
                let lower = { (leaf: Int) in Swift.max(nodeMin[g], nodeMin[leaf], v.boxBoxDistance2(g, leaf)) }
                for bound in [1e-6, 1e-4, 1e-3, 0.01, 0.1, 1].map({ $0 * (0.5 + rng.uniform()) }) {
                    let expected = leaves.filter { nodeComp[$0] != c && lower($0) <= bound }
                    let got = list(g, c, bound, capacity: tree.nodeCount)
                    #expect(out.prefix(got.count).map { Int($0) }.sorted() == expected, "seed \(seed), node \(g), bound \(bound)")
                    #expect(got.floor > bound)
                    #expect(v.hasCandidate(group: g, component: c, bound: bound, nodeComp: nodeComp, nodeMinCore2: nodeMin,
                                           stack: &stack) == !expected.isEmpty)
                    if !expected.isEmpty {
                        listedSome += 1
                        #expect(list(g, c, bound, capacity: expected.count - 1).count == -1, "too many leaves must be reported")
                    }
                    // No edge from the group to a point outside c in an unlisted leaf is under the floor.
                    for leaf in leaves where !expected.contains(leaf) {
                        for q in Int(tree.start[leaf])..<Int(tree.end[leaf]) where comp[q] != c {
                            for p in Int(tree.start[g])..<Int(tree.end[g]) {
                                let w = Swift.max(core2[p], core2[q], v.distance2(q, v.point(p)))
                                #expect(w >= got.floor, "seed \(seed), node \(g): edge \(p)-\(q) under the floor")
                            }
                        }
                    }
                }
            }
        }
        #expect(listedSome > 50)
    }
}

@Suite("Grid clustering on the sphere")
struct SphereGridTests {
    @Test("a town across ±180° is one cluster; rotation about the axis and mirroring change no partition")
    func antimeridianAndInvariance() throws {
        var rng = SplitMix64(seed: 11)
        var lon: [Double] = [], lat: [Double] = []
        for (c, n) in [((179.999, -16.8), 400), ((126.98, 37.56), 300), ((15.6, 78.2), 200)] as [((Double, Double), Int)] {
            for _ in 0..<n {
                lat.append(c.1 + rng.normal() * 0.004)
                var l = c.0 + rng.normal() * 0.004 / cos(c.1 * .pi / 180)
                l = l >= 180 ? l - 360 : l
                lon.append(l)
            }
        }
        let grid = GridParameters(cellSize: 300, minPoints: 3, mergeAdjacent: true)
        let base = try GridClustering.fit(SpherePoints(longitudes: lon, latitudes: lat), parameters: grid)
        let fiji = Set(base.labels[0..<400].filter { $0 >= 0 })
        #expect(lon[0..<400].contains { $0 < 0 } && lon[0..<400].contains { $0 > 0 })
        #expect(fiji.count == 1, "the town across the line is one cluster")
        #expect(base.clusterCount >= 3)
        for shift in [37.25, -90.5] {
            let rotated = lon.map { l -> Double in let r = l + shift; return r >= 180 ? r - 360 : (r < -180 ? r + 360 : r) }
            let r = try GridClustering.fit(SpherePoints(longitudes: rotated, latitudes: lat), parameters: grid)
            #expect(samePartition(r.labels, base.labels))
        }
        let mirrored = try GridClustering.fit(SpherePoints(longitudes: lon, latitudes: lat.map { -$0 }), parameters: grid)
        #expect(samePartition(mirrored.labels, base.labels))
    }

    @Test("cells have equal area: as many points fall in a cell at 60° as at the equator for the same density per m²")
    func equalArea() throws {
        // Points on a fine lattice of equal spacing in metres around the equator and 60° N: a
        // dense-cell threshold just under one cell's expected count finds cells at both.
        #expect(GridClustering.longitudeCut([10, 11, 12]) > 12 || GridClustering.longitudeCut([10, 11, 12]) < 10)
        let even = (0..<36_000).map { (Double($0) + 0.5) * 0.01 - 180 }, cut = GridClustering.longitudeCut(even)
        #expect(even.allSatisfy { abs($0 - cut) >= 0.004 }, "the cut lies in a gap of data all round the globe")
        #expect(abs(GridClustering.longitudeCut([179.5, -179.5]) - 0) < 0.01, "the cut is opposite a group across ±180°")
        let step = 10.0, metresPerDegree = 111_194.9
        var lon: [Double] = [], lat: [Double] = []
        for centre in [0.0, 60.0] {
            for i in 0..<100 { for j in 0..<100 {
                let la = centre + Double(i) * step / metresPerDegree
                lat.append(la); lon.append(Double(j) * step / (metresPerDegree * cos(la * .pi / 180)))
            } }
        }
        let r = try GridClustering.fit(SpherePoints(longitudes: lon, latitudes: lat),
                                       parameters: GridParameters(cellSize: 200, minPoints: 1))
        // 200 m cells hold 400 points of a 10 m lattice on average, at the equator and at 60°
        // (where a cell is 100 m wide and 400 m tall on the ground).
        for band in [0..<10_000, 10_000..<20_000] {
            var sizes: [Int32: Int] = [:]
            for l in r.labels[band] where l >= 0 { sizes[l, default: 0] += 1 }
            let full = sizes.values.filter { $0 > 350 }  // cells the lattice covers whole
            #expect(full.count >= 4)
            let mean = Double(full.reduce(0, +)) / Double(max(1, full.count))
            #expect(abs(mean - 400) <= 20, "full cells hold \(mean) points on average: \(sizes.values.sorted())")
        }
    }
}
