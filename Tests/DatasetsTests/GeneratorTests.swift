import Foundation
import Testing
@testable import Datasets
import struct TestSupport.TemporaryFolder
import func TestSupport.withTemporaryFolder
import Pins

// The generator under test is written `Datasets.SplitMix64` below, to tell it from the test
// targets' generator in Tests/TestSupport.

@Suite("Generator: PRNG and deterministic maths")
struct GeneratorRandomTests {
    @Test("SplitMix64 reproduces the reference outputs of Vigna's splitmix64.c")
    func referenceOutputs() {
        var g = Datasets.SplitMix64(seed: 0)
        #expect([g.next(), g.next(), g.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        // The published test vector: seed 1234567 starts with 6457827717110365317.
        var h = Datasets.SplitMix64(seed: 1_234_567)
        #expect(h.next() == 6_457_827_717_110_365_317)
        #expect(h.next() == 0x2C73_F084_5854_0FA5)
    }

    @Test("streams of one seed are not shifted copies of each other")
    func streams() {
        var a = Datasets.SplitMix64(seed: 7, stream: 0), b = Datasets.SplitMix64(seed: 7, stream: 1)
        let firstOfB = b.next()
        let manyOfA = (0..<10_000).map { _ in a.next() }
        #expect(!manyOfA.contains(firstOfB))
        var c = Datasets.SplitMix64(seed: 7, stream: 0)
        #expect(c.next() == manyOfA[0], "a stream is itself deterministic")
    }

    @Test("nextInt(below:) stays in range and reaches every value; nextDouble is in [0, 1)")
    func integers() {
        var g = Datasets.SplitMix64(seed: 3)
        var seen = Set<Int>()
        for _ in 0..<10_000 {
            let v = g.nextInt(below: 7)
            #expect(v >= 0 && v < 7)
            seen.insert(v)
            let d = g.nextDouble()
            #expect(d >= 0 && d < 1)
        }
        #expect(seen == Set(0..<7))
        #expect((0..<1000).allSatisfy { _ in (3...5).contains(g.nextInt(in: 3...5)) })
    }

    @Test("normal deviates have mean 0 and variance 1; Pareto deviates are at least 1")
    func moments() {
        var g = Datasets.SplitMix64(seed: 11)
        let n = 200_000
        var sum = 0.0, sumSq = 0.0
        for _ in 0..<n {
            let z = g.nextNormal()
            sum += z; sumSq += z * z
        }
        let mean = sum / Double(n), variance = sumSq / Double(n) - mean * mean
        #expect(abs(mean) < 0.01, "mean \(mean)")
        #expect(abs(variance - 1) < 0.02, "variance \(variance)")
        #expect((0..<10_000).allSatisfy { _ in g.nextPareto(alpha: 1.2) >= 1 })
        let lu = (0..<10_000).map { _ in g.nextLogUniform(30, 400) }
        #expect(lu.min()! >= 30 && lu.max()! < 400)
    }

    /// Distance in units in the last place between two finite doubles of the same sign.
    private func ulps(_ a: Double, _ b: Double) -> UInt64 {
        if a == b { return 0 }
        let x = Int64(bitPattern: a.bitPattern), y = Int64(bitPattern: b.bitPattern)
        return x > y ? UInt64(x - y) : UInt64(y - x)
    }

    @Test("DeterministicMath.log and exp are within 1 ulp of the C library over wide ranges")
    func mathAgreesWithLibm() {
        var g = Datasets.SplitMix64(seed: 5)
        var worstLog: UInt64 = 0, worstExp: UInt64 = 0
        for _ in 0..<200_000 {
            // log: arguments spread over 600 binary orders of magnitude, and near 1.
            let x = Foundation.exp(g.nextDouble(in: -700, 700))
            worstLog = max(worstLog, ulps(DeterministicMath.log(x), Foundation.log(x)))
            let near1 = 1 + g.nextDouble(in: -1e-3, 1e-3)
            worstLog = max(worstLog, ulps(DeterministicMath.log(near1), Foundation.log(near1)))
            let u = g.nextDouble()
            worstLog = max(worstLog, ulps(DeterministicMath.log(u), Foundation.log(u)))
            let e = g.nextDouble(in: -745, 709)
            worstExp = max(worstExp, ulps(DeterministicMath.exp(e), Foundation.exp(e)))
            let small = g.nextDouble(in: -2, 2)
            worstExp = max(worstExp, ulps(DeterministicMath.exp(small), Foundation.exp(small)))
        }
        #expect(worstLog <= 1)
        #expect(worstExp <= 1)
    }

    @Test("special values of log and exp")
    func specialValues() {
        #expect(DeterministicMath.log(1) == 0)
        #expect(DeterministicMath.log(0) == -.infinity)
        #expect(DeterministicMath.log(-1).isNaN)
        #expect(DeterministicMath.log(.nan).isNaN)
        #expect(DeterministicMath.log(.infinity) == .infinity)
        #expect(DeterministicMath.log(.leastNonzeroMagnitude) == Foundation.log(Double.leastNonzeroMagnitude))
        #expect(DeterministicMath.log(2) == Foundation.log(2.0))
        #expect(DeterministicMath.exp(0) == 1)
        #expect(ulps(DeterministicMath.exp(1), Foundation.exp(1.0)) <= 1)
        #expect(DeterministicMath.exp(-.infinity) == 0)
        #expect(DeterministicMath.exp(.infinity) == .infinity)
        #expect(DeterministicMath.exp(1000) == .infinity)
        #expect(DeterministicMath.exp(-1000) == 0)
        #expect(DeterministicMath.exp(.nan).isNaN)
        // Subnormal results (k < -1021 branch).
        let sub = DeterministicMath.exp(-740)
        #expect(sub > 0 && sub < Double.leastNormalMagnitude)
        #expect(sub == Foundation.exp(-740.0) || ulps(sub, Foundation.exp(-740.0)) <= 1)
    }

    @Test("apportion splits a total exactly, in proportion")
    func apportion() {
        #expect(ScenarioModel.apportion([0.55, 0.15, 0.30], total: 10_000) == [5500, 1500, 3000])
        #expect(ScenarioModel.apportion([1, 1, 1], total: 10) == [4, 3, 3])
        #expect(ScenarioModel.apportion([0.55, 0.15, 0.30], total: 1) == [1, 0, 0])
        var g = Datasets.SplitMix64(seed: 9)
        for _ in 0..<100 {
            let w = (0..<g.nextInt(in: 1...50)).map { _ in g.nextPareto(alpha: 1.2) }
            let total = g.nextInt(below: 100_000)
            let parts = ScenarioModel.apportion(w, total: total)
            #expect(parts.reduce(0, +) == total)
            let sum = w.reduce(0, +)
            for (p, wi) in zip(parts, w) { #expect(abs(Double(p) - Double(total) * wi / sum) < 1) }
        }
    }

    @Test("the Fenwick sampler hands out every unit of every count exactly once")
    func fenwick() {
        let counts = [3, 0, 5, 1, 0, 0, 7, 2]
        var s = FenwickSampler(counts: counts)
        var g = Datasets.SplitMix64(seed: 1)
        var drawn = [Int](repeating: 0, count: counts.count)
        while s.total > 0 { drawn[s.take(g.nextInt(below: s.total))] += 1 }
        #expect(drawn == counts)
        // Unit r of the running total maps to the item holding it.
        var t = FenwickSampler(counts: counts)
        #expect(t.take(0) == 0)
        #expect(t.take(2) == 2)   // counts now [2,0,5,…]: units 0-1 item 0, 2-6 item 2
        #expect(t.take(t.total - 1) == 7)
    }
}

/// Generated listings in memory, one run per (scenario, count), shared by the shape tests.
enum Generated {
    static func listings(_ scenario: Scenario, count: Int, seed: UInt64 = 1) throws -> (ScenarioModel, ListingChunk) {
        let model = ScenarioModel(scenario: scenario, count: count, seed: seed)
        return (model, try GeneratedListings.generate(model: model))
    }

    /// Points per cluster label.
    static func byTruth(_ c: ListingChunk) -> [Int32: [Int]] {
        Dictionary(grouping: c.ids.indices, by: { c.truth[$0] })
    }

    /// Standard deviations along the principal axes (major, minor) of some points, metres.
    static func principalSpreads(_ c: ListingChunk, _ rows: [Int]) -> (Double, Double) {
        let n = Double(rows.count)
        let mx = rows.reduce(0) { $0 + c.x[$1] } / n, my = rows.reduce(0) { $0 + c.y[$1] } / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for r in rows {
            let dx = c.x[r] - mx, dy = c.y[r] - my
            sxx += dx * dx; syy += dy * dy; sxy += dx * dy
        }
        sxx /= n; syy /= n; sxy /= n
        let mid = (sxx + syy) / 2, d = (((sxx - syy) / 2) * ((sxx - syy) / 2) + sxy * sxy).squareRoot()
        return ((mid + d).squareRoot(), max(mid - d, 0).squareRoot())
    }

    /// Share of listings whose coordinates equal another listing's.
    static func duplicateShare(_ c: ListingChunk) -> Double {
        var counts: [Int64: Int] = [:]
        let keys = c.ids.indices.map { Int64((c.lat[$0] * 1e6).rounded()) &* 1_000_000_000 &+ Int64((c.lon[$0] * 1e6).rounded()) }
        for k in keys { counts[k, default: 0] += 1 }
        return Double(keys.filter { counts[$0]! > 1 }.count) / Double(c.count)
    }

    static func median(_ v: [Double]) -> Double {
        let s = v.sorted()
        return s.isEmpty ? .nan : s[s.count / 2]
    }
}

@Suite("Generator: scenario shapes")
struct GeneratorShapeTests {
    @Test("every scenario gives exactly the requested count, ids 0..<N, for tiny and odd counts",
          arguments: Scenario.allCases)
    func exactCounts(_ scenario: Scenario) throws {
        for n in [1, 2, 7, 100, 1001] {
            let (model, c) = try Generated.listings(scenario, count: n)
            #expect(c.count == n, "\(scenario) \(n)")
            #expect(c.ids == Array(0..<n))
            #expect(model.components.reduce(0) { $0 + $1.count } == n)
            let projected = scenario.writesProjectedXY ? n : 0
            #expect(c.x.count == projected && c.y.count == projected)
            // Truth labels are 0..<clusters with no gaps, plus -1.
            let labels = Set(c.truth.filter { $0 >= 0 })
            #expect(labels.isSubset(of: Set((0..<Int32(model.clusterCount)))))
        }
    }

    @Test("chunk size does not change the listings")
    func chunking() {
        let model = ScenarioModel(scenario: .seoul, count: 5000, seed: 4)
        var whole = ListingGenerator(model: model), pieces = ListingGenerator(model: model)
        let all = whole.next(maxCount: 10_000)!
        var joined = ListingChunk()
        while let c = pieces.next(maxCount: 777) { joined.append(c) }
        #expect(joined == all)
        #expect(whole.next() == nil)
    }

    @Test("seoul: 55% apartments in complexes, 15% officetels in strips, 30% background, in the Seoul box")
    func seoul() throws {
        let (model, c) = try Generated.listings(.seoul, count: 20_000)
        #expect(c.truth.filter { $0 < 0 }.count == 6000)
        #expect(model.backgroundCount == 6000)
        #expect(c.category.filter { $0 == .apartment }.count == 11_000)
        #expect(c.category.filter { $0 == .officetel }.count == 3000)
        // Clusters: round(11000/150) = 73 complexes and round(3000/120) = 25 strips.
        #expect(model.clusterCount == 98)
        let box = CityExtent.seoul.box
        #expect(c.ids.indices.allSatisfy { box.contains(longitude: c.lon[$0], latitude: c.lat[$0]) })
        for i in c.ids.indices {
            if c.truth[i] >= 0 {
                #expect(c.category[i] == .apartment || c.category[i] == .officetel)
            } else {
                #expect([.villa, .oneRoom, .twoRoom, .store].contains(c.category[i]))
            }
        }
        // Complex spreads lie in 30-400 m (estimated from the points of sizeable complexes),
        // and sizes are heavy-tailed: the largest complex holds several times the median.
        let groups = Generated.byTruth(c)
        var sizes: [Double] = []
        for comp in model.components where comp.truth >= 0 {
            guard case .blob(let sigma) = comp.shape else { continue }
            #expect(sigma >= 30 && sigma < 400)
            sizes.append(Double(comp.count))
            let rows = groups[comp.truth] ?? []
            if rows.count >= 200 {
                let (a, b) = Generated.principalSpreads(c, rows)
                let estimate = ((a * a + b * b) / 2).squareRoot()
                #expect(estimate > 0.75 * sigma && estimate < 1.3 * sigma, "σ \(sigma) estimated \(estimate)")
            }
        }
        #expect(sizes.max()! > 4 * Generated.median(sizes))
        // Several units per building, at the building's exact coordinates.
        #expect(Generated.duplicateShare(c) > 0.5)
    }

    @Test("units of a building share its coordinates, category and cluster; building ids number buildings in order")
    func buildings() throws {
        let (_, c) = try Generated.listings(.seoul, count: 5000)
        var first: [Int: Int] = [:]
        for i in c.ids.indices {
            if let j = first[c.buildingID[i]] {
                #expect(c.lat[i] == c.lat[j] && c.lon[i] == c.lon[j] && c.x[i] == c.x[j])
                #expect(c.category[i] == c.category[j] && c.truth[i] == c.truth[j])
            } else {
                #expect(c.buildingID[i] == first.count, "a new building gets the next id")
                first[c.buildingID[i]] = i
            }
        }
        #expect(first.count < 5000 / 2)
    }

    @Test("varying-density: four equal clusters per group with spreads 40, 126.5 and 400 m, densities 100x apart")
    func varyingDensity() throws {
        let (model, c) = try Generated.listings(.varyingDensity, count: 20_000)
        #expect(c.truth.filter { $0 < 0 }.count == 2000)
        #expect(model.clusterCount == 4 * 11)   // round(18000 / 1600) groups
        let groups = Generated.byTruth(c)
        var densities: [Double] = []
        for comp in model.components where comp.truth >= 0 {
            guard case .blob(let sigma) = comp.shape else { Issue.record("not a blob"); continue }
            #expect([40.0, 40 * 10.0.squareRoot(), 400].contains(sigma))
            let rows = groups[comp.truth]!
            #expect(rows.count == comp.count)
            #expect(abs(rows.count - 18_000 / 44) <= 1)
            let (a, b) = Generated.principalSpreads(c, rows)
            let estimate = ((a * a + b * b) / 2).squareRoot()
            #expect(estimate > 0.8 * sigma && estimate < 1.2 * sigma, "σ \(sigma) estimated \(estimate)")
            densities.append(Double(rows.count) / (estimate * estimate))
        }
        let ratio = densities.max()! / densities.min()!
        #expect(ratio > 60 && ratio < 160, "density ratio \(ratio)")
        // Dense clusters come in pairs 320 m apart.
        let dense = model.components.filter { $0.shape == .blob(sigma: 40) }
        for k in stride(from: 0, to: dense.count, by: 2) {
            let dx = (dense[k].centreLon - dense[k + 1].centreLon) * CityExtent.seoul.metresPerDegreeLon
            let dy = (dense[k].centreLat - dense[k + 1].centreLat) * CityExtent.seoul.metresPerDegreeLat
            #expect(abs((dx * dx + dy * dy).squareRoot() - 320) < 0.01)
        }
        #expect(Generated.duplicateShare(c) < 0.01, "one unit per building")
    }

    @Test("strips: long thin clusters, at least 10 times longer than wide, 10% background")
    func strips() throws {
        let (model, c) = try Generated.listings(.strips, count: 20_000)
        #expect(c.truth.filter { $0 < 0 }.count == 2000)
        #expect(model.clusterCount == 45)   // round(18000 / 400)
        for (truth, rows) in Generated.byTruth(c) where truth >= 0 && rows.count >= 50 {
            let (major, minor) = Generated.principalSpreads(c, rows)
            #expect(major / minor > 10, "strip \(truth): \(major) m by \(minor) m")
            #expect(minor < 50)
        }
        #expect(c.category.enumerated().allSatisfy { c.truth[$0.offset] < 0 || $0.element == .officetel })
    }

    @Test("uniform: no clusters and no structure")
    func uniform() throws {
        let (model, c) = try Generated.listings(.uniform, count: 20_000)
        #expect(model.clusterCount == 0)
        #expect(c.truth.allSatisfy { $0 == -1 })
        #expect(Generated.duplicateShare(c) < 0.01)
        // Each quarter of the box holds about a quarter of the points.
        let box = CityExtent.seoul.box
        let midLon = (box.minLongitude + box.maxLongitude) / 2, midLat = (box.minLatitude + box.maxLatitude) / 2
        var quarters = [0, 0, 0, 0]
        for i in c.ids.indices { quarters[(c.lon[i] < midLon ? 0 : 1) + (c.lat[i] < midLat ? 0 : 2)] += 1 }
        #expect(quarters.allSatisfy { abs($0 - 5000) < 300 }, "\(quarters)")
    }

    @Test("duplicates: most points coincide with others")
    func duplicates() throws {
        let (_, c) = try Generated.listings(.duplicates, count: 20_000)
        #expect(c.truth.filter { $0 < 0 }.count == 2000)
        let share = Generated.duplicateShare(c)
        #expect(share > 0.85, "share \(share)")
    }

    @Test("busan: every point inside the coastline polygon, none in Seoul, and prices below Seoul's")
    func busan() throws {
        let (model, c) = try Generated.listings(.busan, count: 20_000)
        #expect(c.truth.filter { $0 < 0 }.count == 6000)
        #expect(model.clusterCount == 98)
        #expect(c.ids.indices.allSatisfy { CityExtent.busan.contains(lon: c.lon[$0], lat: c.lat[$0]) })
        #expect(!c.ids.indices.contains { CityExtent.seoul.box.contains(longitude: c.lon[$0], latitude: c.lat[$0]) })
        // The polygon is not its box: a point of the box in the sea (south-east corner).
        #expect(!CityExtent.busan.contains(lon: 129.29, lat: 35.05))
        #expect(CityExtent.busan.box.contains(longitude: 129.29, latitude: 35.05))
        let (_, s) = try Generated.listings(.seoul, count: 20_000)
        func jeonsePerM2(_ c: ListingChunk) -> Double {
            Generated.median(c.ids.indices.filter { c.category[$0] == .apartment && c.rent[$0] == 0 }
                .map { Double(c.deposit[$0]) / c.area[$0] })
        }
        #expect(jeonsePerM2(c) < 0.8 * jeonsePerM2(s))
    }

    @Test("attributes follow the documented distributions")
    func attributes() throws {
        let (_, c) = try Generated.listings(.seoul, count: 20_000)
        for i in c.ids.indices {
            let p = CategoryProfile.of(c.category[i])
            #expect(c.area[i] >= p.areaMin && c.area[i] <= p.areaMax)
            #expect(c.area[i] == (c.area[i] * 100).rounded() / 100)
            #expect(c.deposit[i] >= 0 && c.rent[i] >= 0)
            if c.rent[i] == 0 { #expect(c.deposit[i] % 100 == 0 && c.category[i] != .store, "jeonse") }
            else { #expect(c.deposit[i] % 50 == 0) }
            #expect(c.floor[i] == -1 || (c.floor[i] >= 1 && c.floor[i] <= p.floors.upperBound))
        }
        let apartments = c.ids.indices.filter { c.category[$0] == .apartment }
        let medianArea = Generated.median(apartments.map { c.area[$0] })
        #expect(abs(medianArea - 84) < 4, "median apartment area \(medianArea)")
        let jeonseShare = Double(apartments.filter { c.rent[$0] == 0 }.count) / Double(apartments.count)
        #expect(abs(jeonseShare - 0.55) < 0.03)
        // Rent rises with area: monthly apartments in the top area quartile pay more.
        let monthly = apartments.filter { c.rent[$0] > 0 }.sorted { c.area[$0] < c.area[$1] }
        let q = monthly.count / 4
        let small = Generated.median(monthly[..<q].map { Double(c.rent[$0]) })
        let large = Generated.median(monthly[(3 * q)...].map { Double(c.rent[$0]) })
        #expect(large > 1.4 * small, "rent \(small) vs \(large)")
        // And with the price level: jeonse per m² near Gangnam above that far from every centre.
        let seoul = CityExtent.seoul
        let jeonse = apartments.filter { c.rent[$0] == 0 }
        let rich = jeonse.filter { seoul.priceLevel(lon: c.lon[$0], lat: c.lat[$0]) > 1.5 }
        let plain = jeonse.filter { seoul.priceLevel(lon: c.lon[$0], lat: c.lat[$0]) < 0.9 }
        if rich.count > 20 && plain.count > 20 {
            let r = Generated.median(rich.map { Double(c.deposit[$0]) / c.area[$0] })
            let p = Generated.median(plain.map { Double(c.deposit[$0]) / c.area[$0] })
            #expect(r > 1.5 * p, "\(r) vs \(p)")
        }
        #expect(seoul.priceLevel(lon: 127.0276, lat: 37.4979) > 1.75)
        #expect(abs(seoul.priceLevel(lon: 126.77, lat: 37.69) - 0.8) < 0.01)
    }
}

@Suite("Generator: files")
struct GeneratorFileTests {
    private func write(_ scenario: Scenario, count: Int, seed: UInt64, _ name: String, in folder: TemporaryFolder) throws -> Data {
        let path = folder.path(name)
        let model = ScenarioModel(scenario: scenario, count: count, seed: seed)
        _ = try GeneratedListings.write(model: model, to: path, format: ListingFormat(path: path)!)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test("same scenario and seed give the same bytes; another seed or scenario other bytes", arguments: Scenario.allCases)
    func determinism(_ scenario: Scenario) throws {
        try withTemporaryFolder { folder throws in
            let a = try write(scenario, count: 3000, seed: 42, "a.csv", in: folder)
            let b = try write(scenario, count: 3000, seed: 42, "b.csv", in: folder)
            let c = try write(scenario, count: 3000, seed: 43, "c.csv", in: folder)
            #expect(a == b)
            #expect(a != c)
            let g1 = try write(scenario, count: 500, seed: 42, "a.geojson", in: folder)
            let g2 = try write(scenario, count: 500, seed: 42, "b.geojson", in: folder)
            #expect(g1 == g2)
            // Only the written files: no temporary file left behind.
            #expect(try folder.contents() == ["a.csv", "a.geojson", "b.csv", "b.geojson", "c.csv"])
        }
    }

    @Test("one seed gives unrelated scenarios (separate RNG streams)")
    func scenariosDiffer() throws {
        let (_, a) = try Generated.listings(.seoul, count: 200, seed: 1)
        let (_, b) = try Generated.listings(.busan, count: 200, seed: 1)
        #expect(a.area != b.area)
    }

    @Test("the CSV has the documented columns and reads back to the generated values exactly")
    func csvRoundTrip() throws {
        try withTemporaryFolder { folder throws in
            let path = folder.path("s.csv")
            let model = ScenarioModel(scenario: .seoul, count: 2000, seed: 8)
            let summary = try GeneratedListings.write(model: model, to: path, format: .csv)
            #expect(summary == GenerationSummary(scenario: .seoul, seed: 8, generated: 2000, kept: 2000,
                                                 clusters: model.clusterCount, background: 600,
                                                 keptClusters: model.clusterCount, keptBackground: 600))
            let c = try GeneratedListings.generate(model: model)
            let t = try CSV.read(path: path)
            #expect(t.header == ["id", "lat", "lon", "x", "y", "truth", "category", "area_m2",
                                 "deposit", "monthly_rent", "floor", "building_id"])
            #expect(t.rows.count == 2000)
            let ll = try t.coordinates(prefer: .lonlat), xy = try t.coordinates(prefer: .xy)
            #expect(ll.xOrLongitude == c.lon && ll.yOrLatitude == c.lat)
            #expect(xy.xOrLongitude == c.x.map { ($0 * 100).rounded() / 100 })
            #expect(xy.yOrLatitude == c.y.map { ($0 * 100).rounded() / 100 })
            #expect(t.rows.map { $0[5] } == c.truth.map { String($0) })
            #expect(t.rows.map { $0[6] } == c.category.map(\.rawValue))
            #expect(try t.doubles(column: 7) == c.area)
            #expect(t.rows.map { Int($0[8])! } == c.deposit)
            #expect(t.rows.map { Int($0[9])! } == c.rent)
            #expect(t.rows.map { Int($0[10])! } == c.floor)
            #expect(t.rows.map { Int($0[11])! } == c.buildingID)
            #expect(t.rows[0][1].split(separator: ".")[1].count == 6, "degrees to 6 decimals")
            #expect(t.rows[0][3].split(separator: ".")[1].count == 2, "metres to 2 decimals")
        }
    }

    @Test("x,y are the EPSG:5179 projection of lat,lon")
    func projection() throws {
        let (_, c) = try Generated.listings(.busan, count: 300)
        // Seoul City Hall in EPSG:5179 is about (953,900, 1,952,000); Busan is south-east.
        #expect(c.x.allSatisfy { $0 > 1_080_000 && $0 < 1_180_000 })
        #expect(c.y.allSatisfy { $0 > 1_650_000 && $0 < 1_720_000 })
        let (_, s) = try Generated.listings(.seoul, count: 300)
        #expect(s.x.allSatisfy { $0 > 920_000 && $0 < 980_000 })
        #expect(s.y.allSatisfy { $0 > 1_930_000 && $0 < 1_970_000 })
    }

    @Test("an output folder that does not exist fails before generating, leaving nothing")
    func missingFolder() throws {
        try withTemporaryFolder { folder throws in
            let path = folder.path("nope/out.csv")
            let model = ScenarioModel(scenario: .seoul, count: 10, seed: 1)
            #expect(throws: DatasetError.outputFolderMissing(path: path)) {
                try GeneratedListings.write(model: model, to: path, format: .csv)
            }
            #expect(try folder.contents().isEmpty)
        }
    }
}

@Suite("Generator: number formatting and parsing")
struct GeneratorNumberTests {
    private func csv(_ body: (inout CSVWriter) throws -> Void) throws -> String {
        try withTemporaryFolder { folder throws in
            var w = try CSVWriter(path: folder.path("n.csv"))
            try body(&w)
            try w.commit()
            return try String(contentsOfFile: folder.path("n.csv"), encoding: .utf8)
        }
    }

    @Test("fixed decimals: every place written, ties away from zero, no negative zero")
    func fixedDecimals() throws {
        let text = try csv { w throws in
            for (v, d) in [(37.5, 6), (953_892.125, 2), (-0.0000004, 6), (-1.5, 0), (2.5, 0), (0.0, 2),
                           (-126.9999999, 6), (1e300, 2), (Double.nan, 2), (84.1, 2)] {
                w.field(v, decimals: d)
            }
            try w.endRow()
        }
        #expect(text == "37.500000,953892.13,0.000000,-2,3,0.00,-127.000000,1e+300,nan,84.10\n")
    }

    @Test("integers and [0, 1] numbers at 10 decimals match a plain reference formatting")
    func integersAndUnitIntervals() throws {
        // Reference: round(v * 1e10) ties away from zero, ten places, trailing zeros dropped.
        func reference(_ v: Double) -> String {
            let scaled = UInt64((v * 1e10).rounded())
            let whole = scaled / 10_000_000_000, frac = scaled % 10_000_000_000
            if frac == 0 { return "\(whole)" }
            var f = String(frac)
            f = String(repeating: "0", count: 10 - f.count) + f
            while f.hasSuffix("0") { f.removeLast() }
            return "\(whole).\(f)"
        }
        var g = SplitMix64(seed: 5)
        var units: [Double] = [0, 1, 0.5, 0.25, 1e-10, 5e-11, 4.9e-11, 0.99999999995, 0.99999999994,
                               (1.0).nextDown, 1e-300, 0.1, 0.123456789012345, 0.0000000001]
        for _ in 0..<20_000 { units.append(g.nextDouble()) }
        for k in 0..<2_000 { units.append(Double(k) / 2_000) }
        // Exact halves of the last place: 0.00000000005 + k * 1e-10 (as near as doubles get).
        for k in 0..<1_000 { units.append((Double(k) + 0.5) / 1e10) }
        let integers = [0, 7, 9, 10, 11, 99, 100, 101, 999, 1000, 65_535, 1_000_000, 123_456_789,
                        -1, -10, -99_999, Int.max, Int.min + 1]
        let text = try csv { w throws in
            for v in units { w.field(unitInterval: v) }
            try w.endRow()
            for i in integers { w.field(i) }
            try w.endRow()
        }
        let lines = text.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        try #require(lines.count == 2)
        #expect(lines[0] == units.map(reference))
        #expect(lines[1] == integers.map { String($0) })
    }

    @Test("a row that is one empty field is written as \"\" so that it is not a blank line")
    func emptyOnlyField() throws {
        let text = try csv { w throws in
            w.field(""); try w.endRow()
            w.field(""); w.field(""); try w.endRow()
            w.field("a"); try w.endRow()
        }
        #expect(text == "\"\"\n,\na\n")
        let column = try csv { w throws in
            try w.header(["note"])
            w.field(""); try w.endRow()
            w.field("x"); try w.endRow()
        }
        #expect(try CSV.parse(Array(column.utf8), path: "t").rows == [[""], ["x"]])
    }

    @Test("the fast decimal parser gives strtod's value for everything it accepts")
    func fastPathMatchesStrtod() {
        var g = Datasets.SplitMix64(seed: 17)
        func check(_ text: String) {
            var t = text
            let fast = t.withUTF8 { parseDouble($0) }
            let reference = strtod(text, nil)
            #expect(fast == reference, "\(text): \(String(describing: fast)) vs \(reference)")
        }
        for _ in 0..<20_000 {
            let v = g.nextDouble(in: -1000, 1000)
            check(String(format: "%.\(g.nextInt(in: 0...9))f", v))
            check(String(format: "%.15g", v))
            check("\(v)")
            let m = g.nextInt(below: 1 << 53), e = g.nextInt(in: -22...22)
            check("\(m)e\(e)")
        }
        for s in ["0", "-0", "+1.5", ".5", "5.", "1E3", "9007199254740993", "123456789012345678901234",
                  "1e-400", "1e400", "4.9406564584124654e-324", "0x1p3", " 12.5 ", "2.2250738585072011e-308"] {
            check(s)
        }
        var bad = "12a"
        #expect(bad.withUTF8 { parseDouble($0) } == nil)
        bad = ""
        #expect(bad.withUTF8 { parseDouble($0) } == nil)
        bad = "-"
        #expect(bad.withUTF8 { parseDouble($0) } == nil)
        bad = "1e"
        #expect(bad.withUTF8 { parseDouble($0) } == nil)
    }
}

@Suite("CSV writer: rows formatted on several threads")
struct CSVWriterParallelRowsTests {
    /// Row i: a text field that sometimes needs quoting or is empty, an integer, a probability
    /// and a shortest-form double, so every formatting path crosses part boundaries.
    private static func format(_ w: inout CSVWriter, _ i: Int) {
        switch i % 5 {
        case 0: w.field("id,\(i)")
        case 1: w.field("say \"\(i)\"")
        case 2: w.field("")
        default: w.field("p\(i)")
        }
        w.field(i * 7 - 1000)
        w.field(unitInterval: Double(i % 5) / 4)
        w.field(Double(i) / 4)
    }

    /// The same row, built as a string by hand.
    private static func expectedRow(_ i: Int) -> String {
        let name: String
        switch i % 5 {
        case 0: name = "\"id,\(i)\""
        case 1: name = "\"say \"\"\(i)\"\"\""
        case 2: name = ""
        default: name = "p\(i)"
        }
        let p = ["0", "0.25", "0.5", "0.75", "1"][i % 5]
        let x = i == 0 ? "0" : (Double(i) / 4).description
        return "\(name),\(i * 7 - 1000),\(p),\(x)\n"
    }

    private func written(count: Int, threads: Int) throws -> [UInt8] {
        try withTemporaryFolder { folder throws in
            var w = try CSVWriter(path: folder.path("rows.csv"))
            try w.header(["name", "n", "p", "x"])
            try w.writeRows(count: count, threads: threads) { w, i in Self.format(&w, i) }
            try w.commit()
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path("rows.csv"))))
            #expect(try folder.contents() == ["rows.csv"], "no part or temporary file is left")
            return bytes
        }
    }

    @Test("1, 2 and 3 threads write the same bytes, every row in order", arguments: [0, 5, 65_535, 200_003])
    func sameBytes(count: Int) throws {
        var expected = "name,n,p,x\n"
        for i in 0..<count { expected += Self.expectedRow(i) }
        let single = try written(count: count, threads: 1)
        #expect(single == Array(expected.utf8))
        #expect(try written(count: count, threads: 2) == single)
        #expect(try written(count: count, threads: 3) == single)
    }

    /// The batches are written by a worker while the next is formatted: a failing write must
    /// still surface as the writer's error, on any thread count. /dev/full refuses every write.
    #if os(Linux)
    @Test("a device that refuses writes fails the rows with writeFailed, on 1 and 2 threads", arguments: [1, 2])
    func writeFailure(threads: Int) throws {
        var w = try CSVWriter(path: "/dev/full")
        try w.header(["name", "n", "p", "x"])
        do {
            try w.writeRows(count: 200_003, threads: threads) { w, i in Self.format(&w, i) }
            try w.commit()
            Issue.record("writing 200,003 rows to /dev/full succeeded")
        } catch {
            guard case .writeFailed(let path, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(path == "/dev/full")
        }
    }
    #endif
}
