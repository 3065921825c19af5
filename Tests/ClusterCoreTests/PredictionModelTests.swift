import Testing
@testable import ClusterCore
import TestSupport

@Suite("PredictionModel: kept by the fit, encoded and read back")
struct PredictionModelTests {
    /// Three patches and a thin background on a 1 cm grid, and points to predict around them.
    static func data() throws -> (fit: PointSet, new: PointSet) {
        var random = SplitMix64(seed: 9)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var xs = [Double](), ys = [Double]()
        for i in 0..<2400 {
            let centre = [(200.0, 200.0), (700.0, 300.0), (450.0, 800.0)][i % 3]
            let spread = i < 240 ? 1000.0 : 90.0
            let (cx, cy) = i < 240 ? (500.0, 500.0) : centre
            xs.append(((cx + (uniform() - 0.5) * spread) * 100).rounded() / 100)
            ys.append(((cy + (uniform() - 0.5) * spread) * 100).rounded() / 100)
        }
        let new = try PointSet(xs: (0..<500).map { _ in uniform() * 1000 }, ys: (0..<500).map { _ in uniform() * 1000 })
        return (try PointSet(xs: xs, ys: ys), new)
    }

    @Test("the fit's kept model is the model built from its result")
    func keptByTheFit() throws {
        let (points, new) = try Self.data()
        let parameters = HDBSCANParameters(minClusterSize: 20, minSamples: 8)
        let kept = try #require(try HDBSCAN.fit(points, parameters: parameters, keeping: .prediction).prediction)
        let result = try HDBSCAN.fit(points, parameters: parameters, keeping: .clusterTree)
        let built = try PredictionModel(points: points, result: result, parameters: parameters)
        #expect(kept.clusterCount == result.labeling.clusterCount && kept.clusterCount >= 3)
        #expect(kept.predict(new) == built.predict(new))
        #expect(try HDBSCAN.fit(points, parameters: parameters, keeping: .prediction).condensedTree == nil)
    }

    @Test("encoded and read back, it answers exactly as before")
    func roundTrip() throws {
        let (points, new) = try Self.data()
        let parameters = HDBSCANParameters(minClusterSize: 20, minSamples: 8)
        let model = try #require(try HDBSCAN.fit(points, parameters: parameters, keeping: .prediction).prediction)
        let back = try PredictionModel(encoded: model.encoded(), threads: 2)
        #expect(back.predict(new) == model.predict(new))
        #expect(back.membershipVectors(new) == model.membershipVectors(new))
        #expect(back.exemplarRows == model.exemplarRows)
        #expect(back.encoded() == model.encoded())
    }

    @Test("a model of no points answers noise, point by point too")
    func empty() throws {
        // No fit gives one (too few points for any neighbour count), but model bytes can.
        for space: UInt64 in [0, 1] {
            let counts: [UInt64] = [1, 0, 0, 0, 0, space]
            let model = try PredictionModel(encoded: counts.flatMap { value in (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } })
            var buffer = model.queryBuffer()
            #expect(model.pointCount == 0 && model.clusterCount == 0 && model.isOnSphere == (space == 1))
            #expect(model.predict(x: 1, y: 2, buffer: &buffer).label == -1)
            let two = model.isOnSphere
                ? model.predict(try SpherePoints(longitudes: [1, 3], latitudes: [2, 4]))
                : model.predict(try PointSet([(1, 2), (3, 4)]))
            #expect(two.map(\.label) == [-1, -1])
            #expect(model.membershipVector(x: 1, y: 2, buffer: &buffer).isEmpty)
            let back = try PredictionModel(encoded: model.encoded())
            #expect(back.predict(x: 1, y: 2, buffer: &buffer).connectingRow == -1)
            #expect(back.isOnSphere == model.isOnSphere)
        }
    }

    @Test("cut or damaged bytes are an error, never a crash")
    func damaged() throws {
        let (points, new) = try Self.data()
        let parameters = HDBSCANParameters(minClusterSize: 20)
        let bytes = try #require(try HDBSCAN.fit(points, parameters: parameters, keeping: .prediction).prediction).encoded()
        for cut in [0, 7, 32, bytes.count / 2, bytes.count - 1] {
            #expect(throws: ClusterCoreError.self) { try PredictionModel(encoded: Array(bytes.prefix(cut))) }
        }
        #expect(throws: ClusterCoreError.self) { try PredictionModel(encoded: bytes + [0]) }
        // Every byte of the counts, and bytes spread over the arrays, set to 0xFF: refused, or
        // (a coordinate that is still a number) a model that answers.
        var random = SplitMix64(seed: 3)
        let spots = Array(0..<32) + (0..<40).map { _ in Int(random.next() % UInt64(bytes.count)) }
        for spot in spots {
            var broken = bytes
            broken[spot] = 0xFF
            if let model = try? PredictionModel(encoded: broken) { _ = model.predict(new) }
        }
    }
}

@Suite("Soft clustering's prepared context")
struct SoftContextTests {
    @Test("merge heights from the table and nearest exemplars from the index equal the walk and the scan")
    func tableAndIndex() throws {
        var random = SplitMix64(seed: 21)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        // Dense patches of coincident points: their leaves' largest lambda is infinite and
        // shared by many sites, so some labels have many exemplars.
        var xs = [Double](), ys = [Double]()
        for i in 0..<3000 {
            let centre = [(200.0, 200.0), (700.0, 300.0), (450.0, 800.0)][i % 3]
            xs.append((centre.0 + (uniform() - 0.5) * 120).rounded())
            ys.append((centre.1 + (uniform() - 0.5) * 120).rounded())
        }
        let points = try PointSet(xs: xs, ys: ys)
        let model = try #require(try HDBSCAN.fit(points, parameters: HDBSCANParameters(minClusterSize: 30, minSamples: 3),
                                                 keeping: .prediction).prediction)
        let context = SoftContext(model)
        #expect(context.exemplarTrees.contains { $0 != nil }, "some label looks its exemplars up in an index")
        var scratch = context.scratch()
        for _ in 0..<300 {
            let (x, y) = (uniform() * 1000, uniform() * 1000)
            let weights = context.exemplarWeights(x: x, y: y, &scratch)
            let scanned = Self.scannedDistances(context, x, y)
            var expected = scanned.map { $0 != 0 ? 1 / $0 : Double.greatestFiniteMagnitude / Double(scanned.count) }
            PredictionModel.normalise(&expected)
            #expect(weights == expected)
        }
        for a in 0..<model.parent.count {
            let lambda = uniform()
            #expect(context.heights(a, lambda) == model.selected.map { model.mergeHeight(a, lambda, Int($0)) })
        }
        // The all-points path measures only the exemplars that can be nearest to a box: those
        // hold every point's nearest, bit for bit as the scan finds it.
        guard case let .plane(tree) = model.index else { Issue.record("a planar model"); return }
        let exemplars = PlanarExemplarDistances(tree: tree, context: context, points: model.sites.points)
        let covered = Self.checkGroups(exemplars, order: tree.index, clusterCount: model.clusterCount) { site in
            Self.scannedDistances(context, model.sites.points.xs[site], model.sites.points.ys[site])
        }
        #expect(covered == tree.count, "the groups cover every position once")
        #expect(tree.groups(ofAtMost: 1_000_000) == [0])
    }

    @Test("narrowing the candidates level by level keeps each site's nearest exemplars, at any group size")
    func narrowingKeepsTheNearest() throws {
        var random = SplitMix64(seed: 34)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        // Twenty blobs on integer coordinates (distances tie everywhere), far apart, so that
        // a far label's exemplars are narrowed to a few.
        var xs = [Double](), ys = [Double]()
        for i in 0..<6000 {
            let (cx, cy) = (Double(i % 5) * 900, Double(i % 20 / 5) * 900)
            xs.append((cx + (uniform() - 0.5) * 150).rounded())
            ys.append((cy + (uniform() - 0.5) * 150).rounded())
        }
        let model = try #require(try HDBSCAN.fit(try PointSet(xs: xs, ys: ys),
                                                 parameters: HDBSCANParameters(minClusterSize: 40, minSamples: 4),
                                                 keeping: .prediction).prediction)
        #expect(model.clusterCount >= 10)
        let context = SoftContext(model)
        guard case let .plane(tree) = model.index else { Issue.record("a planar model"); return }
        let scan = { (site: Int) -> [Double] in
            Self.scannedDistances(context, model.sites.points.xs[site], model.sites.points.ys[site])
        }
        let exemplarCount = context.exemplarXs.map(\.count).reduce(0, +)
        for size in [1, 4, 64] {
            let exemplars = PlanarExemplarDistances(tree: tree, context: context, points: model.sites.points, groupSize: size)
            #expect(Self.checkGroups(exemplars, order: tree.index, clusterCount: model.clusterCount, scan: scan) == tree.count)
            // The narrowing does narrow: a group keeps a small share of the exemplars.
            var kept = 0, groups = 0
            exemplars.forEachGroup(threads: 1) { _, near in kept += near.xy.count / 2; groups += 1 }
            #expect(kept < groups * exemplarCount / 4, "group size \(size): \(kept) kept in \(groups) groups of \(exemplarCount)")
        }
    }

    /// The distance from (x, y) to each label's nearest exemplar, by a scan of all of them.
    static func scannedDistances(_ context: SoftContext, _ x: Double, _ y: Double) -> [Double] {
        context.exemplarXs.indices.map { label in
            zip(context.exemplarXs[label], context.exemplarYs[label]).map { ex, ey in
                ((ex - x) * (ex - x) + (ey - y) * (ey - y)).squareRoot()
            }.min() ?? .greatestFiniteMagnitude
        }
    }

    /// Checks that each site's distances from its group's candidates equal `scan(site)`, and
    /// that the groups cover every position once; returns how many positions they cover.
    static func checkGroups<E: ExemplarDistances>(_ exemplars: E, order: [Int32], clusterCount: Int,
                                                  scan: (Int) -> [Double]) -> Int {
        var seen = Set<Int>()
        let out = UnsafeMutablePointer<Double>.allocate(capacity: max(clusterCount, 1))
        defer { out.deallocate() }
        exemplars.forEachGroup(threads: 1) { positions, near in
            for p in positions {
                #expect(seen.insert(p).inserted)
                let site = Int(order[p])
                exemplars.distances(site: site, near, into: out)
                #expect(Array(UnsafeBufferPointer(start: out, count: clusterCount)) == scan(site))
            }
        }
        return seen.count
    }
}
